/// \file
/// \brief Variant 14's arithmetic: the bodies split into one slice per rank (process, GPU), and
///        one rank's forces from its own slice and from the rest, as variant 10 computes them.
///
/// NCCL's all-gather moves the same count from every rank, so the n bodies are cut into
/// `ranks` chunks of \f$c = \lceil n / \mathit{ranks} \rceil\f$ bodies; the last chunk is padded
/// with massless bodies (and a rank past the end of n has no rows at all). Rank r owns bodies
/// [r c, min((r + 1) c, n)): it computes their accelerations against all n bodies and moves
/// only them. Everything here runs on one GPU without NCCL, so the tests can check the split on
/// any machine with a GPU.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

namespace ch14 {

/// Rank \p rank's share of n bodies over \p ranks ranks.
struct Slice {
  std::size_t n = 0;      ///< bodies in the problem
  int ranks = 1;          ///< how many ranks share them
  int rank = 0;           ///< this one
  std::size_t chunk = 0;  ///< bodies per rank in the all-gather (the last padded)
  std::size_t begin = 0;  ///< this rank's first body
  std::size_t end = 0;    ///< one past its last body (begin == end: no rows)

  std::size_t rows() const { return end - begin; }
  /// chunk x ranks: the gathered array, padding included.
  std::size_t padded() const { return chunk * static_cast<std::size_t>(ranks); }
};

/// The slice of \p rank (0 <= rank < ranks) of \p n bodies. Throws std::invalid_argument for a
/// rank out of range or no ranks.
Slice slice_of(std::size_t n, int ranks, int rank);

/// Device memory one rank's force evaluation needs besides the bodies (see enqueue_slice_forces).
struct SliceBuffers {
  float* force = nullptr;        ///< 3 floats per row of the slice: the result
  float* force_before = nullptr; ///< 3 per row: the part from bodies [0, begin)
  float* force_after = nullptr;  ///< 3 per row: the part from bodies [end, n)
  float4* scratch = nullptr;     ///< variant 10's scratch for the slice's rows (blocked_scratch)
  std::size_t scratch_count = 0;
};

/// The accelerations of the slice's rows from the slice's own bodies: variant 10 on the local
/// block, which needs nothing from other ranks. \p mine holds the slice's bodies (s.rows()).
void enqueue_local_forces(const Slice& s, const float4* mine, const SliceBuffers& b,
                          float softening_sq, int bodies_per_thread, cudaStream_t stream);

/// After the all-gather: adds the accelerations from every other body to b.force. \p all holds
/// all s.padded() bodies, rank k's chunk at k s.chunk (the slice's own chunk among them).
/// Variant 10 runs twice, once for the bodies before the slice and once for those after it,
/// each on the slice's rows, into b.force_before and b.force_after, and a small kernel adds
/// them; a single rank has nothing to add.
void enqueue_remote_forces(const Slice& s, const float4* all, const SliceBuffers& b,
                           float softening_sq, int bodies_per_thread, cudaStream_t stream);

/// Leapfrog on the slice's rows: kick (v += h a), or drift (x += dt v) the bodies in \p mine.
void enqueue_kick(const Slice& s, float* vel, const float* force, float h, cudaStream_t stream);
void enqueue_drift(const Slice& s, float4* mine, const float* vel, float dt, cudaStream_t stream);

}  // namespace ch14
