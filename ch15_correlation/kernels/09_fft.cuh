/// \file
/// \brief Chapter 15, variant 9: FFT numerator, summed-area tables (15.8, Lewis).
///
/// FFT sizes are the smallest even numbers of the form \f$2^a 3^b 5^c 7^d\f$ at least as large
/// as the padded image, (W + wTemplate - 1) x (H + hTemplate - 1), so that the circular
/// correlation of the FFT never wraps an output's window around.
/* [changed]
Compared with variant 8: a different algorithm, the one the text recommends for further reading
(J. P. Lewis, "Fast Normalized Cross-Correlation"). The numerator's sum SumIT at every output is
a cross-correlation of the whole image with the template, which the convolution theorem turns
into products of Fourier transforms: transform the image (padded to the clamped borders) and the
template (zero-padded) to the same size, multiply one spectrum by the other's complex conjugate,
transform back. The cost no longer depends on the template size, only on the padded image size.
The denominator's sums SumI and SumISq come from summed-area tables (integral images): four
lookups per output.
[changed] */
/* [notes]
We use cuFFT in double precision (D2Z and Z2D). A sum SumIT is at most 65536 x 65025, about 4.3
billion, and the rounding error of a double FFT of a million points is many
orders of magnitude below 0.5, so rounding the result to the nearest integer gives the exact
sum: the FFT route passes the same bit-exact check as the direct kernels. The template's
spectrum depends only on the template and is computed by the preparer; a launch pads the image,
builds the two tables, transforms, multiplies, transforms back and writes the coefficients:
seven kernels or library calls.
[notes] */
#pragma once

#include <cufft.h>

#include <cstdint>
#include <string>

#include "common.h"

namespace ch15 {

/// Throws std::runtime_error naming \p what unless \p r is CUFFT_SUCCESS.
/// \param r a cuFFT result code
/// \param what the call, for the message
inline void check_cufft(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed: cuFFT error " + std::to_string(static_cast<int>(r)));
}

/// The FFT route's template-dependent state.
struct FftState {
  std::uint64_t template_id = 0;  ///< the template it was prepared for
  int fw = 0, fh = 0;             ///< FFT size (columns, rows)
  int pw = 0, ph = 0;             ///< clamp-padded image size
  cufftHandle forward = 0;        ///< D2Z, fh x fw
  cufftHandle inverse = 0;        ///< Z2D, fh x fw
  hb::DeviceBuffer<double> real;  ///< fh x fw: the padded image, then the correlation
  hb::DeviceBuffer<cufftDoubleComplex> spectrum;  ///< fh x (fw / 2 + 1)
  hb::DeviceBuffer<cufftDoubleComplex> templ;     ///< conj(F(template)) / (fw fh)
  hb::DeviceBuffer<unsigned> tables;  ///< two summed-area tables of (ph + 1) x (pw + 1)
  ~FftState() {
    if (forward != 0) (void)cufftDestroy(forward);
    if (inverse != 0) (void)cufftDestroy(inverse);
  }
};

void destroy_fft_state(FftState* state) { delete state; }

// [corr9-pad]
/// The clamp-padded image as doubles: real[v][u] = I(clamp(u + x_off), clamp(v + y_off)) for
/// u < pw and v < ph, 0 elsewhere in the fh x fw array.
__global__ void fft_pad_kernel(double* real, int fw, int fh, int pw, int ph,
                               const std::uint8_t* __restrict__ image, std::size_t pitch, int w,
                               int h, int x_off, int y_off) {
  const std::size_t n = static_cast<std::size_t>(fw) * fh;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const int u = static_cast<int>(i % fw), v = static_cast<int>(i / fw);
    double p = 0.0;
    if (u < pw && v < ph) {
      const int x = min(max(u + x_off, 0), w - 1), y = min(max(v + y_off, 0), h - 1);
      p = image[static_cast<std::size_t>(y) * pitch + x];
    }
    real[i] = p;
  }
}
// [corr9-pad]

