// The variant table. Each row's "changed" paragraph is also the first paragraph of the
// row's header file and of its section in README.md; a CPU test checks that the three agree.
#include "correlation_variants.h"

#include "correlation_launchers.h"
#include "hb/capability.h"
#include "hb/error.h"

namespace ch15 {

std::string Variant::program() const { return std::string("corr_") + name; }

std::string Variant::header() const {
  if (is_cpu()) return "correlation_cpu.h";
  return std::string("corr") + id + "_" + name + ".cuh";
}

Path Variant::path_here() const {
  return hb::form_here(needs) == hb::Form::Headline ? path : path_below;
}

const std::vector<Variant>& variants() {
  // clang-format off
  static const std::vector<Variant> table = {
    {"0", "cpu", "CPU reference: exact 64-bit sums, coefficient in double (15.1)",
     "Variant 0 is the reference: the CPU computes the three sums of every output "
     "pixel directly, one template pixel at a time, as 64-bit integers, and the "
     "coefficient in double from them and the template's statistics, which it "
     "computes once (section 15.1). Every GPU variant is checked against it: the "
     "sums bit for bit, the coefficients within kCoefficientTolerance. Its rate is "
     "the \"x CPU\" column's reference (all hardware threads).",
     nullptr, nullptr, Path::Cpu},
    {"1", "tex_tex", "image and template in textures (listings 15.1, 15.2)",
     "Compared with variant 0: the GPU computes every coefficient, one thread per "
     "output pixel (listings 15.1 and 15.2). Both the image and the template are "
     "read through the texture unit, which also handles the image's edges: fetches "
     "outside the image return the nearest edge pixel. The kernel is naive on "
     "purpose: each thread computes all five sums, including the template's own SumT "
     "and SumTSq, which are the same for every thread.",
     corr1_tex_tex, prepare_nothing, Path::TexTex},
    {"2", "tex_constant", "template in constant memory (listings 15.3, 15.4)",
     "Compared with variant 1: the template moves to `__constant__` memory and its "
     "statistics are computed once, on the host (listings 15.3 and 15.4). Every "
     "thread of a warp reads the same template pixel at the same time, which is "
     "exactly the access the constant cache broadcasts in one transaction; the "
     "kernel computes three sums instead of five. The image still comes through the "
     "texture unit.",
     corr2_tex_constant, prepare_constant_template, Path::TexConstant},
    {"3", "shared", "image tile in shared memory (listings 15.5, 15.6)",
     "Compared with variant 2: a block first copies the image pixels it needs into "
     "shared memory and then computes its coefficients from there (listings 15.5 and "
     "15.6). The outputs of a block form a tile of wTile x blockDim.y pixels (32 x "
     "8); the block over-fetches the tile plus an apron of (wTemplate - 1) x "
     "(hTemplate - 1) pixels through the texture, which still handles the image "
     "edges, waits at a barrier, and then every thread reads its window from shared "
     "memory, where neighbouring windows overlap.",
     corr3_shared, prepare_constant_template, Path::Shared},
    {"4", "shared_umul24", "24-bit multiplies, the SM 1.x path (15.5.1)",
     "Compared with variant 3: the two multiplications of the inner loop use the "
     "24-bit multiplier, `__umul24()` (section 15.5.1). SM 1.x GPUs had a fast "
     "24-bit multiplier and a slow 32-bit one, and the compiler did not find on its "
     "own that the 8-bit operands would fit, so the book passed a template parameter "
     "bSM1 and launched the 24-bit kernel on SM 1.x only. Every GPU since SM 2.x has "
     "a 32-bit integer multiplier and no fast 24-bit one (the programming guide "
     "lists `__umul24()` as \"multiple instructions\"), so the book's device check "
     "would always pick the 32-bit path there; this variant forces the 24-bit path, "
     "so that the table measures what it costs today.",
     corr4_shared_umul24, prepare_constant_template, Path::SharedUmul24},
    {"5", "shared4", "inner loop unrolled by 4 (15.5.2)",
     "Compared with variant 4: back to 32-bit multiplies, and the inner loop is "
     "unrolled by four (section 15.5.2): four calls of corrSharedAccumulate() per "
     "iteration, then the remaining zero to three pixels of the row one at a time "
     "(the book's loop ran to wTemplate/4 and left them out). The text's motive was "
     "the four-way bank conflicts of byte reads on SM 1.x; on every later GPU the "
     "unrolled loop was still faster, because it spends fewer instructions on loop "
     "control and addresses per pixel.",
     corr5_shared4, prepare_constant_template, Path::Shared4},
    {"6", "shared_fixed", "template size known at compile time (15.7)",
     "Compared with variant 5: the template's width and height become template "
     "parameters of the kernel (section 15.7), so the compiler knows every loop "
     "bound: it unrolls each row of the template completely (small templates "
     "entirely), computes the shared-memory and constant-memory offsets at compile "
     "time, and keeps fewer loop counters. The book specialized 8 x 8; we compile 8 "
     "x 8, 16 x 16 and the default 52 x 52. Any other size runs variant 5's kernel "
     "(the result says so).",
     corr6_shared_fixed, prepare_constant_template, Path::SharedFixed},
    {"7", "dp4a", "packed byte dot products, box sums (beyond the text)",
     "Compared with variant 6: two changes beyond the text. First, \\f$\\sum I\\f$ and "
     "\\f$\\sum I^2\\f$ do not involve the template, so they leave the inner loop: the "
     "block computes them as box sums in shared memory (a few additions per output, "
     "whatever the template size; see corr_fused.cuh). Second, the inner loop "
     "multiplies four pixels at once: `__dp4a(a, b, c)` adds the four products of "
     "the bytes of a and b to c in one instruction. The image tile is stored as "
     "4-byte words; each thread computes four adjacent outputs, at shifts 0 to 3 "
     "within a word, in 8 rows. The bytes of an output at shift s are not aligned "
     "with the image words, so instead of shifting the image we keep four copies of "
     "the template, shifted by 0 to 3 bytes and packed into words "
     "(corr_fragments.h): every image word is then multiplied, as it is, with the "
     "four template words of the same position. The number of words per template row "
     "(NQ) is a template parameter of the kernel, so the template words of a row "
     "stay in registers and serve all eight rows; wider templates are covered in "
     "bands of 16 words.",
     corr7_dp4a, prepare7_dp4a, Path::Dp4a},
    {"8", "tensor", "8-bit tensor cores, box sums (beyond the text)",
     "Compared with variant 7: the products run on the tensor cores. For one "
     "template row j, the contributions to 128 adjacent outputs of one row form a "
     "matrix product: with x = 8 m + n (m = 0..15, n = 0..7), output x needs "
     "\\f$\\sum_k A[m][k]\\,B[k][n]\\f$ where A[m][k] = image pixel 8 m + k of the row "
     "(a Hankel matrix: each row is the previous one moved by 8 pixels) and B[k][n] "
     "= T[j][k - n] (a Toeplitz matrix of the template row, zero outside it). That "
     "is one `mma.sync.m16n8k32` with unsigned 8-bit operands and 32-bit sums per 32 "
     "columns of k: 4096 multiply-adds in one warp instruction, against 128 per warp "
     "instruction for `__dp4a`. Each A register is one aligned word of the image "
     "tile, read straight from shared memory; the B fragments are packed once per "
     "template (corr_fragments.h) and read through the L1 cache. A warp computes 8 "
     "rows of 128 outputs; it walks the image rows once and uses each A fragment for "
     "all of its rows that the image row contributes to. \\f$\\sum I\\f$ and \\f$\\sum "
     "I^2\\f$ are box sums, as in variant 7.",
     corr8_tensor, prepare8_tensor, Path::Tensor,
     {80, "variant 7's byte dot products (__dp4a): no 8-bit mma.sync before 8.0"}, Path::Dp4a},
    {"9", "fft", "FFT numerator, summed-area tables (15.8, Lewis)",
     "Compared with variant 8: a different algorithm, the one the text recommends "
     "for further reading (J. P. Lewis, \"Fast Normalized Cross-Correlation\"). The "
     "numerator's sum \\f$\\sum IT\\f$ at every output is a cross-correlation of the "
     "whole image with the template, which the convolution theorem turns into "
     "products of Fourier transforms: transform the image (padded to the clamped "
     "borders) and the template (zero-padded) to the same size, multiply one "
     "spectrum by the other's complex conjugate, transform back. The cost no longer "
     "depends on the template size, only on the padded image size. The denominator's "
     "sums \\f$\\sum I\\f$ and \\f$\\sum I^2\\f$ come from summed-area tables (integral "
     "images): four lookups per output.",
     corr9_fft, prepare9_fft, Path::Fft},
  };
  // clang-format on
  return table;
}

// The id is a string_view, not a const std::string&: GCC 13 warns (-Wdangling-reference)
// when a function returning a reference is called with a temporary std::string.
const Variant& find_variant(std::string_view id) {
  for (const auto& v : variants())
    if (id == v.id) return v;
  throw hb::UsageError("--variant " + std::string(id) + ": no such variant (valid: " +
                       variant_ids() + ")");
}

std::string variant_ids() {
  std::string s;
  for (const auto& v : variants()) s += (s.empty() ? "" : ", ") + std::string(v.id);
  return s;
}

}  // namespace ch15
