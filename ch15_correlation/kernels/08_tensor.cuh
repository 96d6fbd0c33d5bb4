/// \file
/// \brief Chapter 15, variant 8: 8-bit tensor cores, box sums (beyond the text).
///
/// Matrix B has wTemplate + 7 non-zero rows (the template row at 8 shifts), so chunks of 32
/// waste up to 7 + 31 products per row: 81% of the products are useful for 52 x 52, 50% for 16
/// x 16. The 32-bit accumulators wrap around, which is harmless: every sum is below
/// \f$2^{32}\f$ and is read back as unsigned. `mma.sync` with 8-bit integers needs compute
/// capability 8.0; on older devices variant 7 runs.
/* [changed]
Compared with variant 7: the products run on the tensor cores. For one template row j, the
contributions to 128 adjacent outputs of one row form a matrix product: with x = 8 m + n (m =
0..15, n = 0..7), output x needs the sum over k of A[m][k] B[k][n] where A[m][k] = image pixel 8
m + k of the row (a Hankel matrix: each row is the previous one moved by 8 pixels) and B[k][n] =
T[j][k - n] (a Toeplitz matrix of the template row, zero outside it). That is one
`mma.sync.m16n8k32` with unsigned 8-bit operands and 32-bit sums per 32 columns of k: 4096
multiply-adds in one warp instruction, against 128 per warp instruction for `__dp4a`. Each A
register is one aligned word of the image tile, read straight from shared memory; the B
fragments are packed once per template (fragments.h) and read through the L1 cache. A block has
eight warps, each computing 4 rows of 128 outputs; a warp walks the image rows once and uses
each A fragment for all of its rows that the image row contributes to, and keeps the B fragments
of the last four template rows in registers, so that it reads each from memory once. SumI and
SumISq are box sums, as in variant 7.
[changed] */
#pragma once

#include "07_dp4a.cuh"
#include "hb/capability.h"

namespace ch15 {

// [corr8-mma]
/// D = A B + D for one m16n8k32 tile with unsigned 8-bit A (16 x 32, row-major) and B
/// (32 x 8, column-major) and 32-bit accumulators; every lane passes its fragment registers
/// (layout in fragments.h).
__device__ __forceinline__ void mma_u8_m16n8k32(int (&d)[4], unsigned a0, unsigned a1, unsigned a2,
                                                unsigned a3, unsigned b0, unsigned b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
#else
  (void)d, (void)a0, (void)a1, (void)a2, (void)a3, (void)b0, (void)b1;
  __trap();  // the launcher never runs this kernel in code built for less than 8.0
#endif
}
// [corr8-mma]

// [corr8-kernel]
/// Variant 8: ΣIT on the tensor cores, the other sums as box sums. Each pass over the image
/// rows covers kChunks chunks of K: all of the template's when it has 1 to 4 (a template up to
/// 121 pixels wide), else one per pass.
template <int kChunks, bool kSums>
__global__ void __launch_bounds__(kTensorThreads)
    corr_tensor_kernel(Output out, const std::uint8_t* __restrict__ image, std::size_t pitch, int w,
                       int h, int x_off, int y_off, int w_t, int h_t, int chunks, FusedLayout layout,
                       const uint2* __restrict__ fragments, DeviceTemplate t) {
  unsigned* tile = dynamic_shared<unsigned>();
  unsigned* box = tile + layout.tile_words * layout.tile_rows;
  const int bx = blockIdx.x * kFusedTileWidth, by = blockIdx.y * kFusedTileHeight;
  load_image_tile(tile, layout.tile_words, layout.tile_rows, image, pitch, w, h, bx + x_off, by + y_off);
  __syncthreads();
  box_sums<kTensorThreads>(tile, layout.tile_words, w_t, h_t, box, layout.box_pitch);

  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int k0 = warp * kTensorRowsPerWarp;  // the warp's first output row in the tile
  int acc[kTensorRowsPerWarp][4];
#pragma unroll
  for (int k = 0; k < kTensorRowsPerWarp; ++k) acc[k][0] = acc[k][1] = acc[k][2] = acc[k][3] = 0;

  // Image row k0 + r of the tile contributes to output row k0 + k with template row j = r - k.
  // At image row r, b[k] holds the B fragments of template row r - k (zero outside the
  // template). Moving down one image row shifts them one place and takes in one new template
  // row, read a row ahead: each fragment is read from memory once per pass.
  const int rows = kTensorRowsPerWarp + h_t - 1;
  const unsigned* a_base = tile + k0 * layout.tile_words + tensor_a_word(lane, 0, 0);
  for (int c0 = 0; c0 < chunks; c0 += kChunks) {
    uint2 b[kTensorRowsPerWarp][kChunks], next[kChunks];
    const uint2* b_next = fragments + 32 * c0 + lane;  // template row 0
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
#pragma unroll
      for (int k = 0; k < kTensorRowsPerWarp; ++k) b[k][c] = make_uint2(0, 0);
      next[c] = __ldg(b_next + 32 * c);
    }
#pragma unroll kTensorRowsPerWarp
    for (int r = 0; r < rows; ++r) {
      b_next += 32 * chunks;  // template row r + 1
#pragma unroll
      for (int c = 0; c < kChunks; ++c) {
#pragma unroll
        for (int k = kTensorRowsPerWarp - 1; k > 0; --k) b[k][c] = b[k - 1][c];
        b[0][c] = next[c];
        next[c] = r + 1 < h_t ? __ldg(b_next + 32 * c) : make_uint2(0, 0);
      }
      const unsigned* a_row = a_base + r * layout.tile_words + 8 * c0;
#pragma unroll
      for (int c = 0; c < kChunks; ++c) {
        const unsigned a0 = a_row[8 * c], a1 = a_row[8 * c + 16];
        const unsigned a2 = a_row[8 * c + 4], a3 = a_row[8 * c + 20];
#pragma unroll
        for (int k = 0; k < kTensorRowsPerWarp; ++k)
          mma_u8_m16n8k32(acc[k], a0, a1, a2, a3, b[k][c].x, b[k][c].y);
      }
    }
  }

#pragma unroll
  for (int k = 0; k < kTensorRowsPerWarp; ++k) {
    const int ly = k0 + k, y = by + ly;
#pragma unroll
    for (int reg = 0; reg < 4; ++reg) {
      const int lx = tensor_c_column(lane, reg), x = bx + lx;
      if (x < w && y < h) {
        store_result<kSums>(out, static_cast<std::size_t>(y) * w + x, box[ly * layout.box_pitch + lx],
                            box[(kFusedTileHeight + ly) * layout.box_pitch + lx],
                            static_cast<unsigned>(acc[k][reg]), t);
      }
    }
  }
}
// [corr8-kernel]

