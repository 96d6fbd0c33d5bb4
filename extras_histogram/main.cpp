// main() of the histogram programs: the driver `histogram`, and each variant's own program
// (histogram_shared_privatized, ...), as hb/program.h says.
#include "hb/program.h"
#include "histogram.h"

int main(int argc, char** argv) {
  return hb::chapter_main(argc, argv, histo::run_program, [](int count, char** args) {
    return histo::run_program("histogram", nullptr, count, args);
  });
}
