// main() of chapter 15's programs: the driver normalized_cross_correlation (the book's
// normalizedCrossCorrelation.cu: the 9 x 9 neighbourhood of coefficients around the template's
// position, then every variant's rate; --sweep for the rate against the template size), and
// each variant's own program (corr_shared4, ...), as hb/program.h says.
#include "correlation.h"
#include "hb/program.h"

int main(int argc, char** argv) {
  return hb::chapter_main(argc, argv, ch15::variant_program_main, ch15::driver_main);
}
