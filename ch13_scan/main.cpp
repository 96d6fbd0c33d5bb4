// main() of chapter 13's programs: the drivers `scan` and `compact` (CMake names each in
// HB_PROGRAM_NAME), and the own program of every row of the scan and compaction tables
// (scan5c_two_level_shuffle, ...), as hb/program.h says.
#include "harness.h"
#include "hb/program.h"

int main(int argc, char** argv) {
  return hb::chapter_main(argc, argv, ch13::variant_program_main, [](int c, char** v) {
    return ch13::driver_main(HB_PROGRAM_NAME, c, v);
  });
}