/// Variant 8's preparation: packs the template's B fragments and uploads them.
/// \param ws the workspace whose template to pack
/// \param stream the stream of the upload
void prepare8_tensor(Workspace& ws, cudaStream_t stream) {
  const Template& t = ws.tmpl();
  const int chunks = tensor_chunks(t.width);
  const std::vector<std::uint32_t> packed = pack_tensor_template(t, chunks);
  Workspace::TensorTemplate& p = ws.tensor;
  if (p.fragments.size() * 2 < packed.size()) p.fragments = hb::DeviceBuffer<uint2>(packed.size() / 2);
  HB_CUDA_CHECK(cudaMemcpyAsync(p.fragments.data(), packed.data(),
                                packed.size() * sizeof(std::uint32_t), cudaMemcpyHostToDevice, stream));
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));  // the copy reads a local vector
  p.chunks = chunks;
  p.template_id = ws.template_id();
}

std::size_t tensor_shared_bytes(int template_width, int template_height) {
  return fused_layout(template_width, template_height, tensor_tile_words(tensor_chunks(template_width)))
      .bytes();
}

/// Launches the kernel compiled for kChunks chunks of K per pass.
template <int kChunks>
void launch_tensor(Workspace& ws, const Output& out, cudaStream_t stream, const FusedLayout& layout) {
  launch_fused(out.sums != nullptr ? corr_tensor_kernel<kChunks, true> : corr_tensor_kernel<kChunks, false>,
               dim3(kTensorThreads), ws, out, stream, layout, ws.tensor.chunks,
               ws.tensor.fragments.data());
}

// [corr8-launch]
/// Variant 8's launcher: the tensor-core kernel, variant 7 below compute capability 8.0 (the
/// capability the code was built for: hb::code_capability()), or variant 5 when the block
/// would need more shared memory than it may have.
Path corr8_tensor(Workspace& ws, const Output& out, cudaStream_t stream) {
  check_output(out);
  if (hb::code_capability() < 80) return corr7_dp4a(ws, out, stream);
  const Template& t = ws.tmpl();
  const int chunks = tensor_chunks(t.width);
  const FusedLayout layout = fused_layout(t.width, t.height, tensor_tile_words(chunks));
  if (layout.bytes() > ws.shared_limit()) return corr5_shared4(ws, out, stream);
  if (ws.tensor.template_id != ws.template_id()) prepare8_tensor(ws, stream);
  switch (chunks) {
    case 1: launch_tensor<1>(ws, out, stream, layout); break;
    case 2: launch_tensor<2>(ws, out, stream, layout); break;
    case 3: launch_tensor<3>(ws, out, stream, layout); break;
    case 4: launch_tensor<4>(ws, out, stream, layout); break;
    default: launch_tensor<1>(ws, out, stream, layout); break;  // one chunk per pass
  }
  return Path::Tensor;
}
// [corr8-launch]

}  // namespace ch15
