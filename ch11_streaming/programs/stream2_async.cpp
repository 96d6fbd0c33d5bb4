// stream2_async: section 11.2 of the text (stream2Async.cu). Compared with stream1_device,
// the host arrays are pinned and every copy is a cudaMemcpyAsync in one stream: the copy
// engines read and write host memory directly at the bus rate, and the CPU enqueues the whole
// pipeline at once instead of waiting at each step. The stages still run one after another.
//
// Its main is the one all three one-strategy programs share (ch11::run_one_strategy in
// pipeline.cpp); what this program is, is its strategy and the two lines below.
#include "pipeline.h"

int main(int argc, char** argv) {
  return ch11::run_one_strategy(ch11::Strategy::Async,
                                "SAXPY through the GPU with pinned memory and "
                                "cudaMemcpyAsync (section 11.2)",
                                "pinned (cudaHostAlloc), cudaMemcpyAsync in one stream", argc,
                                argv);
}
