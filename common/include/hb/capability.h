/// \file
/// \brief What a variant needs from the GPU, and what runs where it is not there.
///
/// Every row of every chapter's variant table carries a Needs: the compute capability its
/// headline form needs and, below it, the portable form that runs in its place or nothing (the
/// variant is left out, with a one-line reason). The capability that decides is the one the
/// *code* was built for: a build for `80-virtual` run on an H100 is JIT-compiled with
/// `__CUDA_ARCH__` 800, so its kernels hold exactly the code an A100 would run.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace hb {

/// A compute capability as one number, major x 10 + minor: 75, 80, 86, 89, 90, 100, 120.
using Capability = int;
inline constexpr Capability kOldestCapability = 75;  ///< the oldest CUDA 13 builds for (Turing)

struct Needs {
  Capability cc = 0;             ///< the capability of its headline form (0: any GPU, or the CPU)
  const char* below = nullptr;   ///< what runs below cc, or nullptr: the variant is left out there
  std::size_t shared_bytes = 0;  ///< shared memory per block its headline form needs (0: the 48 KiB
                                 ///< every GPU grants); below that, as for cc
};

enum class Form {
  Headline,  ///< the form the page describes
  Portable,  ///< Needs::below, in place of the headline form
  None       ///< neither: the variant is left out here
};

/// "9.0" for 90, "12.0" for 120.
inline std::string capability_text(Capability cc) {
  return std::to_string(cc / 10) + "." + std::to_string(cc % 10);
}

Capability device_capability(int device);

/// The architecture this program's kernels run as here (the ptxVersion of a probe kernel built
/// like them): below device_capability() where the driver compiles older PTX just in time.
/// Throws CudaError when the program holds no code this GPU can load.
Capability code_capability();

/// The current device's capability for a report: "9.0", or "9.0, running code built for 8.0".
std::string capability_summary();

/// The opt-in shared memory per block (bytes) the code may use here: the device's limit, capped
/// by architecture_shared_limit(code_capability()) so that old code keeps the old GPU's limits.
std::size_t shared_per_block_limit();

/// The opt-in shared memory per block (bytes) that every GPU of architecture \p cc grants, from
/// the CUDA C++ Programming Guide's "Technical Specifications per Compute Capability".
inline std::size_t architecture_shared_limit(Capability cc) {
  if (cc < 80) return 64 * 1024;
  if (cc == 80 || cc == 87) return 163 * 1024;
  if (cc < 90) return 99 * 1024;
  return cc < 120 ? 227 * 1024 : 99 * 1024;
}

/// The architectures CUDA 13 builds for, oldest first.
inline const std::vector<Capability>& supported_architectures() {
  static const std::vector<Capability> list = {75, 80, 86, 89, 90, 100, 120};
  return list;
}

/// Whether \p needs asks more of the GPU than every supported GPU has.
inline bool needs_anything(const Needs& needs) {
  return needs.cc > kOldestCapability ||
         needs.shared_bytes > architecture_shared_limit(kOldestCapability);
}

/// "compute capability 9.0", "65 KiB of shared memory per block", or both joined by "and";
/// "any GPU" when needs_anything() is false.
std::string needs_text(const Needs& needs);

/// The form of a variant that runs on the current device.
Form form_here(const Needs& needs);
/// The form for code of capability \p cc whose blocks may use \p shared_bytes of shared memory.
inline Form form_for(const Needs& needs, Capability cc, std::size_t shared_bytes) {
  if (cc >= needs.cc && shared_bytes >= needs.shared_bytes) return Form::Headline;
  return needs.below != nullptr ? Form::Portable : Form::None;
}

/// One line for a report about a variant on the current device: "" for the headline form,
/// "portable form: <Needs::below> (the headline form needs compute capability 9.0)", or
/// "left out: <left_out_reason()>".
std::string form_note(const Needs& needs);

/// One line for a variant that is left out: "needs compute capability 9.0, this GPU is 8.6",
/// or "needs compute capability 9.0, this GPU runs code built for 8.0 (the GPU is 9.0)", or,
/// for shared memory, "needs 65 KiB of shared memory per block, this GPU grants 64 KiB".
std::string left_out_reason(const Needs& needs);

/// Thrown by a program whose variant is left out on this GPU: it prints "SKIPPED: <program>
/// needs ..." and exits with kExitLeftOut.
class LeftOut : public std::runtime_error { using runtime_error::runtime_error; };

/// Throws LeftOut with left_out_reason() when \p needs leaves the variant out here.
inline void require_runs_here(const Needs& needs) {
  if (form_here(needs) == Form::None) throw LeftOut(left_out_reason(needs));
}

/// Inside a Catch2 test: whether the variant runs here; if not, notes the skip and returns
/// false. The test main reports a run whose only outcome is such skips as Skipped (exit 77).
bool test_runs_here(const Needs& needs, const std::string& what);
/// The skips noted so far, one line each ("<what>: <reason>").
const std::vector<std::string>& noted_test_skips();

}  // namespace hb
