// compact: the compaction driver. It runs the stream compactions of the odd elements over
// block sizes and against CUB's DeviceSelect::If over input sizes 2^10 to 2^28.
#include "scan_harness.h"

int main(int argc, char** argv) { return ch13::compact_driver_main(argc, argv); }
