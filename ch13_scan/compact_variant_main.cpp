// The main() of every per-variant compaction program (compact1_two_level, ...), built once
// per row of the compaction table like scan_variant_main.cpp.
#include "scan_harness.h"

#define CH13_STRINGIFY2(x) #x
#define CH13_STRINGIFY(x) CH13_STRINGIFY2(x)

int main(int argc, char** argv) {
  return ch13::compact_program_main(HB_PROGRAM_NAME, CH13_STRINGIFY(HB_VARIANT_ID), argc, argv);
}
