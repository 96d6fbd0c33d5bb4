// Run-time choice of the SIMD level, thread counts and the CPU's name.
#include <fstream>
#include <string>

#include <omp.h>

#include "nbody_cpu.h"

namespace ch14 {

std::string isa_name(Isa isa) {
  switch (isa) {
    case Isa::Sse: return "SSE";
    case Isa::Avx2: return "AVX2+FMA";
    case Isa::Avx512: return "AVX-512F";
    case Isa::None: break;
  }
  return "scalar";
}

int isa_width(Isa isa) {
  switch (isa) {
    case Isa::Sse: return 4;
    case Isa::Avx2: return 8;
    case Isa::Avx512: return 16;
    case Isa::None: break;
  }
  return 1;
}

bool isa_available(Isa isa) {
#if defined(__x86_64__)
  // __builtin_cpu_supports also checks that the operating system saves the wide registers.
  switch (isa) {
    case Isa::None: return true;
    case Isa::Sse: return true;  // part of x86-64
    case Isa::Avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Isa::Avx512: return __builtin_cpu_supports("avx512f");
  }
  return false;
#else
  return isa == Isa::None;
#endif
}

Isa best_isa() {
  for (const Isa isa : {Isa::Avx512, Isa::Avx2, Isa::Sse})
    if (isa_available(isa)) return isa;
  return Isa::None;
}

CpuRows isa_rows(Isa isa) {
#if defined(__x86_64__)
  switch (isa) {
    case Isa::Sse: return rows_sse;
    case Isa::Avx2: return rows_avx2;
    case Isa::Avx512: return rows_avx512;
    case Isa::None: break;
  }
#else
  (void)isa;
#endif
  return nullptr;
}

int cpu_threads(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "unknown";
}

}  // namespace ch14
