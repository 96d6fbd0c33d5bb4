// main() of the driver `histogram` and of each variant's own program, as hb/program.h says.
#include "hb/program.h"
#include "histogram.h"

int main(int argc, char** argv) {
  return hb::chapter_main(argc, argv, histo::run_program, [](int count, char** args) {
    return histo::run_program("histogram", nullptr, count, args);
  });
}
