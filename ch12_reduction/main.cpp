// main() of chapter 12's programs: the driver `reduction`, and each variant's own program
// (reduction10a_neighbored, ...), as hb/program.h says.
#include "hb/program.h"
#include "reduction.h"

int main(int argc, char** argv) {
  return hb::chapter_main(argc, argv, ch12::variant_program_main, ch12::driver_main);
}
