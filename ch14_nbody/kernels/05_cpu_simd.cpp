/// \file
/// \brief Chapter 14, variant 5: CPU SIMD, all cores.
///
/// The book hands the shares to a pool of worker threads of its own; OpenMP keeps such a pool for
/// us.
/* [changed]
Compared with variants 2-4: the widest SIMD level this CPU supports runs on every core (listings
14.9-14.10), each thread with an equal share of the rows, handed out by OpenMP instead of the
book's own thread pool.
[changed] */
#include <algorithm>

#include <omp.h>

#include "nbody.h"

namespace ch14 {

// [nbody-cpu-threads]
void forces_cpu_simd_threads(const HostBodies& bodies, float* force, float softening_sq,
                             int threads) {
  const CpuRows rows = isa_rows(best_isa());
  const int t = cpu_threads(threads);
  const std::size_t n = bodies.n;
  // Like listing 14.9, thread k gets the k-th of t equal ranges of rows; unlike it, N need
  // not be a multiple of t (the ranges differ in size by at most one row).
#pragma omp parallel num_threads(t)
  {
    const std::size_t k = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t count = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t begin = n * k / count, end = n * (k + 1) / count;
    if (rows != nullptr) {
      rows(bodies, force, softening_sq, begin, end);
    }
  }
  // Without any SIMD level (not x86-64) we fall back to the scalar code on one thread.
  if (rows == nullptr) forces_cpu_soa(bodies, force, softening_sq, 1);
}
// [nbody-cpu-threads]

}  // namespace ch14
