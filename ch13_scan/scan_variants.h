/// \file
/// \brief The tables of chapter 13's variants, one per level: warp scans, block scans,
///        device-wide scans and stream compactions. The per-variant programs, the drivers, the
///        tests and the documentation all read them, so a variant cannot exist in one of them
///        and be missing from another.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hb/capability.h"
#include "scan_launch.h"

namespace ch13 {

/// Who computes a row.
enum class Impl {
  Cpu,      ///< the serial reference on the host
  Library,  ///< CUB
  Ours      ///< a kernel of this chapter
};

/// What every row of every table has.
struct VariantInfo {
  const char* prefix;   ///< "scan", "compact", "warp" or "block": the table
  const char* id;       ///< "0a", "1", "5c", ... in the text's order
  const char* name;     ///< "scan_then_fan": the program is prefix + id + "_" + name
  const char* title;    ///< one line for tables and --help
  const char* changed;  ///< "Compared with variant N-1: ..." (also the header's first paragraph)
  Impl impl;            ///< CPU, library or ours
  BlockRule threads;    ///< which block sizes it accepts
  int default_threads;  ///< block size of the per-variant program and the size sweep
  hb::Needs needs = {};  ///< the GPU its headline form needs, and what runs below it
  unsigned tile_bytes_per_thread = 0;  ///< dynamic shared memory per thread of a block (0: none)

  /// "scan3_scan_then_fan": the name of the variant's program (device-level tables).
  std::string program() const;
  /// "scan3_scan_then_fan.cuh": the header that holds its code (".h" for the CPU rows).
  std::string header() const;
  /// Whether the variant accepts blocks of \p n threads.
  bool accepts_threads(int n) const { return hb::accepts(threads, n); }
  /// Whether it accepts blocks of \p n threads on the current GPU: the rule, and the tile of
  /// such a block fits the shared memory the GPU grants (fits_shared_memory()).
  bool accepts_threads_here(int n) const;
  /// "scan variant 5c", for messages.
  std::string label() const;
};

/// A row of the device-level scan table.
struct ScanVariant : VariantInfo {
  ScanLauncher<int> launch_int;      ///< nullptr for the CPU row
  ScanLauncher<float> launch_float;  ///< nullptr for the CPU row
  /// The launcher for element type T (int or float).
  template <typename T>
  ScanLauncher<T> launcher() const;
};
template <>
inline ScanLauncher<int> ScanVariant::launcher<int>() const { return launch_int; }
template <>
inline ScanLauncher<float> ScanVariant::launcher<float>() const { return launch_float; }

/// A row of the compaction table.
struct CompactVariant : VariantInfo {
  CompactLauncher launch;  ///< nullptr for the CPU row
};

/// A row of the warp- or block-level table.
struct SegmentVariant : VariantInfo {
  SegmentLauncher<int> launch_int;
  SegmentLauncher<float> launch_float;
  int elements_per_thread;  ///< 1, or 2 for Blelloch's block scan
  /// Elements scanned together with blocks of \p block_threads threads: 32 for a warp scan, the
  /// tile for a block scan.
  std::size_t segment(int block_threads) const;
  /// The launcher for element type T (int or float).
  template <typename T>
  SegmentLauncher<T> launcher() const;
};
template <>
inline SegmentLauncher<int> SegmentVariant::launcher<int>() const { return launch_int; }
template <>
inline SegmentLauncher<float> SegmentVariant::launcher<float>() const { return launch_float; }

/// Every device-level scan, variant 0a (the CPU reference) first.
const std::vector<ScanVariant>& scan_variants();
/// Every stream compaction, variant 0a (the CPU reference) first.
const std::vector<CompactVariant>& compact_variants();
/// Every warp-level scan, variant 0 (CUB) first.
const std::vector<SegmentVariant>& warp_variants();
/// Every block-level scan, variant 0 (CUB) first.
const std::vector<SegmentVariant>& block_variants();

/// The scan variant with id \p id ("6", "5c"); throws hb::UsageError listing the valid ids.
const ScanVariant& find_scan_variant(std::string_view id);
/// The compaction variant with id \p id; throws hb::UsageError listing the valid ids.
const CompactVariant& find_compact_variant(std::string_view id);

/// "0a, 0b, 1, ..." for messages and --help.
std::string scan_variant_ids();
/// "0a, 0b, 1, 2" for messages and --help.
std::string compact_variant_ids();

}  // namespace ch13
