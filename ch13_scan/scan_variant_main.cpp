// The main() of every per-variant scan program (scan0a_cpu, scan3_scan_then_fan, ...). CMake
// builds this file once per row of the scan table and tells it which row through
// HB_VARIANT_ID (e.g. 5c) and HB_PROGRAM_NAME; everything else lives in the chapter library.
#include "scan_harness.h"

#define CH13_STRINGIFY2(x) #x
#define CH13_STRINGIFY(x) CH13_STRINGIFY2(x)

int main(int argc, char** argv) {
  return ch13::scan_program_main(HB_PROGRAM_NAME, CH13_STRINGIFY(HB_VARIANT_ID), argc, argv);
}
