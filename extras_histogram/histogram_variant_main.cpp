// The main() of every per-variant program (histogram_cpu_serial, histogram_naive, ...). CMake
// builds this file once per row of the variant table and says which row through
// HB_VARIANT_ID and HB_PROGRAM_NAME; everything else lives in the chapter's library.
#include "histogram_harness.h"

int main(int argc, char** argv) {
  return histo::variant_program_main(HB_PROGRAM_NAME, HB_VARIANT_ID, argc, argv);
}
