/// \file
/// \brief A copy at a chosen rate, for measuring how much traffic device->host costs traffic
///        host->device (bus_sharing.cu; beyond the text).
///
/// The copy engines always run at full speed. To ask "does a *slow* copy out still slow the
/// copy in?" we need traffic back to the host at a rate we choose: a kernel that writes mapped
/// host memory, each tile of the copy waiting for its moment on the GPU's nanosecond clock.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

namespace ch11 {

/// Floats one thread copies per tile (one 16-byte vector where the pointers allow it).
inline constexpr int kPacedFloatsPerThread = 4;
/// Threads per block of the paced copy.
inline constexpr int kPacedThreads = 256;

/// Copies \p n floats from \p src to \p dst (either may be device memory or mapped host memory)
/// with \p blocks blocks, no faster than \p gbs decimal GB/s of data written: the copy is cut
/// into tiles of kPacedThreads x kPacedFloatsPerThread floats, and tile t does not start before
/// t x (tile bytes / gbs) after the launch. \p gbs <= 0 copies as fast as the blocks can.
/// A launch with n == 0 enqueues nothing; never synchronizes.
/// \pre blocks >= 1; \p dst does not overlap \p src
void launch_paced_copy(float* dst, const float* src, std::size_t n, double gbs, int blocks,
                       cudaStream_t stream);

}  // namespace ch11
