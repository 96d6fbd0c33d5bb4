/// \file
/// \brief Chapter 15, variant 10: image tiles staged with cuda::memcpy_async, double-buffered.
/* [changed]
Compared with variant 9: back to the direct sums of variant 5 (its unrolled inner loop, the
template in constant memory), with a new way of filling the shared-memory tile. Variant 5's
threads load the tile through the texture, byte by byte, and the block waits at a barrier
before any thread may compute: loading and computing take turns. Here each block walks several
tiles down its column of the image and keeps two tile buffers. While the block computes the
sums of one tile from one buffer, the image rows of its next tile are already on their way into
the other buffer with `cuda::memcpy_async`, the CUDA C++ library's asynchronous copy from
global to shared memory. A `cuda::pipeline` keeps the order: each thread commits the copies it
started for a tile as one stage (`producer_acquire`, `producer_commit`), waits for the oldest
stage before the block computes from it (`consumer_wait`, then a barrier so that every thread's
copies are visible), and releases it afterwards (`consumer_release`). The copies move 16
aligned bytes each straight from the image's rows; only the few 16-byte pieces that cross the
left or right image edge are assembled byte by byte with clamped indices, the clamping the
texture did for variant 5.
[changed] */
/* [notes]
On GPUs of compute capability 8.0 and later the copies compile to `cp.async`: the bytes go from
global memory to shared memory without passing through registers, and the thread that started
them goes on to the next instruction at once, so the sums of the current tile hide the latency
of the next tile's loads. Turing (7.5) has no such instruction; there the library performs each
copy as an ordinary load and store, which gives the same results without the overlap. The
memory for two tiles is about twice variant 5's; when it would exceed the block's limit, or the
template does not fit constant memory, variant 5 runs (and falls back as it does).
[notes] */
#pragma once

#include <cstdint>

#include <cuda/pipeline>

#include "05_shared4.cuh"
#include "correlation.h"

