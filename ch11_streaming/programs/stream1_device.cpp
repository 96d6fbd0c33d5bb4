// stream1_device: section 11.1 of the text (stream1Device.cu). SAXPY on 128M floats that start
// and end in ordinary (pageable) host memory: copy x and y to the GPU with cudaMemcpy, run the
// kernel, copy out back. The report shows where the time goes: almost all of it in the copies.
//
// Its main is the one all three one-strategy programs share (ch11::run_one_strategy in
// pipeline.cpp); what this program is, is its strategy and the two lines below.
#include "pipeline.h"

int main(int argc, char** argv) {
  return ch11::run_one_strategy(ch11::Strategy::Synchronous,
                                "SAXPY through the GPU with synchronous cudaMemcpy from "
                                "pageable memory (section 11.1)",
                                "pageable (std::vector), synchronous cudaMemcpy", argc, argv);
}
