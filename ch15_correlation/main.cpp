// main() of chapter 15's programs, as hb/program.h says: each variant's own program (corr_shared4,
// ...) and the driver normalized_cross_correlation (the book's normalizedCrossCorrelation.cu).
#include "correlation.h"
#include "hb/program.h"

int main(int argc, char** argv) {
  return hb::chapter_main(argc, argv, ch15::program_main, [](int n, char** args) {
    return ch15::program_main("normalized_cross_correlation", nullptr, n, args);
  });
}
