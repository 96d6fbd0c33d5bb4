// main() of chapter 13's programs. CMake builds it once per row of the scan and compaction
// tables, with HB_VARIANT_ID (e.g. 5c) and HB_PROGRAM_NAME (scan5c_two_level_shuffle), as that
// variant's own program, and without HB_VARIANT_ID as the drivers `scan` and `compact`.
#include "scan.h"

#define CH13_STRINGIFY2(x) #x
#define CH13_STRINGIFY(x) CH13_STRINGIFY2(x)

int main(int argc, char** argv) {
#ifdef HB_VARIANT_ID
  return ch13::variant_program_main(HB_PROGRAM_NAME, CH13_STRINGIFY(HB_VARIANT_ID), argc, argv);
#else
  return ch13::driver_main(HB_PROGRAM_NAME, argc, argv);
#endif
}