// [corr9-tables]
/// First pass of the summed-area tables: one warp per row v of the padded image writes the
/// inclusive prefix sums of P and P^2 along the row into row v + 1 (column 0 is 0). The warp
/// scans 32 pixels at a time with shuffles and carries the total to the next 32.
__global__ void sat_rows_kernel(unsigned* tables, int pw, int ph, const std::uint8_t* __restrict__ image,
                                std::size_t pitch, int w, int h, int x_off, int y_off) {
  const int lane = threadIdx.x & 31;
  const int v = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (v >= ph) return;  // whole warps leave together
  const std::size_t cols = static_cast<std::size_t>(pw) + 1;
  const std::size_t plane = cols * (static_cast<std::size_t>(ph) + 1);
  unsigned* s1 = tables + (static_cast<std::size_t>(v) + 1) * cols;
  unsigned* s2 = s1 + plane;
  const std::uint8_t* row = image + static_cast<std::size_t>(min(max(v + y_off, 0), h - 1)) * pitch;
  if (lane == 0) s1[0] = s2[0] = 0;
  unsigned carry1 = 0, carry2 = 0;
  for (int u0 = 0; u0 < pw; u0 += 32) {
    const int u = u0 + lane;
    const unsigned p = u < pw ? row[min(max(u + x_off, 0), w - 1)] : 0u;
    unsigned a = p, b = p * p;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const unsigned ua = __shfl_up_sync(0xffffffffu, a, d), ub = __shfl_up_sync(0xffffffffu, b, d);
      if (lane >= d) {
        a += ua;
        b += ub;
      }
    }
    if (u < pw) {
      s1[u + 1] = carry1 + a;
      s2[u + 1] = carry2 + b;
    }
    carry1 += __shfl_sync(0xffffffffu, a, 31);
    carry2 += __shfl_sync(0xffffffffu, b, 31);
  }
}

/// Second pass: adds the rows from the top, so that S(u, v) is the sum over [0, u) x [0, v)
/// (row 0 becomes 0). A block of 32 x 32 threads takes 32 columns of one table; each of its
/// 32 rows of threads first adds one segment of rows, the segments' totals are scanned in
/// shared memory, and each thread then rewrites its segment starting from its offset.
/// Unsigned sums wrap around, but the box sums taken from them are exact because each is
/// below 2³².
__global__ void sat_columns_kernel(unsigned* tables, int pw, int ph) {
  __shared__ unsigned totals[32][33];
  const int u = blockIdx.x * 32 + threadIdx.x;
  const std::size_t cols = static_cast<std::size_t>(pw) + 1;
  unsigned* s = tables + blockIdx.y * cols * (static_cast<std::size_t>(ph) + 1) + u;
  const int segment = (ph + 31) / 32;
  const int v0 = 1 + static_cast<int>(threadIdx.y) * segment;
  const int v1 = min(ph + 1, v0 + segment);
  unsigned sum = 0;
  if (u <= pw)
    for (int v = v0; v < v1; ++v) sum += s[v * cols];
  totals[threadIdx.y][threadIdx.x] = sum;
  __syncthreads();
  unsigned running = 0;
  for (int k = 0; k < static_cast<int>(threadIdx.y); ++k) running += totals[k][threadIdx.x];
  if (u <= pw) {
    if (threadIdx.y == 0) s[0] = 0;
    for (int v = v0; v < v1; ++v) {
      running += s[v * cols];
      s[v * cols] = running;
    }
  }
}
// [corr9-tables]

// [corr9-multiply]
/// spectrum[i] *= templ[i]: the image's spectrum times the template's conjugate spectrum
/// (already scaled by 1 / (fw fh), the factor cuFFT's inverse leaves out).
__global__ void fft_multiply_kernel(cufftDoubleComplex* spectrum, const cufftDoubleComplex* __restrict__ templ,
                                    std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const cufftDoubleComplex a = spectrum[i], b = templ[i];
    spectrum[i] = make_cuDoubleComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
  }
}
// [corr9-multiply]

