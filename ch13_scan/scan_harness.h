/// \file
/// \brief How chapter 13 measures and checks its variants, and the programs built on that:
///        one small program per device-level scan and compaction, and the drivers `scan` and
///        `compact`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "scan_variants.h"

namespace ch13 {

/// The element type of a scan.
enum class ElementType { Int, Float };
/// "int" or "float".
const char* type_name(ElementType type);

/// One measured configuration.
struct Measurement {
  double median_ms = 0.0;
  double gbs = 0.0;        ///< bytes counted / median time, in 1e9 bytes/s
  double gelems = 0.0;     ///< input elements / median time, in 1e9 elements/s
  std::size_t selected = 0;  ///< compaction: how many elements were selected
  bool ok = true;          ///< both checked calls matched the CPU
  bool checked = true;     ///< false with --no-check
  std::string failure;     ///< the first mismatch report, when !ok
};

/// The scan measurements of one program run: one input of max_n elements of one type (the
/// sizes measured are its prefixes) on the host and the device, its CPU scan, an output
/// buffer with one guard element after the largest size, the scratch memory and a stream,
/// all allocated before anything is timed.
class ScanBench {
 public:
  virtual ~ScanBench() = default;
  /// Runs variant \p v with blocks of \p threads threads on the first \p n elements: one call
  /// into a poisoned output, checked against the CPU (every element, and the guard element
  /// must still be poisoned); two untimed calls; `iters` calls timed with CUDA events (the
  /// median); one more check of the last call's output, which catches state a call leaves
  /// behind. The CPU row is timed with the host clock instead. GB/s counts n reads and n
  /// writes of the element type.
  virtual Measurement measure(const ScanVariant& v, int threads, std::size_t n) = 0;
  /// The device copy rate of n elements (read and write, 2 n elements counted), GB/s.
  virtual double copy_gbs(std::size_t n) = 0;

  /// A bench for \p type and \p kind; \p check false skips the comparisons (--no-check).
  static std::unique_ptr<ScanBench> create(std::size_t max_n, ElementType type, ScanKind kind,
                                           std::uint64_t seed, int iters, bool check);
};

/// The compaction measurements of one program run (int32 inputs, uniform in [-1000, 1000],
/// about half of them odd). GB/s counts the n elements read and the selected elements
/// written, 1e9 elements/s the n inputs.
class CompactBench {
 public:
  virtual ~CompactBench() = default;
  /// As ScanBench::measure: the count must match the CPU's, the first count elements must be
  /// the odd inputs in order, and the element after them must still be poisoned.
  virtual Measurement measure(const CompactVariant& v, int threads, std::size_t n) = 0;
  /// A bench for inputs of up to \p max_n elements.
  static std::unique_ptr<CompactBench> create(std::size_t max_n, std::uint64_t seed, int iters,
                                              bool check);
};

/// main() of the per-variant scan programs (scan3_scan_then_fan, ...): runs variant \p id
/// and CUB on default data, checks both against the CPU, and prints time, GB/s and % of CUB.
/// \p program must be the variant's program name.
int scan_program_main(const char* program, const char* id, int argc, char** argv);

/// main() of the per-variant compaction programs (compact2_decoupled_lookback, ...).
int compact_program_main(const char* program, const char* id, int argc, char** argv);

/// main() of the driver `scan`: the block-size sweep and the size sweep of the device-level
/// scans against CUB, and the synthetic sweeps of the warp- and block-level scans.
int scan_driver_main(int argc, char** argv);

/// main() of the driver `compact`: the block-size sweep and the size sweep of the
/// compactions against CUB's DeviceSelect.
int compact_driver_main(int argc, char** argv);

}  // namespace ch13
