// main() of chapter 15's programs. Built without HB_VARIANT_ID it is the driver
// normalized_cross_correlation (the book's normalizedCrossCorrelation.cu): the 9 x 9
// neighbourhood of coefficients around the template's position, then every variant's rate;
// with --sweep the rate against the template size; --csv for machines. CMake also builds it
// once per variant, with HB_VARIANT_ID (e.g. 5) and HB_PROGRAM_NAME, as that variant's own
// program (corr_shared4).
#include "correlation.h"

#define CH15_STRINGIFY2(x) #x
#define CH15_STRINGIFY(x) CH15_STRINGIFY2(x)

int main(int argc, char** argv) {
#ifdef HB_VARIANT_ID
  return ch15::variant_program_main(HB_PROGRAM_NAME, CH15_STRINGIFY(HB_VARIANT_ID), argc, argv);
#else
  return ch15::driver_main(argc, argv);
#endif
}
