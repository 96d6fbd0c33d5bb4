/// \file
/// \brief The histogram chapter's figure: the blog post's example of method 3 (sort, then
///        reduce by key), drawn from a CPU model of variant 9's three steps.
///
/// The post shows eight key-value pairs (key = bin, value = 1), the same pairs sorted by key,
/// and the counts per key that a reduction by key makes of them. Variant 9 does exactly that
/// on the GPU in three steps: CUB's radix sort of the bytes, CUB's run-length encoding (the
/// reduction by key of values that are all 1), and a kernel that scatters each run's count to
/// the bin of its key. sort_reduce_model() is those three steps on the CPU; the figure is drawn
/// from what it computed, and the CPU tests check it against the serial histogram and check
/// that the committed figure is what the generator draws now.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hb/figures.h"
#include "histogram.h"

namespace histo {

/// What the three steps of variant 9 produce for one input.
struct SortReduce {
  std::vector<std::uint8_t> sorted;       ///< step 1: the input sorted (DeviceRadixSort::SortKeys)
  std::vector<std::uint8_t> run_keys;     ///< step 2: the key of each run of equal keys
  std::vector<std::uint32_t> run_counts;  ///< step 2: its length, the sum of its values (all 1)
  Bins bins{};                            ///< step 3: counts scattered to their bins, 0 elsewhere
};

/// Variant 9's three steps on the CPU: sort, run-length encode (reduce by key), scatter.
/// \param in the bytes (keys)
/// \param n how many
SortReduce sort_reduce_model(const std::uint8_t* in, std::size_t n);

/// The keys of the post's example of method 3: 2 1 1 2 1 0 2 2.
std::vector<std::uint8_t> post_example_keys();

/// A drawing of the chapter page (hb::Figure: name, caption, Graphviz text).
using Figure = hb::Figure;

/// The chapter's figures.
std::vector<Figure> chapter_figures();

}  // namespace histo
