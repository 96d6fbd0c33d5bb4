// The main() of every per-variant program (nbody_cpu_aos, nbody_gpu_shared, ...). CMake
// builds this file once per row of the variant table and tells it which row through
// HB_VARIANT_ID and HB_PROGRAM_NAME; everything else lives in the chapter library.
#include "nbody_harness.h"

int main(int argc, char** argv) {
  return ch14::variant_program_main(HB_PROGRAM_NAME, HB_VARIANT_ID, argc, argv);
}
