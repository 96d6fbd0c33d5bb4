/// \file
/// \brief Chapter 14, variant 13: multi-GPU, one host thread per GPU.
/* [changed]
Compared with variant 12: each GPU gets a host thread of its own, which makes it current,
enqueues its work and waits for it, as in the book's multithreaded version.
[changed] */
#pragma once

#include <exception>
#include <thread>
#include <vector>

#include "nbody.h"

namespace ch14 {

// [nbody-multi-threads]
void forces_multi_gpu_threads(MultiGpu& m) {
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> errors(m.slots().size());
  for (std::size_t k = 0; k < m.slots().size(); ++k) {
    threads.emplace_back([&m, &errors, k] {
      // The current device is per host thread: each thread sets its own.
      try {
        MultiGpu::Slot& s = *m.slots()[k];
        enqueue_slot(m, s);
        s.stream.synchronize();
      } catch (...) {
        errors[k] = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}
// [nbody-multi-threads]

}  // namespace ch14
