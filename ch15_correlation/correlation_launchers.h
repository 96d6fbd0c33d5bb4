/// \file
/// \brief Declarations of every launcher and preparer of chapter 15. The definitions live
///        in the numbered headers (corr1_tex_tex.cuh ...), compiled once into the chapter's
///        static library; programs and tests need only these declarations.
#pragma once

#include <cstddef>
#include <vector>

#include "correlation.h"
#include "correlation_launch.h"

namespace ch15 {

// The launchers of the variant table (signature: ch15::Launcher) and their preparers
// (ch15::Preparer).
Path corr1_tex_tex(Workspace& ws, const Output& out, cudaStream_t stream);
Path corr2_tex_constant(Workspace& ws, const Output& out, cudaStream_t stream);
Path corr3_shared(Workspace& ws, const Output& out, cudaStream_t stream);
Path corr4_shared_umul24(Workspace& ws, const Output& out, cudaStream_t stream);
Path corr5_shared4(Workspace& ws, const Output& out, cudaStream_t stream);
Path corr6_shared_fixed(Workspace& ws, const Output& out, cudaStream_t stream);
Path corr7_dp4a(Workspace& ws, const Output& out, cudaStream_t stream);
Path corr8_tensor(Workspace& ws, const Output& out, cudaStream_t stream);
Path corr9_fft(Workspace& ws, const Output& out, cudaStream_t stream);

void prepare_nothing(Workspace& ws, cudaStream_t stream);
void prepare_constant_template(Workspace& ws, cudaStream_t stream);
void prepare7_dp4a(Workspace& ws, cudaStream_t stream);
void prepare8_tensor(Workspace& ws, cudaStream_t stream);
void prepare9_fft(Workspace& ws, cudaStream_t stream);

/// Bytes of `__constant__` memory that hold the template of variants 2 to 6 (listing 15.3's
/// g_Tpix): 64 KB less a little for the other constants of the translation unit. Larger
/// templates make those variants fall back to variant 1.
constexpr std::size_t kConstantTemplateBytes = 65280;

/// Whether \p t fits the constant memory of variants 2 to 6.
/// \param t the template
inline bool fits_constant_memory(const Template& t) { return t.pixels.size() <= kConstantTemplateBytes; }

/// The template sizes variant 6 is compiled for (section 15.7); other sizes run variant 5.
struct FixedSize {
  int width;   ///< template width
  int height;  ///< template height
};
/// Every size variant 6 has a kernel for.
const std::vector<FixedSize>& fixed_template_sizes();

/// Dynamic shared memory of the book's shared-memory kernels (variants 3 to 6) for a
/// template of \p template_width x \p template_height: rows of wTile + wTemplate - 1 bytes
/// rounded up to 64 (SharedPitch), blockDim.y + hTemplate - 1 of them.
/// \param template_width template width
/// \param template_height template height
std::size_t book_shared_bytes(int template_width, int template_height);

/// Dynamic shared memory of variant 7's kernel (the image tile and the box sums).
/// \param template_width template width
/// \param template_height template height
std::size_t dp4a_shared_bytes(int template_width, int template_height);

/// Dynamic shared memory of variant 8's kernel (the image tile and the box sums).
/// \param template_width template width
/// \param template_height template height
std::size_t tensor_shared_bytes(int template_width, int template_height);

/// The smallest even \f$m \ge n\f$ whose only prime factors are 2, 3, 5 and 7: the FFT
/// sizes of variant 9 (cuFFT transforms such sizes fastest).
/// \param n the least size, >= 1
inline int good_fft_size(int n) {
  for (int m = n < 2 ? 2 : n;; ++m) {
    if (m % 2 != 0) continue;
    int r = m;
    for (int p : {2, 3, 5, 7})
      while (r % p == 0) r /= p;
    if (r == 1) return m;
  }
}

/// Finds the peak of \p count coefficients on the GPU (atomicMax over packed keys): the
/// largest value, ties to the lowest index, NaN never. \p scratch is one 64-bit word of
/// device memory. Synchronizes \p stream to return the result.
/// \param coefficients device array, row-major
/// \param width columns (for the position)
/// \param count number of coefficients (below 2^32)
/// \param scratch one device word the search uses
/// \param stream the stream
Peak gpu_peak(const float* coefficients, int width, std::size_t count,
              unsigned long long* scratch, cudaStream_t stream);

}  // namespace ch15
