#include "hb/bench.h"

#include "hb/bandwidth.h"
#include "hb/capability.h"
#include "hb/timing.h"

namespace hb {

Checked measure_checked(const std::function<void(cudaStream_t)>& poison,
                        const std::function<void(cudaStream_t)>& call,
                        const std::function<bool()>& check, cudaStream_t stream, int warmup,
                        int iters, bool do_check) {
  Checked c;
  poison(stream);
  call(stream);
  const bool first = !do_check || check();
  c.median_ms = time_events(call, stream, warmup, iters).median_ms;
  c.ok = first && (!do_check || check());
  return c;
}

std::string percent(double part, double whole) {
  return whole > 0 && part > 0 ? fixed(100.0 * part / whole, 1) : "-";
}

void add_run_facts(Report& r, const std::string& program, const std::string& command,
                   const DeviceInfo& dev) {
  r.fact("program", program);
  r.fact("command", command);
  r.fact("date", today_utc());
  r.fact("gpu", dev.name);
  r.fact("compute capability", capability_summary());
  r.fact("SMs", std::to_string(dev.sm_count));
  r.fact("driver", driver_version_text());
  r.fact("CUDA runtime", cuda_version_text(dev.runtime_version));
}

}  // namespace hb
