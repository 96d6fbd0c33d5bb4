// The main() of every per-variant program (reduction0_cub, reduction1_two_pass, ...).
// CMake builds this file once per row of the variant table and tells it which row through
// HB_VARIANT_ID (e.g. 10a) and HB_PROGRAM_NAME; everything else lives in the chapter library.
#include "reduction_harness.h"

#define CH12_STRINGIFY2(x) #x
#define CH12_STRINGIFY(x) CH12_STRINGIFY2(x)

int main(int argc, char** argv) {
  return ch12::variant_program_main(HB_PROGRAM_NAME, CH12_STRINGIFY(HB_VARIANT_ID), argc, argv);
}