/// The template's spectrum, conjugated and scaled: templ[i] = conj(spectrum[i]) * scale.
/// \param templ the output
/// \param spectrum the template's spectrum
/// \param n complex elements
/// \param scale 1 / (fw fh)
__global__ void fft_conjugate_kernel(cufftDoubleComplex* templ, const cufftDoubleComplex* __restrict__ spectrum,
                                     std::size_t n, double scale) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    templ[i] = make_cuDoubleComplex(spectrum[i].x * scale, -spectrum[i].y * scale);
}

// [corr9-finish]
/// The coefficients: ΣIT is the correlation rounded to the nearest integer, the
/// other two sums are box sums of the summed-area tables.
template <bool kSums>
__global__ void fft_finish_kernel(Output out, const double* __restrict__ correlation, int fw,
                                  const unsigned* __restrict__ tables, int pw, int ph, int w, int h,
                                  int w_t, int h_t, DeviceTemplate t) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const std::size_t cols = static_cast<std::size_t>(pw) + 1;
  const std::size_t plane = cols * (static_cast<std::size_t>(ph) + 1);
  const auto box = [&](const unsigned* s) {
    return s[(y + h_t) * cols + x + w_t] - s[y * cols + x + w_t] - s[(y + h_t) * cols + x] + s[y * cols + x];
  };
  const double c = rint(correlation[static_cast<std::size_t>(y) * fw + x]);
  const unsigned sum_it = c <= 0.0 ? 0u : c >= 4294967295.0 ? 0xffffffffu : static_cast<unsigned>(c);
  store_result<kSums>(out, static_cast<std::size_t>(y) * w + x, box(tables), box(tables + plane), sum_it, t);
}
// [corr9-finish]

/// Grid size of the element-wise kernels: enough blocks of 256 threads for \p n elements,
/// at most 4096 (they stride over the rest).
/// \param n elements
inline int elementwise_blocks(std::size_t n) {
  const std::size_t b = (n + 255) / 256;
  return b > 4096 ? 4096 : static_cast<int>(b < 1 ? 1 : b);
}

/// Variant 9's preparation: FFT size and plans, buffers, and the template's conjugate
/// spectrum.
/// \param ws the workspace whose template to transform
/// \param stream the stream
void prepare9_fft(Workspace& ws, cudaStream_t stream) {
  const Template& t = ws.tmpl();
  const int pw = ws.width() + t.width - 1, ph = ws.height() + t.height - 1;
  const int fw = good_fft_size(pw), fh = good_fft_size(ph);
  FftState* s = ws.fft.get();
  if (s == nullptr || s->fw != fw || s->fh != fh) {
    ws.fft.reset();  // frees the old plans before making new ones
    ws.fft.reset(new FftState);
    s = ws.fft.get();
    s->fw = fw;
    s->fh = fh;
    check_cufft(cufftPlan2d(&s->forward, fh, fw, CUFFT_D2Z), "cufftPlan2d(D2Z)");
    check_cufft(cufftPlan2d(&s->inverse, fh, fw, CUFFT_Z2D), "cufftPlan2d(Z2D)");
    const std::size_t n = static_cast<std::size_t>(fh) * fw;
    const std::size_t nc = static_cast<std::size_t>(fh) * (fw / 2 + 1);
    s->real = hb::DeviceBuffer<double>(n);
    s->spectrum = hb::DeviceBuffer<cufftDoubleComplex>(nc);
    s->templ = hb::DeviceBuffer<cufftDoubleComplex>(nc);
  }
  if (s->pw != pw || s->ph != ph) {
    s->pw = pw;
    s->ph = ph;
    s->tables = hb::DeviceBuffer<unsigned>(2 * (static_cast<std::size_t>(pw) + 1) * (ph + 1));
  }
  // The template, zero-padded to the FFT size, and its spectrum.
  std::vector<double> pixels(t.pixels.begin(), t.pixels.end());
  HB_CUDA_CHECK(cudaMemsetAsync(s->real.data(), 0, s->real.bytes(), stream));
  HB_CUDA_CHECK(cudaMemcpy2DAsync(s->real.data(), static_cast<std::size_t>(fw) * sizeof(double),
                                  pixels.data(), static_cast<std::size_t>(t.width) * sizeof(double),
                                  static_cast<std::size_t>(t.width) * sizeof(double),
                                  static_cast<std::size_t>(t.height), cudaMemcpyHostToDevice, stream));
  check_cufft(cufftSetStream(s->forward, stream), "cufftSetStream");
  check_cufft(cufftExecD2Z(s->forward, s->real.data(), s->spectrum.data()), "cufftExecD2Z(template)");
  const std::size_t nc = s->spectrum.size();
  fft_conjugate_kernel<<<elementwise_blocks(nc), 256, 0, stream>>>(
      s->templ.data(), s->spectrum.data(), nc, 1.0 / (static_cast<double>(fw) * fh));
  HB_CHECK_LAUNCH();
  // The copy above reads pageable memory, which cudaMemcpy2DAsync stages before it returns;
  // waiting here keeps the host vector alive for no longer than needed either way.
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
  s->template_id = ws.template_id();
}

