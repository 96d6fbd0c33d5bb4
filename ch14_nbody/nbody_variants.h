/// \file
/// \brief The one table of chapter 14's variants. The per-variant programs, the driver, the
///        tests and the chapter page all read it, so a variant cannot exist in one of them and
///        be missing from another.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "hb/capability.h"
#include "nbody12_gpu_multi.h"
#include "nbody_cpu.h"
#include "nbody_gpu.h"

namespace ch14 {

/// Where a variant runs, and so which of the table's function pointers it fills.
enum class Kind {
  Cpu,       ///< Variant::cpu on host memory
  Gpu,       ///< Variant::gpu on one GPU's memory
  MultiGpu,  ///< Variant::multi over pinned host memory and several GPUs
};

/// One row of the table.
struct Variant {
  int id = 0;             ///< 0 .. 13, in the order of the chapter page
  const char* name = "";   ///< "gpu_shared": the program is "nbody_" + name
  const char* title = "";  ///< one line for tables and --help
  const char* source = ""; ///< where in the text: "listing 14.4, section 14.3"
  const char* changed = "";  ///< "Compared with variant N-1: ..." (also the file's first paragraph)
  Kind kind = Kind::Cpu;
  CpuForces cpu = nullptr;        ///< Kind::Cpu
  Isa isa = Isa::None;            ///< the SIMD level a CPU variant needs (None: any CPU)
  GpuLauncher gpu = nullptr;      ///< Kind::Gpu
  GpuScratch scratch = nullptr;   ///< Kind::Gpu: scratch it needs (nullptr: none)
  MultiGpuRun multi = nullptr;    ///< Kind::MultiGpu
  const char* param_name = nullptr;  ///< the tuning knob ("unroll"), nullptr when none
  std::vector<int> params;           ///< values the knob is compiled for (a sweep's rows)
  int default_param = 0;             ///< what the programs use unless told otherwise
  std::size_t default_bodies = 0;    ///< bodies of the program and the driver's table
  const char* file = "";                ///< the source file that holds its code
  const char* snippet = "";             ///< the snippet marker of its code on the chapter page
  hb::Needs needs = {};                 ///< the GPU its headline form needs, what runs below it

  /// "nbody_gpu_shared": the name of the variant's program.
  std::string program() const { return std::string("nbody_") + name; }
  bool on_gpu() const { return kind != Kind::Cpu; }
  /// Whether this machine's CPU can run it (always true for GPU variants).
  bool cpu_supported() const { return kind != Kind::Cpu || isa_available(isa); }
};

/// Every variant, variant 0 (the reference) first; ids equal positions.
const std::vector<Variant>& variants();

/// The variant named \p text ("gpu_shared", "nbody_gpu_shared" or "7"); throws
/// hb::UsageError naming \p flag and listing the valid names.
const Variant& find_variant(std::string_view text, const char* flag = "--variant");

/// "cpu_aos, cpu_soa, ..." for messages and --help.
std::string variant_names();

}  // namespace ch14
