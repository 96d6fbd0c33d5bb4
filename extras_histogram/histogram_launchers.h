/// \file
/// \brief The GPU launchers of the variant table, one per numbered header
///        (histogram2_naive.cuh ... histogram14_lane_columns_pairs.cuh), all with the
///        signature histo::Launcher.
#pragma once

#include "histogram_launch.h"

namespace histo {

void histogram_naive(const std::uint8_t*, std::size_t, std::uint32_t*, Workspace&, cudaStream_t);
void histogram_global_atomics(const std::uint8_t*, std::size_t, std::uint32_t*, Workspace&,
                              cudaStream_t);
void histogram_shared_privatized(const std::uint8_t*, std::size_t, std::uint32_t*, Workspace&,
                                 cudaStream_t);
void histogram_shared_unrolled(const std::uint8_t*, std::size_t, std::uint32_t*, Workspace&,
                               cudaStream_t);
void histogram_shared_offset(const std::uint8_t*, std::size_t, std::uint32_t*, Workspace&,
                             cudaStream_t);
void histogram_per_thread(const std::uint8_t*, std::size_t, std::uint32_t*, Workspace&,
                          cudaStream_t);
void histogram_per_thread_packed(const std::uint8_t*, std::size_t, std::uint32_t*, Workspace&,
                                 cudaStream_t);
void histogram_sort_reduce(const std::uint8_t*, std::size_t, std::uint32_t*, Workspace&,
                           cudaStream_t);
void histogram_cub(const std::uint8_t*, std::size_t, std::uint32_t*, Workspace&, cudaStream_t);
void histogram_warp_private(const std::uint8_t*, std::size_t, std::uint32_t*, Workspace&,
                            cudaStream_t);
void histogram_warp_aggregated(const std::uint8_t*, std::size_t, std::uint32_t*, Workspace&,
                               cudaStream_t);
void histogram_lane_columns_atomic(const std::uint8_t*, std::size_t, std::uint32_t*, Workspace&,
                                   cudaStream_t);
void histogram_lane_columns_pairs(const std::uint8_t*, std::size_t, std::uint32_t*, Workspace&,
                                  cudaStream_t);

/// Temporary storage CUB needs for variants 9 and 10 on \p n bytes: the largest of its
/// histogram, radix sort and run-length encoding (a host-side query; no GPU work).
std::size_t cub_temp_bytes(std::size_t n);

}  // namespace histo
