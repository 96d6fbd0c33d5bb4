// main() of the chapter's programs. Built without HB_VARIANT_ID it is the driver `histogram`;
// CMake also builds it once per variant, with HB_VARIANT_ID (e.g. 4) and HB_PROGRAM_NAME, as
// that variant's own program (histogram_shared_privatized).
#include "histogram.h"

#define HISTO_STRINGIFY2(x) #x
#define HISTO_STRINGIFY(x) HISTO_STRINGIFY2(x)

int main(int argc, char** argv) {
#ifdef HB_VARIANT_ID
  return histo::variant_program_main(HB_PROGRAM_NAME, HISTO_STRINGIFY(HB_VARIANT_ID), argc, argv);
#else
  return histo::driver_main(argc, argv);
#endif
}
