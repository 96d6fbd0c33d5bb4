// The book's kernels (variants 1 to 8b), compiled once for every program and test of the
// chapter. Each numbered header is included by exactly one translation unit like this one.
#include "reduction1_two_pass.cuh"
#include "reduction2_warp_sync.cuh"
#include "reduction3_unrolled.cuh"
#include "reduction4_single_pass.cuh"
#include "reduction5_atomics.cuh"
#include "reduction6_any_block_size.cuh"
#include "reduction7_templated.cuh"
#include "reduction8a_syncthreads_count.cuh"
#include "reduction8b_ballot.cuh"
