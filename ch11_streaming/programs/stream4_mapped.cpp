// stream4_mapped: section 11.4 of the text (stream4Mapped.cu). Compared with stream3_streams,
// there are no copies and no device arrays at all: x, y and out live in mapped pinned host
// memory and the kernel reads and writes them across the bus. Reads and writes of every part
// of the arrays overlap, so there is no overhang; the price is that the SMs wait on the bus.
//
// Its main is the one all three one-strategy programs share (ch11::run_one_strategy in
// pipeline.cpp); what this program is, is its strategy and the two lines below.
#include "pipeline.h"

int main(int argc, char** argv) {
  return ch11::run_one_strategy(ch11::Strategy::Mapped,
                                "SAXPY on mapped pinned host memory, no copies (section 11.4)",
                                "mapped pinned (cudaHostAllocMapped); the kernel reads and "
                                "writes it directly",
                                argc, argv);
}
