/// \file
/// \brief Variants 0 and 1: the histogram on the CPU, serially (the reference of every check)
///        and on all cores.
#pragma once

#include <cstddef>
#include <cstdint>

namespace histo {

/// Variant 0, the post's serial histogram: zero the bins, then `bins[in[i]]++` for every byte.
/// \param in   the bytes
/// \param n    how many
/// \param bins 256 counts, all written
void histogram_cpu_serial(const std::uint8_t* in, std::size_t n, std::uint32_t* bins);

/// Variant 1: the input cut into one contiguous share per thread, each thread counting into
/// private histograms, which are then added up (the post's method 2, on a CPU).
/// \param in      the bytes
/// \param n       how many
/// \param bins    256 counts, all written
/// \param threads how many threads (at most one per byte); 0: all cores
///                (std::thread::hardware_concurrency()), with shares of at least 64 KiB
void histogram_cpu_threads(const std::uint8_t* in, std::size_t n, std::uint32_t* bins,
                           unsigned threads = 0);

/// The signature of the CPU rows of the variant table.
using CpuHistogram = void (*)(const std::uint8_t* in, std::size_t n, std::uint32_t* bins);

/// histogram_cpu_threads on all cores, with the CpuHistogram signature.
void histogram_cpu_all_cores(const std::uint8_t* in, std::size_t n, std::uint32_t* bins);

}  // namespace histo
