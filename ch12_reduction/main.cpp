// main() of chapter 12's programs. Built without HB_VARIANT_ID it is the driver `reduction`;
// CMake also builds it once per file of kernels/, with HB_VARIANT_ID (e.g. 10a) and
// HB_PROGRAM_NAME, as that variant's own program (reduction10a_neighbored).
#include "reduction.h"

#define CH12_STRINGIFY2(x) #x
#define CH12_STRINGIFY(x) CH12_STRINGIFY2(x)

int main(int argc, char** argv) {
#ifdef HB_VARIANT_ID
  return ch12::variant_program_main(HB_PROGRAM_NAME, CH12_STRINGIFY(HB_VARIANT_ID), argc, argv);
#else
  return ch12::driver_main(argc, argv);
#endif
}
