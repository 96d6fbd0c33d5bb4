// main() of chapter 14's programs: the driver `nbody`, and each variant's own program
// (nbody_gpu_shared, ...), as hb/program.h says.
#include "hb/program.h"
#include "nbody.h"

int main(int argc, char** argv) {
  return hb::chapter_main(argc, argv, ch14::variant_program_main, ch14::driver_main);
}
