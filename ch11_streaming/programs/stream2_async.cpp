// stream2_async: section 11.2 of the text (stream2Async.cu). Compared with stream1_device,
// the host arrays are pinned and every copy is a cudaMemcpyAsync in one stream: the copy
// engines read and write host memory directly at the bus rate, and the CPU enqueues the whole
// pipeline at once instead of waiting at each step. The stages still run one after another.
//
// Its main is the one all three one-strategy programs share (ch11::run_one_strategy in
// harness.cpp); what this program is, is the table below.
#include "hb/error.h"
#include "harness.h"

int main(int argc, char** argv) {
  return hb::run_main("stream2_async", [&] {
    const ch11::OneStrategyProgram program{
        "stream2_async",
         "SAXPY through the GPU with pinned memory and cudaMemcpyAsync "
         "(section 11.2)",
        ch11::HostKind::Pinned,
        ch11::Strategy::Async,
        "pinned (cudaHostAlloc), cudaMemcpyAsync in one stream"};
    return ch11::run_one_strategy(program, argc, argv);
  });
}
