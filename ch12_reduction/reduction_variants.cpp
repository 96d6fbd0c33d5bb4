// The variant table. Each row's "changed" paragraph is also the first paragraph of the
// row's header file and of its section in README.md; a CPU test checks that the three agree.
#include "reduction_variants.h"

#include "hb/error.h"
#include "reduction_launchers.h"

namespace ch12 {

std::string Variant::program() const { return std::string("reduction") + id + "_" + name; }

std::string Variant::header() const { return program() + ".cuh"; }

const std::vector<Variant>& variants() {
  // clang-format off
  static const std::vector<Variant> table = {
    {"0", "cub", "CUB DeviceReduce::Sum (reference)",
     "Variant 0 is the reference. Its result is checked against the CPU (an exact "
     "64-bit sum in input order), and its speed is CUB's `cub::DeviceReduce::Sum` "
     "from the CUDA Toolkit, the library every later variant is measured against as "
     "\"% of CUB\".",
     reduce0_cub, BlockRule::Library, 256, Result::Sum64},
    {"1", "two_pass", "two passes, shared-memory log step (listings 12.1, 12.2)",
     "Compared with variant 0: instead of calling a library we write the reduction "
     "ourselves, as in listings 12.1 and 12.2. One kernel is launched twice. In the "
     "first pass each thread adds the elements at its index plus multiples of the "
     "grid's width (coalesced loads), the block adds its threads' sums in shared "
     "memory in log2(blockDim) halving steps, and writes one partial sum per block. "
     "The second pass runs the same kernel with a single block over those partials. "
     "The block size must be a power of two.",
     reduce1_two_pass, BlockRule::PowerOfTwo, 256, Result::Sum64},
    {"2", "warp_sync", "warp-synchronous tail with __syncwarp (listing 12.2)",
     "Compared with variant 1: the last five halving steps, where at most 32 threads "
     "are active, run in warp 0 alone without `__syncthreads()` (listing 12.2's "
     "warp-synchronous tail). The book relied on the 32 threads of a warp executing "
     "in lock step and on a `volatile` pointer to shared memory. Since Volta, the "
     "threads of a warp are scheduled independently, so that form is a data race; we "
     "keep the idea and write the steps with `__syncwarp()` between them, and only "
     "the threads that add read and write. The block size must be a power of two of "
     "at least 32.",
     reduce2_warp_sync, BlockRule::PowerOfTwoFrom32, 256, Result::Sum64},
    {"3", "unrolled", "block size as template parameter, unrolled (listings 12.3, 12.4)",
     "Compared with variant 2: the block size becomes a template parameter (listings "
     "12.3 and 12.4), so the compiler knows every loop bound, unrolls the whole "
     "log-step reduction and drops the steps and tests that a given block size does "
     "not need. A `switch` at run time picks one of the eleven instantiations, for "
     "every power of two from 1 to 1024; any other block size is rejected with an "
     "error.",
     reduce3_unrolled, BlockRule::PowerOfTwo, 256, Result::Sum64},
    {"4", "single_pass", "single pass, last block adds the partials (listings 12.5, 12.6)",
     "Compared with variant 3: one kernel launch instead of two (listings 12.5 and "
     "12.6). Every block writes its partial sum, makes it visible to the whole GPU "
     "with a memory fence and takes a ticket from a global counter with `atomicAdd`; "
     "the block that draws the last ticket knows all partials are written and adds "
     "them itself. That block also resets the counter to zero, so the next call "
     "(often the very next launch) starts clean.",
     reduce4_single_pass, BlockRule::PowerOfTwo, 256, Result::Sum64},
    {"5", "atomics", "global atomics (listing 12.7)",
     "Compared with variant 4: no shared memory, no partials and no ticket (listing "
     "12.7). Every thread adds its grid-stride share of the input and then adds that "
     "sum to the output with one global `atomicAdd`, \"fire and forget\". The output "
     "must be zero before the kernel starts, and the kernel cannot do that itself "
     "(its blocks cannot agree on who goes first), so the launcher clears it with "
     "`cudaMemsetAsync` first: two operations per call. Any block size works.",
     reduce5_atomics, BlockRule::Any, 256, Result::Sum64},
    {"6", "any_block_size", "any block size (listing 12.8)",
     "Compared with variant 5: back to two passes and shared memory, but any block "
     "size from 1 to 1024 works, not only powers of two (listing 12.8, derived from "
     "variant 1). Before the halving loop, the threads above the largest power of two "
     "not exceeding the block size (`floorPow2`) add their values into the lower "
     "part; from there on the loop is variant 1's.",
     reduce6_any_block_size, BlockRule::Any, 256, Result::Sum64},
    {"7", "templated", "templated reduction type (listings 12.9, 12.10)",
     "Compared with variant 6: the kernel no longer knows it adds integers (listings "
     "12.9 and 12.10). Two template parameters separate the input type T from the "
     "reduction type R, which holds the partial results: R's default value is the "
     "identity, `r += x` folds in an input and `r += r2` combines two partials. With "
     "R = long long and T = int it is variant 1 again (that is the table's row); with "
     "the types of reduction_ops.h the same code computes a sum in a wider type, the "
     "sum and the sum of squares in one pass, the minimum or the maximum, of int, "
     "float or double. The block size must be a power of two.",
     reduce7_templated, BlockRule::PowerOfTwo, 256, Result::Sum64},
    {"8a", "syncthreads_count", "count of x > 0 with __syncthreads_count (section 12.7)",
     "Compared with variant 7: the inputs are predicates, true or false, and the "
     "reduction counts the true ones (section 12.7). A predicate needs one bit, and "
     "the hardware reduces one bit per thread across a whole block in one "
     "instruction: `__syncthreads_count(p)` is a barrier that returns to every thread "
     "how many threads of the block passed a non-zero p. The block steps through the "
     "input one tile of blockDim.x elements at a time, thread 0 keeps the running "
     "count, and variant 1's second pass adds the blocks' counts. No shared memory of "
     "our own; any block size works. The table's row counts the positive inputs.",
     reduce8a_syncthreads_count, BlockRule::Any, 256, Result::CountPositive},
    {"8b", "ballot", "count of x > 0 with __ballot_sync and __popc (section 12.7)",
     "Compared with variant 8a: the count happens per warp instead of per block, with "
     "no barrier in the loop. `__ballot_sync(mask, p)` gives every lane a 32-bit word "
     "with one bit per lane whose p is true, and `__popc` counts its bits: a 32-to-1 "
     "reduction in two instructions. Each warp walks its own 32-element tiles; lane 0 "
     "keeps the warp's count, the warps of a block add their counts in shared memory, "
     "and variant 1's second pass adds the blocks' counts. The block size must be a "
     "multiple of 32 (whole warps). `__ballot` without `_sync` no longer exists: the "
     "mask names the lanes that take part.",
     reduce8b_ballot, BlockRule::MultipleOf32, 256, Result::CountPositive},
    {"9", "shuffle", "warp shuffles, single pass (section 12.8)",
     "Compared with variant 8b: the warp-level idea of the ballot carries over from "
     "bits to values (section 12.8). `__shfl_xor_sync(mask, v, k)` hands each lane "
     "the value of the lane whose index differs in bit k; five such butterfly steps "
     "(k = 16, 8, 4, 2, 1) leave the warp's sum in every lane, from registers, with "
     "no shared memory and no barrier. A block then needs shared memory only for one "
     "value per warp and two barriers. We use this block reduction in variant 4's "
     "single-pass structure; the ticket is taken with `cuda::atomic_ref::fetch_add` "
     "in acquire-release order, the modern spelling of variant 4's pair of fences. "
     "The block size must be a multiple of 32.",
     reduce9_shuffle, BlockRule::MultipleOf32, 256, Result::Sum64},
    {"10a", "neighbored", "neighbored pairs, divergent (blog 1, int32 wraps)",
     "Compared with variant 9: we step back to the first blog post's kernel to see "
     "why the book pairs values the way it does. Each thread loads one element into "
     "shared memory, and in step k the threads whose index is a multiple of 2^(k+1) "
     "add their neighbor 2^k to the right (interleaved pairs, `tid % (2 * stride) == "
     "0`). Half the threads idle in the first step, three quarters in the second, and "
     "the busy ones are spread over every warp, so every warp stays resident and "
     "diverges. Like the blog we add int into int, so this row computes the sum "
     "modulo 2^32. The blog added the block sums on the host; we relaunch the same "
     "kernel on the block sums until one block remains. Block sizes are powers of two "
     "from 32 to 1024.",
     reduce10a_neighbored, BlockRule::PowerOfTwoFrom32, 256, Result::Sum32Wrapped},
    {"10b", "neighbored_less", "neighbored pairs, less divergent (blog 1, int32 wraps)",
     "Compared with variant 10a: the same pairs are added, but by different threads "
     "(the blog's reduceNeighboredLess). In step k, thread t adds the pair that "
     "starts at `index = 2 * stride * t`, so the busy threads are the lowest-numbered "
     "ones and whole warps finish early instead of every warp diverging. The price is "
     "a strided access to shared memory (stride 2^(k+1) words), which causes bank "
     "conflicts; variant 1's halving order (thread t adds t + active) avoids both "
     "problems, which is why the book uses it.",
     reduce10b_neighbored_less, BlockRule::PowerOfTwoFrom32, 256, Result::Sum32Wrapped},
    {"10c", "global_memory", "log step in global memory (blog 2, int32 wraps)",
     "Compared with variant 10b: the halving order of variant 1 (thread t adds t + "
     "active), but done in global memory instead of shared memory, like the second "
     "blog post's parallel_reduce_kernel. The first step reads the block's input and "
     "writes half as many sums to a work array; every later step reads and writes "
     "that array in place. Counting bytes as the blog does, a block of B elements "
     "reads B + B/2 + B/4 + ... = 2B and writes B/2 + B/4 + ... = B values: "
     "\\f$3B\\f$ accesses to global memory against \\f$B\\f$ for variant 10d, which "
     "stages the block in shared memory, so the blog predicts three times the "
     "traffic. The kernel must not modify its input (the launchers take `const "
     "int*`), hence the separate work array. Sums are int32 with wrap-around, as in "
     "10a.",
     reduce10c_global_memory, BlockRule::PowerOfTwoFrom32, 256, Result::Sum32Wrapped},
    {"10d", "shared_memory", "log step in shared memory (blog 2, int32 wraps)",
     "Compared with variant 10c: the same halving steps, but each block first copies "
     "its elements into shared memory and does every step there (the second blog "
     "post's parallel_shared_reduce_kernel). Global memory is read once per element "
     "and written once per block. Together with 10c this measures the blog's "
     "prediction that the global-memory version needs three times the bandwidth.",
     reduce10d_shared_memory, BlockRule::PowerOfTwoFrom32, 256, Result::Sum32Wrapped},
    {"10e", "relaunch", "two per thread, host relaunches until one block (blog 3)",
     "Compared with variant 10d: each thread loads two elements instead of one, so no "
     "thread idles in the first step and a block covers twice the input (the third "
     "blog post). The host launches the same kernel again on the block sums until a "
     "single block produces the result, as 10a to 10d already did, and the kernel is "
     "a template on the input and sum types: the table's row sums int32 into long "
     "long (exact), and the blog's own case, double into double, is tested too. Block "
     "sizes are powers of two from 32 to 1024.",
     reduce10e_relaunch, BlockRule::PowerOfTwoFrom32, 256, Result::Sum64},
    {"10f", "recursive", "recursion by tail launch from the GPU (blog 1, dynamic parallelism)",
     "Compared with variant 10e: the GPU relaunches the kernel itself (dynamic "
     "parallelism), so the host makes one launch whatever the input size. After its "
     "block has written its sum, thread 0 of block 0 launches the next level into "
     "`cudaStreamTailLaunch`: a tail launch starts only when the whole launching grid "
     "has finished, which is exactly the guarantee that the next level's inputs are "
     "all written. The recursion ends when a level has one block, which writes the "
     "result.",
     reduce10f_recursive, BlockRule::PowerOfTwoFrom32, 256, Result::Sum64},
    {"11a", "vectorized", "int4 loads, single pass, last block adds the partials",
     "Compared with variant 10f: we leave the blog's detours and build on the fastest "
     "design so far, variant 9's single pass with shuffles, and make its loads "
     "cheaper. Each thread reads 16 bytes (an `int4`) per load instead of 4, and "
     "issues eight independent loads before it adds any of them, so each thread keeps "
     "128 bytes in flight. The grid has as many blocks as the occupancy API says fit "
     "on the GPU (fewer for small inputs), so every block runs from start to end in "
     "one wave. It stays one launch with no memset and no host synchronization: the "
     "block that takes the last ticket adds the partials. Head and tail elements that "
     "do not fill a 16-byte vector (an input pointer that is not 16-byte aligned, or "
     "n not a multiple of 4) are added one by one. Block sizes are powers of two from "
     "32 to 1024.",
     reduce11a_vectorized, BlockRule::PowerOfTwoFrom32, 256, Result::Sum64},
    {"11b", "vectorized_atomics", "int4 loads, single pass, one atomic per block",
     "Compared with variant 11a: the blocks add their sums into one 64-bit "
     "accumulator with a global atomic (variant 5's idea, but one atomic per block "
     "instead of one per thread), so the last block reads no partials: it only takes "
     "the total and leaves the accumulator at zero with one `atomicExch`. The "
     "accumulator lives in the caller's Scratch and is zero between calls, so unlike "
     "variant 5 there is no memset before the kernel: still one launch. The ticket is "
     "still needed, to know when the total is complete.",
     reduce11b_vectorized_atomics, BlockRule::PowerOfTwoFrom32, 256, Result::Sum64},
  };
  // clang-format on
  return table;
}

// The id is a string_view, not a const std::string&: GCC 13 warns (-Wdangling-reference)
// when a function returning a reference is called with a temporary std::string.
const Variant& find_variant(std::string_view id) {
  for (const auto& v : variants())
    if (id == v.id) return v;
  throw hb::UsageError("--variant " + std::string(id) + ": no such variant (valid: " +
                       variant_ids() + ")");
}

std::string variant_ids() {
  std::string s;
  for (const auto& v : variants()) s += (s.empty() ? "" : ", ") + std::string(v.id);
  return s;
}

}  // namespace ch12
