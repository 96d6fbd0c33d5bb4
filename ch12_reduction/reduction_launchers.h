/// \file
/// \brief Declarations of every launcher of chapter 12. The definitions live in the numbered
///        headers (reduction1_two_pass.cuh ...), which are compiled once, in the chapter's
///        static library; programs and tests only need these declarations.
#pragma once

#include <cstddef>

#include "reduction_launch.h"

namespace ch12 {

// The int32 -> 64-bit launchers of the variant table (signature: ch12::Launcher).
void reduce0_cub(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce1_two_pass(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce2_warp_sync(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce3_unrolled(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce4_single_pass(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce5_atomics(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce6_any_block_size(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce7_templated(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce8a_syncthreads_count(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce8b_ballot(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce9_shuffle(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce10a_neighbored(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce10b_neighbored_less(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce10c_global_memory(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce10d_shared_memory(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce10e_relaunch(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce10f_recursive(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce11a_vectorized(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);
void reduce11b_vectorized_atomics(const int* in, std::size_t n, long long* out, int threads, Scratch& s, cudaStream_t st);

/// Variant 7 for any reduction type: reduces \p n elements of T at \p in into one R at \p out
/// (device pointers) with the two-pass templated kernel of listing 12.9.
/// \tparam R a reduction type of reduction_ops.h (Sum, SumSquares, Min, Max)
/// \tparam T int, float or double
/// Instantiated in the chapter library for R in {Sum, SumSquares, Min, Max} of T and
/// T in {int, float, double}, and for R = long long, T = int (the table's row).
/// \pre \p threads is a power of two between 1 and 1024 (else hb::UsageError).
template <typename R, typename T>
void reduce7_typed(const T* in, std::size_t n, R* out, int threads, Scratch& s, cudaStream_t st);

/// Variant 8a for any predicate: counts the elements of \p in for which Pred holds, with
/// __syncthreads_count. Instantiated for (int, IsPositive), (int, IsOdd), (float, IsPositive).
/// \pre \p threads between 1 and 1024 (else hb::UsageError).
template <typename T, typename Pred>
void count8a_syncthreads_count(const T* in, std::size_t n, long long* out, int threads, Scratch& s,
                               cudaStream_t st);

/// Variant 8b for any predicate: the same count with __ballot_sync and __popc.
/// \pre \p threads is a multiple of 32 between 32 and 1024 (else hb::UsageError).
template <typename T, typename Pred>
void count8b_ballot(const T* in, std::size_t n, long long* out, int threads, Scratch& s,
                    cudaStream_t st);

/// Variant 10e for the blog's own type: sums \p n doubles (two per thread, relaunching one
/// kernel until one block remains). Instantiated for (In, Acc) = (int, long long), (double,
/// double). \pre \p threads is a power of two between 32 and 1024 (else hb::UsageError).
template <typename In, typename Acc>
void reduce10e_typed(const In* in, std::size_t n, Acc* out, int threads, Scratch& s, cudaStream_t st);

}  // namespace ch12
