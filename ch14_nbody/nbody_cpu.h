/// \file
/// \brief The CPU variants 0-5: scalar AOS (listing 14.2), scalar SOA, SIMD one thread (SSE of
///        listing 14.8, AVX2+FMA, AVX-512) and SIMD on all cores (listings 14.9-14.10).
///
/// Every variant has the signature CpuForces and writes the acceleration of every body to
/// `force` as 3 floats per body (x, y, z). The SIMD code exists only on x86-64; the AVX2 and
/// AVX-512 functions are compiled for their instruction sets with
/// `__attribute__((target(...)))`, so the program runs on any x86-64 CPU and picks what the
/// CPU has at run time (isa_available()).
#pragma once

#include <cstddef>
#include <string>

#include "nbody_bodies.h"

namespace ch14 {

/// The signature of every CPU variant: \p force receives 3 floats per body.
/// \param threads CPU threads to use (only the all-core variant uses more than one; 0: all)
using CpuForces = void (*)(const HostBodies& bodies, float* force, float softening_sq,
                           int threads);

/// The signature of one SIMD level's row function: rows [row_begin, row_end) of the force
/// matrix, one thread. The all-core variant hands each thread a range of rows.
using CpuRows = void (*)(const HostBodies& bodies, float* force, float softening_sq,
                         std::size_t row_begin, std::size_t row_end);

/// Instruction-set levels of the SIMD variants.
enum class Isa { None, Sse, Avx2, Avx512 };

/// "SSE", "AVX2+FMA", "AVX-512F" ("scalar" for None).
std::string isa_name(Isa isa);
/// Floats per SIMD register at that level (1 for None).
int isa_width(Isa isa);
/// Whether this CPU (and its operating system) supports \p isa; None always is.
bool isa_available(Isa isa);
/// The widest level this CPU supports.
Isa best_isa();
/// The row function of \p isa (nullptr for None, or when this build has no SIMD code).
CpuRows isa_rows(Isa isa);

/// Variant 0, listing 14.2: scalar, AOS input, bodyBodyInteraction<float>.
void forces_cpu_aos(const HostBodies& bodies, float* force, float softening_sq, int threads);
/// Variant 1: the same loop over the SOA arrays.
void forces_cpu_soa(const HostBodies& bodies, float* force, float softening_sq, int threads);
/// Variant 2, listing 14.8: SSE, 4 bodies at a time, rsqrt + one Newton-Raphson step.
void forces_cpu_sse(const HostBodies& bodies, float* force, float softening_sq, int threads);
/// Variant 3: AVX2 with FMA, 8 bodies at a time.
void forces_cpu_avx2(const HostBodies& bodies, float* force, float softening_sq, int threads);
/// Variant 4: AVX-512F, 16 bodies at a time, rsqrt14 + one Newton-Raphson step.
void forces_cpu_avx512(const HostBodies& bodies, float* force, float softening_sq, int threads);
/// Variant 5, listings 14.9-14.10: the widest SIMD level on \p threads threads (OpenMP), each
/// with an equal share of the rows.
void forces_cpu_simd_threads(const HostBodies& bodies, float* force, float softening_sq,
                             int threads);

/// Row functions of the SIMD levels (x86-64 only; the others call isa_rows()).
void rows_sse(const HostBodies& b, float* force, float softening_sq, std::size_t row_begin,
              std::size_t row_end);
void rows_avx2(const HostBodies& b, float* force, float softening_sq, std::size_t row_begin,
               std::size_t row_end);
void rows_avx512(const HostBodies& b, float* force, float softening_sq, std::size_t row_begin,
                 std::size_t row_end);

/// OpenMP's thread count for \p threads (0: OpenMP's default, which honours OMP_NUM_THREADS).
int cpu_threads(int threads);

/// The CPU's model name from /proc/cpuinfo ("unknown" elsewhere), for report headers.
std::string cpu_model();

}  // namespace ch14
