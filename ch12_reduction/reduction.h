/// \file
/// \brief What every reduction of chapter 12 shares: the launcher signature, the scratch memory
///        the caller owns, the variant table, and the programs built on it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <cuda_runtime_api.h>

#include "hb/capability.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/variants.h"
#if defined(__CUDACC__)
#include "hb/shared_memory.cuh"
#endif

namespace ch12 {

using hb::BlockRule;
using hb::ceil_div;
using hb::require_threads;

/// Device memory every variant may need, sized once for inputs of up to max_n int32 elements:
/// launchers never allocate, so the caller builds one outside any timed region. Its counters are
/// left at zero by the single-pass kernels, so calls that may overlap (two streams) need two.
class Scratch {
 public:
  Scratch() = default;  ///< holds nothing: enough for calls rejected before the GPU
  explicit Scratch(std::size_t max_n);

  /// Per-block partial results; relaunching variants ping-pong between a and b.
  template <typename T>
  T* partials_a(std::size_t count) const { return a_.fit<T>(count, "partials_a"); }
  template <typename T>
  T* partials_b(std::size_t count) const { return b_.fit<T>(count, "partials_b"); }
  /// Work space of int32 elements for the in-place global-memory reduction (variant 10c).
  int* work(std::size_t count) const { return work_.fit<int>(count, "work"); }
  /// A block counter that is zero between calls (each single-pass kernel resets it).
  unsigned* ticket() const { return counters_.data(); }
  /// A 64-bit accumulator that is zero between calls (variant 11b resets it).
  long long* accumulator() const { return accumulator_.data(); }
  void* cub_storage() const { return cub_.data(); }
  std::size_t cub_bytes() const { return cub_.bytes(); }

  int sm_count() const { return residency_.sm_count; }
  /// The grid of the book's grid-stride kernels (hb::Residency::blocks).
  int resident_blocks(int threads) const { return residency_.blocks(threads); }

 private:
  hb::ScratchBytes a_, b_, work_, cub_;
  hb::DeviceBuffer<unsigned> counters_;
  hb::DeviceBuffer<long long> accumulator_;
  hb::Residency residency_;
};

/// The one signature of the chapter's launchers: reduce \p n int32 values at \p in (device)
/// into one 64-bit value at \p out (device), with blocks of \p threads threads, on \p stream.
/// Asynchronous. Throws hb::UsageError, before any GPU work, for a block size it does not take.
using Launcher = void (*)(const int* in, std::size_t n, long long* out, int threads,
                          Scratch& scratch, cudaStream_t stream);

/// Grid size of the book's grid-stride kernels: one block per \p threads elements, but no
/// more blocks than fit on the GPU at once, and at least one (so that n = 0 writes a zero).
int grid_stride_blocks(std::size_t n, int threads, const Scratch& scratch);

/// What a variant's launcher writes to its 64-bit output, so the check knows what to expect.
enum class Result {
  Sum64,          ///< the exact sum of the int32 inputs, in 64 bits
  Sum32Wrapped,   ///< the sum modulo 2^32, sign-extended (the blog kernels sum int into int)
  CountPositive,  ///< how many inputs are > 0 (the predicate reductions of variant 8)
};

/// One row of the variant table (variants.cu). The variant's kernel file is
/// `kernels/NN_name.cuh`, NN the id with its number in two digits.
struct Variant {
  const char* id;       ///< "0" ... "12", in the text's order
  const char* name;     ///< "two_pass": the program is "reduction" + id + "_" + name
  const char* title;    ///< one line for tables and --help
  Launcher launch;      ///< the launcher with the chapter's one signature
  BlockRule threads;    ///< which block sizes it accepts
  int default_threads;  ///< block size of the per-variant program and the size sweep
  Result result;        ///< what it computes
  hb::Needs needs = {};  ///< the GPU it needs (every row runs on any GPU CUDA 13 supports)
  /// Left out of the racecheck, synccheck and initcheck runs: those tools do not follow
  /// kernels launched from the GPU (memcheck does).
  bool launches_from_gpu = false;

  /// "reduction1_two_pass": the name of the variant's program.
  std::string program() const { return std::string("reduction") + id + "_" + name; }
  /// Whether the variant accepts blocks of \p n threads.
  bool accepts_threads(int n) const { return hb::accepts(threads, n); }
};

/// Every variant, variant 0 (the reference) first.
const std::vector<Variant>& variants();
/// The variant with id \p id ("4", "10c"); throws hb::UsageError listing the valid ids.
inline const Variant& find_variant(std::string_view id) { return hb::find_row(variants(), id); }

// The typed forms of variants 7, 8a, 8b and 10e, which their programs and the tests also run
// on other types. Instantiated in variants.cu for the types named in their kernel files.
template <typename R, typename T>
void reduce7_typed(const T* in, std::size_t n, R* out, int threads, Scratch& s, cudaStream_t st);
template <typename T, typename Pred>
void count8a_syncthreads_count(const T* in, std::size_t n, long long* out, int threads,
                               Scratch& s, cudaStream_t st);
template <typename T, typename Pred>
void count8b_ballot(const T* in, std::size_t n, long long* out, int threads, Scratch& s,
                    cudaStream_t st);
template <typename In, typename Acc>
void reduce10e_typed(const In* in, std::size_t n, Acc* out, int threads, Scratch& s,
                     cudaStream_t st);
/// Variant 10f, compiled apart with relocatable device code (kernels/10f_recursive.cu).
void reduce10f_recursive(const int* in, std::size_t n, long long* out, int threads,
                         Scratch& s, cudaStream_t st);

/// The programs' input: \p n int32 values uniform over the whole range (element i depends only on
/// seed and i), whose sums overflow 32 bits at once: an int32 accumulator cannot pass the check.
std::vector<int> make_input(std::size_t n, std::uint64_t seed);

/// main() of the per-variant programs and of the driver `reduction` (harness.cpp).
int variant_program_main(const char* program, const char* id, int argc, char** argv);
int driver_main(int argc, char** argv);

#if defined(__CUDACC__)
/// The dynamically sized shared memory of a launch, viewed as an array of T (section 12.6).
using hb::dynamic_shared;
#endif

}  // namespace ch12
