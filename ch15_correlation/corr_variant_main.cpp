// The main() of every per-variant program (corr_cpu, corr_tex_tex, ...). CMake builds this
// file once per row of the variant table and tells it which row through HB_VARIANT_ID and
// HB_PROGRAM_NAME; everything else lives in the chapter library.
#include "correlation_harness.h"

#define CH15_STRINGIFY2(x) #x
#define CH15_STRINGIFY(x) CH15_STRINGIFY2(x)

int main(int argc, char** argv) {
  return ch15::variant_program_main(HB_PROGRAM_NAME, CH15_STRINGIFY(HB_VARIANT_ID), argc, argv);
}