// [corr9-launch]
/// Variant 9's launcher: pad, tables, forward FFT, multiply, inverse FFT, coefficients.
Path corr9_fft(Workspace& ws, const Output& out, cudaStream_t stream) {
  check_output(out);
  const Template& t = ws.tmpl();
  if (ws.fft == nullptr || ws.fft->template_id != ws.template_id()) prepare9_fft(ws, stream);
  FftState& s = *ws.fft;
  const int x_off = window_x_offset(t.width), y_off = window_y_offset(t.height);
  const std::size_t n = s.real.size();
  fft_pad_kernel<<<elementwise_blocks(n), 256, 0, stream>>>(s.real.data(), s.fw, s.fh, s.pw, s.ph,
                                                            ws.image_rows(), ws.image_pitch(),
                                                            ws.width(), ws.height(), x_off, y_off);
  HB_CHECK_LAUNCH();
  sat_rows_kernel<<<ceil_div(s.ph * 32, 256), 256, 0, stream>>>(s.tables.data(), s.pw, s.ph, ws.image_rows(),
                                                              ws.image_pitch(), ws.width(), ws.height(),
                                                              x_off, y_off);
  HB_CHECK_LAUNCH();
  sat_columns_kernel<<<dim3(ceil_div(s.pw + 1, 32), 2), dim3(32, 32), 0, stream>>>(s.tables.data(), s.pw, s.ph);
  HB_CHECK_LAUNCH();
  check_cufft(cufftSetStream(s.forward, stream), "cufftSetStream");
  check_cufft(cufftSetStream(s.inverse, stream), "cufftSetStream");
  check_cufft(cufftExecD2Z(s.forward, s.real.data(), s.spectrum.data()), "cufftExecD2Z(image)");
  fft_multiply_kernel<<<elementwise_blocks(s.spectrum.size()), 256, 0, stream>>>(
      s.spectrum.data(), s.templ.data(), s.spectrum.size());
  HB_CHECK_LAUNCH();
  check_cufft(cufftExecZ2D(s.inverse, s.spectrum.data(), s.real.data()), "cufftExecZ2D");
  const dim3 threads(32, 8);
  const dim3 blocks(ceil_div(ws.width(), 32), ceil_div(ws.height(), 8));
  const DeviceTemplate dt = device_template(t.stats);
  if (out.sums != nullptr) {
    fft_finish_kernel<true><<<blocks, threads, 0, stream>>>(out, s.real.data(), s.fw, s.tables.data(), s.pw,
                                                           s.ph, ws.width(), ws.height(), t.width, t.height, dt);
  } else {
    fft_finish_kernel<false><<<blocks, threads, 0, stream>>>(out, s.real.data(), s.fw, s.tables.data(), s.pw,
                                                            s.ph, ws.width(), ws.height(), t.width, t.height, dt);
  }
  HB_CHECK_LAUNCH();
  return Path::Fft;
}
// [corr9-launch]

}  // namespace ch15
