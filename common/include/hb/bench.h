/// \file
/// \brief How every chapter measures a kernel: one checked call, warm-up, the median of timed
///        calls, and a second check; the facts every report starts with; and the rates and
///        ratios the tables print.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include <cuda_runtime_api.h>

#include "hb/device.h"
#include "hb/report.h"

namespace hb {

/// One measured configuration.
struct Checked {
  double median_ms = 0.0;
  bool ok = true;  ///< both checks passed (always true when checking is off)
};

/// Measures the device work that \p call enqueues on \p stream: \p poison and one \p call whose
/// result \p check inspects, \p warmup untimed calls, \p iters calls timed with CUDA events
/// (median), and \p check again, which catches state that a call leaves behind (tickets,
/// accumulators). With \p do_check false, \p check is never called.
Checked measure_checked(const std::function<void(cudaStream_t)>& poison,
                        const std::function<void(cudaStream_t)>& call,
                        const std::function<bool()>& check, cudaStream_t stream, int warmup,
                        int iters, bool do_check);

/// \p bytes moved in \p ms milliseconds, in 1e9 bytes/s (0 for a zero time).
inline double gbs(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0.0; }
/// 100 part / whole with one digit ("97.3"), or "-" where either is not positive.
std::string percent(double part, double whole);

/// The facts every chapter's report starts with: program, command, date, GPU, compute
/// capability, SMs, driver and CUDA runtime.
void add_run_facts(Report& r, const std::string& program, const std::string& command,
                   const DeviceInfo& dev);

}  // namespace hb
