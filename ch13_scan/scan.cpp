// scan: the chapter's driver. It runs the device-level scans over block sizes 32 to 1024 and
// against CUB over input sizes 2^10 to 2^28 (or, with --sweep warp / block, the warp- and
// block-level scans on a synthetic workload), printing aligned tables or, with --csv, CSV.
#include "scan_harness.h"

int main(int argc, char** argv) { return ch13::scan_driver_main(argc, argv); }
