// normalized_cross_correlation: the chapter's driver (the book's normalizedCrossCorrelation.cu).
// It prints the 9 x 9 neighbourhood of coefficients around the template's position, then
// every variant's rate; with --sweep the rate against the template size; --csv for machines.
#include "correlation_harness.h"

int main(int argc, char** argv) { return ch15::driver_main(argc, argv); }
