// stream4_mapped: section 11.4 of the text (stream4Mapped.cu). Compared with stream3_streams,
// there are no copies and no device arrays at all: x, y and out live in mapped pinned host
// memory and the kernel reads and writes them across the bus. Reads and writes of every part
// of the arrays overlap, so there is no overhang; the price is that the SMs wait on the bus.
//
// Its main is the one all three one-strategy programs share (ch11::run_one_strategy in
// harness.cpp); what this program is, is the table below.
#include "hb/error.h"
#include "harness.h"

int main(int argc, char** argv) {
  return hb::run_main("stream4_mapped", [&] {
    const ch11::OneStrategyProgram program{
        "stream4_mapped",
         "SAXPY on mapped pinned host memory, no copies (section 11.4)",
        ch11::HostKind::Mapped,
        ch11::Strategy::Mapped,
        "mapped pinned (cudaHostAllocMapped); the kernel reads and writes it directly"};
    return ch11::run_one_strategy(program, argc, argv);
  });
}
