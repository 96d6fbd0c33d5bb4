#include "nbody_variants.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "hb/error.h"

namespace ch14 {

namespace {
constexpr std::size_t K = 1024;
}

// [nbody-variant-table]
const std::vector<Variant>& variants() {
  static const std::vector<Variant> table = [] {
    std::vector<Variant> v;
    auto make = [&](const char* name, const char* title, const char* source, const char* changed,
                    Kind kind) {
      Variant x;
      x.id = static_cast<int>(v.size());
      x.name = name;
      x.title = title;
      x.source = source;
      x.changed = changed;
      x.kind = kind;
      return x;
    };
    auto cpu = [&](const char* name, const char* title, const char* source, const char* changed,
                   CpuForces f, Isa isa, std::size_t bodies, const char* file,
                   const char* snippet) {
      Variant x = make(name, title, source, changed, Kind::Cpu);
      x.cpu = f;
      x.isa = isa;
      x.default_bodies = bodies;
      x.file = file;
      x.snippet = snippet;
      v.push_back(x);
    };
    auto gpu = [&](const char* name, const char* title, const char* source, const char* changed,
                   GpuLauncher f, GpuScratch scratch, const char* param_name,
                   std::vector<int> params, int default_param, const char* file,
                   const char* snippet) {
      Variant x = make(name, title, source, changed, Kind::Gpu);
      x.gpu = f;
      x.scratch = scratch;
      x.param_name = param_name;
      x.params = std::move(params);
      x.default_param = default_param;
      x.default_bodies = 64 * K;
      x.file = file;
      x.snippet = snippet;
      v.push_back(x);
    };
    auto multi = [&](const char* name, const char* title, const char* changed, MultiGpuRun f,
                     const char* file, const char* snippet) {
      Variant x = make(name, title, "section 14.6, Table 14.3", changed, Kind::MultiGpu);
      x.multi = f;
      x.param_name = "bodies per thread";
      x.params = blocked_factors();
      x.default_param = 4;
      x.default_bodies = 64 * K;
      x.file = file;
      x.snippet = snippet;
      v.push_back(x);
    };

    cpu("cpu_aos", "CPU scalar, AOS (the reference)", "listing 14.2, section 14.2",
        "The reference of every table: listing 14.2, one CPU thread, scalar code, the bodies as "
        "an array of structures (x, y, z, mass), and `bodyBodyInteraction<float>` of listing 14.1 "
        "for each of the N^2 interactions.",
        forces_cpu_aos, Isa::None, 4 * K, "nbody0_cpu_aos.cpp", "nbody-cpu-aos");
    cpu("cpu_soa", "CPU scalar, SOA", "section 14.7",
        "Compared with variant 0: the same scalar loop reads the structure of arrays (one array "
        "each of x, y, z and mass, section 14.7) that the SIMD variants need, so the next steps "
        "change one thing at a time.",
        forces_cpu_soa, Isa::None, 4 * K, "nbody1_cpu_soa.cpp", "nbody-cpu-soa");
    cpu("cpu_sse", "CPU SSE, one thread", "listing 14.8, section 14.7",
        "Compared with variant 1: four bodies at a time in SSE registers (listing 14.8), and the "
        "inverse square root from the RSQRTPS estimate refined by one Newton-Raphson step instead "
        "of a square root and a division.",
        forces_cpu_sse, Isa::Sse, 8 * K, "nbody2_cpu_sse.cpp", "nbody-sse-kernel");
    cpu("cpu_avx2", "CPU AVX2+FMA, one thread", "beyond the text (section 14.8 expects AVX)",
        "Compared with variant 2: eight bodies at a time in AVX2's 256-bit registers, and fused "
        "multiply-adds (FMA3), which also shorten the Newton-Raphson step.",
        forces_cpu_avx2, Isa::Avx2, 8 * K, "nbody3_cpu_avx2.cpp", "nbody-avx2-rows");
    cpu("cpu_avx512", "CPU AVX-512, one thread", "beyond the text",
        "Compared with variant 3: sixteen bodies at a time in AVX-512's 512-bit registers, and a "
        "14-bit inverse square root estimate (VRSQRT14PS), so that one Newton-Raphson step "
        "reaches full single precision.",
        forces_cpu_avx512, Isa::Avx512, 8 * K, "nbody4_cpu_avx512.cpp", "nbody-avx512-rows");
    cpu("cpu_simd", "CPU SIMD, all cores", "listings 14.9-14.10, section 14.7",
        "Compared with variants 2-4: the widest SIMD level this CPU supports runs on every core "
        "(listings 14.9-14.10), each thread with an equal share of the rows, handed out by OpenMP "
        "instead of the book's own thread pool.",
        forces_cpu_simd_threads, Isa::None, 16 * K, "nbody5_cpu_simd.cpp", "nbody-cpu-threads");

    gpu("gpu_aos", "GPU naive, AOS from global memory", "listing 14.3, Table 14.1, section 14.2",
        "Compared with variant 5: the rows of the force matrix go to GPU threads instead of CPU "
        "cores, one row per thread, and the inner loop reads each body as one 16-byte float4 "
        "load from global memory, where the caches serve the many repeated reads. The template "
        "parameter is the factor of `#pragma unroll` on that loop (Table 14.1).",
        launch_gpu_aos, nullptr, "unroll", unroll_factors(), 16, "nbody6_gpu_aos.cuh",
        "nbody-gpu-aos-kernel");
    gpu("gpu_shared", "GPU shared-memory tiles", "listing 14.4, Table 14.2, section 14.3",
        "Compared with variant 6: each block first copies a tile of blockDim.x bodies into shared "
        "memory, one body per thread, and then every thread of the block reads the whole tile "
        "from there; all threads of a warp read the same element, which shared memory "
        "broadcasts. The template parameter unrolls the loop over the tile (Table 14.2).",
        launch_gpu_shared, nullptr, "unroll", unroll_factors(), 4, "nbody7_gpu_shared.cuh",
        "nbody-gpu-shared-kernel");
    gpu("gpu_const", "GPU constant memory, 4000 bodies per pass",
        "listings 14.5-14.6, section 14.4",
        "Compared with variant 7: no shared memory at all. The host copies the bodies into "
        "constant memory, at most 4000 (64,000 bytes) per pass, and launches one kernel per pass; "
        "every thread of a warp reads the same body, which the constant cache broadcasts. The "
        "first pass writes the accelerations, the later passes add to them.",
        launch_gpu_const, nullptr, nullptr, {}, 0, "nbody8_gpu_const.cu",
        "nbody-gpu-const-kernel");
    gpu("gpu_shuffle", "GPU warp shuffle", "listing 14.7, section 14.5",
        "Compared with variant 8: no constant and no shared memory. Each lane of a warp loads one "
        "body of a 32-body tile into registers, and the warp walks the tile with `__shfl_sync`, "
        "which hands one lane's registers to every lane: four shuffles per interaction replace "
        "the shared-memory store and load.",
        launch_gpu_shuffle, nullptr, nullptr, {}, 0, "nbody9_gpu_shuffle.cuh",
        "nbody-gpu-shuffle-kernel");
    gpu("gpu_blocked", "GPU several bodies per thread, split columns, rsqrt", "beyond the text",
        "Compared with variant 9: back to shared-memory tiles, with one hardware rsqrt per "
        "interaction instead of an IEEE square root and division, several bodies (rows) per "
        "thread so that one shared-memory load feeds several interactions, and the columns of "
        "the force matrix split over blocks so that the GPU stays full with fewer threads.",
        launch_gpu_blocked, blocked_scratch, "bodies per thread", blocked_factors(), 4,
        "nbody10_gpu_blocked.cuh", "nbody-gpu-blocked-kernel");
    gpu("gpu_symmetric", "GPU symmetric tiles (k = 32)", "figures 14.3-14.4, section 14.1.1",
        "Compared with variant 10: the symmetry f_ji = -f_ij halves the interactions: warps "
        "compute only the 32 x 32 tiles on and above the diagonal (figures 14.3 and 14.4), one "
        "inverse square root serves both bodies of a pair, row sums are added and column sums "
        "subtracted, and column sums meet in global memory through atomic adds.",
        launch_gpu_symmetric, symmetric_scratch, nullptr, {}, 0, "nbody11_gpu_symmetric.cuh",
        "nbody-gpu-symmetric-kernel");
    v.back().needs = {90, "three scalar float atomics per sum instead of one float4 vector atomic"};

    multi("gpu_multi", "multi-GPU, one host thread",
          "Compared with variant 10: the same kernel on every GPU at once (section 14.6). The "
          "bodies sit in portable pinned host memory; GPU k copies all of them in, computes its "
          "own range of about N/G rows and copies those back. One host thread drives all GPUs.",
          forces_multi_gpu, "nbody12_gpu_multi.cpp", "nbody-multi-single-thread");
    multi("gpu_multi_threads", "multi-GPU, one host thread per GPU",
          "Compared with variant 12: each GPU gets a host thread of its own, which makes it "
          "current, enqueues its work and waits for it, as in the book's multithreaded version.",
          forces_multi_gpu_threads, "nbody13_gpu_multi_threads.cpp", "nbody-multi-threads");
    return v;
  }();
  return table;
}
// [nbody-variant-table]

// The text is a string_view, not a const std::string&: GCC 13 warns (-Wdangling-reference)
// when a function returning a reference is called with a temporary std::string.
const Variant& find_variant(std::string_view text, const char* flag) {
  const auto& all = variants();
  if (!text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); })) {
    // A decimal id, leading zeros allowed ("07" is 7); anything longer than the table is not one.
    const std::string_view digits = text.substr(std::min(text.find_first_not_of('0'), text.size()));
    const unsigned long id = digits.empty() ? 0 : digits.size() > 3 ? all.size() : std::stoul(std::string(digits));
    if (id < all.size()) return all[id];
  }
  for (const auto& v : all)
    if (text == v.name || text == v.program()) return v;
  throw hb::UsageError(std::string(flag) + " '" + hb::printable(std::string(text)) +
                       "': no such variant (an id 0-" + std::to_string(all.size() - 1) +
                       " or one of: " + variant_names() + ")");
}

std::string variant_names() {
  std::string s;
  for (const auto& v : variants()) s += (s.empty() ? "" : ", ") + std::string(v.name);
  return s;
}

}  // namespace ch14
