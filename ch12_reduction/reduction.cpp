// reduction: the chapter's driver. It runs every variant of the table over block sizes 32 to
// 1024 (the book's sweep) and the fastest variants against CUB over input sizes 2^10 to
// 2^28, printing aligned tables or, with --csv, the same numbers as CSV.
#include "reduction_harness.h"

int main(int argc, char** argv) { return ch12::driver_main(argc, argv); }