namespace ch15 {

/// The path of variant 10's own kernel.
constexpr Path kPathSharedAsync{"shared_async"};
/// Tiles of 32 x 8 outputs each block computes in its column of the image (some blocks fewer).
constexpr int kAsyncTilesPerBlock = 4;
/// Bytes of one asynchronous copy: the widest `cp.async` moves, aligned on both sides.
constexpr int kAsyncChunk = 16;

/// The shape of variant 10's tile buffers for a template of \p w_t x \p h_t: each row starts
/// at the 16-byte-aligned image column at or left of the window's first column (\p lead
/// bytes before it) and holds \p chunks copies of 16 bytes.
struct AsyncTile {
  int lead = 0;    ///< bytes from a buffer row's start to the window's first column, 0..15
  int chunks = 0;  ///< 16-byte copies per buffer row
  int pitch = 0;   ///< bytes per buffer row: 16 x chunks
  int rows = 0;    ///< buffer rows: kBookBlockHeight + h_t - 1
  /// Dynamic shared memory of the two buffers.
  std::size_t bytes() const { return 2 * static_cast<std::size_t>(pitch) * rows; }
};

/// The buffers of variant 10 for a template of \p w_t x \p h_t pixels.
inline AsyncTile async_tile(int w_t, int h_t) {
  AsyncTile a;
  const int x_off = window_x_offset(w_t);
  a.lead = x_off - kAsyncChunk * ((x_off - (kAsyncChunk - 1)) / kAsyncChunk);  // x_off mod 16
  a.chunks = static_cast<int>(ceil_div(a.lead + kBookTileWidth + w_t - 1, kAsyncChunk));
  a.pitch = kAsyncChunk * a.chunks;
  a.rows = kBookBlockHeight + h_t - 1;
  return a;
}

// [corr10-stage]
/// Starts the copies of the image rows that output rows v_tile ... v_tile + 7 of the block's
/// columns need into buffer dst, and commits them as one stage of this thread's pipeline.
/// A 16-byte piece inside the image is one asynchronous copy from its (clamped) row; a piece
/// that crosses the left or right edge is written here, byte by byte, with clamped columns.
__device__ __forceinline__ void stage_tile(cuda::pipeline<cuda::thread_scope_thread>& pipe,
                                           unsigned char* dst, const std::uint8_t* image,
                                           std::size_t pitch, int w, int h, int u_tile,
                                           int v_tile, int x_off, int y_off, AsyncTile a) {
  pipe.producer_acquire();
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int x0 = u_tile + x_off - a.lead;  // a multiple of 16: every copy is aligned
  for (int i = tid; i < a.rows * a.chunks; i += blockDim.x * blockDim.y) {
    const int r = i / a.chunks;
    const int c = i - r * a.chunks;
    const int x = x0 + kAsyncChunk * c;
    const std::uint8_t* row = image + static_cast<std::size_t>(min(max(v_tile + r + y_off, 0), h - 1)) * pitch;
    unsigned char* to = dst + r * a.pitch + kAsyncChunk * c;
    if (x >= 0 && x + kAsyncChunk <= w) {
      cuda::memcpy_async(to, row + x, cuda::aligned_size_t<kAsyncChunk>(kAsyncChunk), pipe);
    } else {
      for (int e = 0; e < kAsyncChunk; ++e) to[e] = row[min(max(x + e, 0), w - 1)];
    }
  }
  pipe.producer_commit();
}
// [corr10-stage]

// [corr10-kernel]
/// Variant 5's sums over a column of tiles: the next tile's copies are in flight while the
/// block computes the current one.
template <bool kSums>
__global__ void __launch_bounds__(kBookTileWidth * kBookBlockHeight)
    corr_shared_async_kernel(Output out, const std::uint8_t* __restrict__ image, std::size_t pitch,
                             int w, int h, int x_off, int y_off, int w_t, int h_t, AsyncTile a,
                             DeviceTemplate t) {
  unsigned char* buffer[2] = {dynamic_shared<unsigned char>(),
                              dynamic_shared<unsigned char>() + a.pitch * a.rows};
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int uTile = blockIdx.x * kBookTileWidth;
  const int tiles = (h + kBookBlockHeight - 1) / kBookBlockHeight;
  int tile = blockIdx.y;
  if (tile < tiles)
    stage_tile(pipe, buffer[0], image, pitch, w, h, uTile, tile * kBookBlockHeight, x_off, y_off, a);
  const int w4 = w_t & ~3;
  for (int k = 0; tile < tiles; ++k, tile += gridDim.y) {
    // Both buffers are free here (the barrier at the end of the last round): start the next
    // tile's copies into the other one, then wait for this tile's.
    const int next = tile + gridDim.y;
    if (next < tiles)
      stage_tile(pipe, buffer[(k + 1) & 1], image, pitch, w, h, uTile, next * kBookBlockHeight,
                 x_off, y_off, a);
    pipe.consumer_wait();  // this thread's copies of the current tile have landed
    __syncthreads();       // and so have everyone else's
    const int v = tile * kBookBlockHeight + threadIdx.y;
    const int col = threadIdx.x;
    unsigned SumI = 0, SumISq = 0, SumIT = 0;
    const unsigned char* I = buffer[k & 1] + a.lead + threadIdx.y * a.pitch + col;
    const unsigned char* T = g_Tpix;
    for (int j = 0; j < h_t; ++j) {
      int i = 0;
      for (; i < w4; i += 4) {
        corr_shared_accumulate(SumI, SumISq, SumIT, I[i + 0], T[i + 0]);
        corr_shared_accumulate(SumI, SumISq, SumIT, I[i + 1], T[i + 1]);
        corr_shared_accumulate(SumI, SumISq, SumIT, I[i + 2], T[i + 2]);
        corr_shared_accumulate(SumI, SumISq, SumIT, I[i + 3], T[i + 3]);
      }
      for (; i < w_t; ++i) corr_shared_accumulate(SumI, SumISq, SumIT, I[i], T[i]);
      I += a.pitch;
      T += w_t;
    }
    if (uTile + col < w && v < h)
      store_result<kSums>(out, static_cast<std::size_t>(v) * w + uTile + col, SumI, SumISq, SumIT, t);
    __syncthreads();  // nobody reads this buffer any more: the next round may refill it
    pipe.consumer_release();
  }
}
// [corr10-kernel]

// [corr10-launch]
/// Variant 10's launcher: blocks of 32 x 8 threads, each over kAsyncTilesPerBlock tiles of a
/// column; variant 5 when two buffers do not fit or the template does not fit constant memory.
Path corr10_shared_async(Workspace& ws, const Output& out, cudaStream_t stream) {
  check_output(out);
  const Template& t = ws.tmpl();
  const AsyncTile a = async_tile(t.width, t.height);
  if (!fits_constant_memory(t) || a.bytes() > ws.shared_limit()) return corr5_shared4(ws, out, stream);
  ensure_constant_template(ws, stream);
  using Kernel = void (*)(Output, const std::uint8_t*, std::size_t, int, int, int, int, int, int,
                          AsyncTile, DeviceTemplate);
  const Kernel kernel = out.sums != nullptr ? corr_shared_async_kernel<true> : corr_shared_async_kernel<false>;
  allow_shared_memory(reinterpret_cast<const void*>(kernel), a.bytes());
  const int tiles = static_cast<int>(ceil_div(ws.height(), kBookBlockHeight));
  const dim3 threads(kBookTileWidth, kBookBlockHeight);
  const dim3 blocks(ceil_div(ws.width(), kBookTileWidth), ceil_div(tiles, kAsyncTilesPerBlock));
  kernel<<<blocks, threads, a.bytes(), stream>>>(
      out, ws.image_rows(), ws.image_pitch(), ws.width(), ws.height(), window_x_offset(t.width),
      window_y_offset(t.height), t.width, t.height, a, device_template(t.stats));
  HB_CHECK_LAUNCH();
  return kPathSharedAsync;
}
// [corr10-launch]

}  // namespace ch15
