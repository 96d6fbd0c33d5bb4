/// \file
/// \brief Declarations of every launcher of chapter 13. The definitions live in the numbered
///        headers (warp1_conditional.cuh, block3_scan_then_fan.cuh, scan6_decoupled_lookback.cuh,
///        ...), which are compiled once, in the chapter's static library, for T = int and
///        T = float; programs and tests only need these declarations.
#pragma once

#include <cstddef>

#include "scan_launch.h"

namespace ch13 {

// Warp level (signature: ch13::SegmentLauncher<T>): every 32 elements scanned on their own.
template <typename T> void warp0_cub(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps, cudaStream_t st);
template <typename T> void warp1_conditional(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps, cudaStream_t st);
template <typename T> void warp2_zero_padded(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps, cudaStream_t st);
template <typename T> void warp3_templated(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps, cudaStream_t st);
template <typename T> void warp4_shuffle(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps, cudaStream_t st);
template <typename T> void warp5_shuffle_ptx(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps, cudaStream_t st);
/// Warp variant 3 without padding (listing 13.16 with kZeroPad = false); not a row of the
/// table (block variant 3 uses it), but tested and counted like one.
template <typename T> void warp3_templated_unpadded(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps, cudaStream_t st);

// Block level (signature: ch13::SegmentLauncher<T>): every tile scanned on its own.
template <typename T> void block0_cub(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps, cudaStream_t st);
template <typename T> void block1_hillis_steele(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps, cudaStream_t st);
template <typename T> void block2_blelloch(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps, cudaStream_t st);
template <typename T> void block3_scan_then_fan(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps, cudaStream_t st);
template <typename T> void block4_zero_padded(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps, cudaStream_t st);
template <typename T> void block5_shuffle(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps, cudaStream_t st);

// Device level (signature: ch13::ScanLauncher<T>).
template <typename T> void scan0b_cub(const T* in, T* out, std::size_t n, ScanKind kind, int threads, Scratch& s, cudaStream_t st);
template <typename T> void scan1_hillis_steele(const T* in, T* out, std::size_t n, ScanKind kind, int threads, Scratch& s, cudaStream_t st);
template <typename T> void scan2_blelloch(const T* in, T* out, std::size_t n, ScanKind kind, int threads, Scratch& s, cudaStream_t st);
template <typename T> void scan3_scan_then_fan(const T* in, T* out, std::size_t n, ScanKind kind, int threads, Scratch& s, cudaStream_t st);
template <typename T> void scan4_reduce_then_scan(const T* in, T* out, std::size_t n, ScanKind kind, int threads, Scratch& s, cudaStream_t st);
template <typename T> void scan5a_two_level(const T* in, T* out, std::size_t n, ScanKind kind, int threads, Scratch& s, cudaStream_t st);
template <typename T> void scan5b_two_level_zero_pad(const T* in, T* out, std::size_t n, ScanKind kind, int threads, Scratch& s, cudaStream_t st);
template <typename T> void scan5c_two_level_shuffle(const T* in, T* out, std::size_t n, ScanKind kind, int threads, Scratch& s, cudaStream_t st);
template <typename T> void scan6_decoupled_lookback(const T* in, T* out, std::size_t n, ScanKind kind, int threads, Scratch& s, cudaStream_t st);
template <typename T> void scan7_bulk_copy_lookback(const T* in, T* out, std::size_t n, ScanKind kind, int threads, Scratch& s, cudaStream_t st);

// Stream compaction of the odd elements (signature: ch13::CompactLauncher).
void compact0b_cub(const int* in, int* out, std::size_t n, int* count, int threads, Scratch& s, cudaStream_t st);
void compact1_two_level(const int* in, int* out, std::size_t n, int* count, int threads, Scratch& s, cudaStream_t st);
void compact2_decoupled_lookback(const int* in, int* out, std::size_t n, int* count, int threads, Scratch& s, cudaStream_t st);
void compact3_bulk_copy_lookback(const int* in, int* out, std::size_t n, int* count, int threads, Scratch& s, cudaStream_t st);

/// Bytes of temporary storage CUB needs for scans (int and float, both kinds) and for the
/// compaction of up to \p max_n elements: what Scratch allocates for variants 0b.
std::size_t cub_temp_bytes(std::size_t max_n);

}  // namespace ch13
