// Chapter 15 GPU tests: every variant's sums twin bit for bit against the CPU and its
// coefficients within kCoefficientTolerance, on random images with our target's template
// sizes touching every edge, templates wider than a warp, the shared-memory and
// constant-memory fallbacks, the FFT route, template changes, and peak finding.
//
// Under compute-sanitizer (HB_UNDER_SANITIZER=1) the images are smaller and the largest
// cases are left out, but every variant and every kind of case still runs. Outputs are
// poisoned before every launch (Bench::run), so an output a kernel forgets to write fails.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "correlation.h"
#include "hb/capability.h"
#include "hb/coin_scene.h"
#include "hb/device.h"
#include "hb/memory.h"
#include "hb/random.h"
#include "hb/testing.h"

namespace {

using ch15::Path;
using ch15::Template;

hb::GrayImage random_image(int w, int h, std::uint64_t seed) {
  hb::GrayImage img;
  img.width = w;
  img.height = h;
  img.pixels.resize(static_cast<std::size_t>(w) * h);
  for (std::size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = static_cast<std::uint8_t>(hb::hash64(seed, i) >> 56);
  return img;
}

Template random_template(int w, int h, std::uint64_t seed) {
  std::vector<std::uint8_t> p(static_cast<std::size_t>(w) * h);
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<std::uint8_t>(hb::hash64(seed, i) >> 56);
  return ch15::make_template(std::move(p), w, h);
}

// A template at (x, y) of the image; 1 x 1 templates are flat, so they are made directly.
Template template_at(const hb::GrayImage& img, int x, int y, int w, int h) {
  if (w * h == 1) {
    Template t = ch15::make_template({img.at(x, y)}, 1, 1);
    t.x = x;
    t.y = y;
    return t;
  }
  return ch15::cut_template(img, x, y, w, h);
}

// Runs every GPU variant with \p t and checks its sums and coefficients against the CPU;
// returns the paths the variants took, in table order (variant 0 excluded).
std::vector<Path> check_every_variant(ch15::Bench& bench, const hb::GrayImage& img, const Template& t,
                                      const std::string& what) {
  const ch15::Reference ref = ch15::compute_reference(img, t);
  bench.set_template(t);
  std::vector<Path> paths;
  for (const auto& v : ch15::variants()) {
    if (v.is_cpu()) continue;
    const ch15::Measurement m = bench.run(v, 0, &ref);
    INFO(what << ": variant " << v.id << " (" << v.name << "), path " << ch15::to_string(m.path) << ": "
              << m.failure);
    CHECK(m.sums_exact);
    CHECK(m.coefficients_ok);
    paths.push_back(m.path);
  }
  return paths;
}

// The paths of variants 1 to 9, whose fallbacks the tests below spell out; later variants are
// checked for exactness by check_every_variant() alone.
std::vector<Path> first_nine(const std::vector<Path>& paths) {
  return {paths.begin(), paths.begin() + std::min<std::size_t>(9, paths.size())};
}

std::string describe(const hb::GrayImage& img, const Template& t) {
  return "image " + std::to_string(img.width) + " x " + std::to_string(img.height) + ", template " +
         std::to_string(t.width) + " x " + std::to_string(t.height) + " at (" + std::to_string(t.x) + ", " +
         std::to_string(t.y) + ")";
}

}  // namespace

TEST_CASE("every variant is bit exact on random images with our target's template sizes touching every edge", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed << " (replay with HB_TEST_SEED)");
  const bool small = hb::under_sanitizer();
  struct Size {
    int w, h;
  };
  std::vector<Size> images = small ? std::vector<Size>{{60, 56}} : std::vector<Size>{{131, 97}, {257, 70}};
  std::vector<Size> templates = {{1, 1}, {3, 5}, {8, 8}, {15, 17}, {16, 16}, {52, 52}};
  if (!small) templates.push_back({64, 64});
  for (const Size is : images) {
    const hb::GrayImage img = random_image(is.w, is.h, seed + is.w);
    ch15::Bench bench(img);
    for (const Size ts : templates) {
      if (ts.w > img.width || ts.h > img.height) continue;
      std::vector<std::pair<int, int>> at = {{0, 0}, {img.width - ts.w, img.height - ts.h}};
      if (!small) {
        at.push_back({img.width - ts.w, 0});
        at.push_back({0, img.height - ts.h});
        at.push_back({(img.width - ts.w) / 2, (img.height - ts.h) / 2});
      }
      for (auto [x, y] : at) {
        const Template t = template_at(img, x, y, ts.w, ts.h);
        check_every_variant(bench, img, t, describe(img, t));
      }
    }
  }
}

// [large]: scripts/run_sanitizer.sh leaves this test out (16.8 million outputs per launch are
// too slow under the sanitizer), so the sanitizer run lists it as not run rather than passed.
TEST_CASE("every variant is bit exact on an image of more than 2^24 pixels", "[gpu][large]") {
  hb::select_device(0);
  // 4100 x 4099 pixels: grids of hundreds of blocks in y, indices beyond 2^24, and sizes
  // that are multiples of no tile.
  const hb::GrayImage img = random_image(4100, 4099, hb::test_seed() + 9);
  ch15::Bench bench(img);
  const Template t = ch15::cut_template(img, 4100 - 9, 2000, 9, 7);
  check_every_variant(bench, img, t, describe(img, t));
}

TEST_CASE("templates wider than a warp and of odd sizes are bit exact", "[gpu]") {
  hb::select_device(0);
  const bool small = hb::under_sanitizer();
  const hb::GrayImage img = random_image(small ? 160 : 300, small ? 40 : 80, hb::test_seed() + 1);
  ch15::Bench bench(img);
  struct Size {
    int w, h;
  };
  std::vector<Size> sizes = {{33, 7}, {40, 3}, {97, 5}, {130, 9}};
  if (!small) sizes.push_back({250, 2});
  for (const Size s : sizes) {
    const Template t = ch15::cut_template(img, (img.width - s.w) / 2, (img.height - s.h) / 3, s.w, s.h);
    check_every_variant(bench, img, t, describe(img, t));
  }
  // A template that is not cut from the image (random pixels) matches nowhere exactly.
  const Template r = random_template(37, 11, 99);
  check_every_variant(bench, img, r, "random 37 x 11 template");
}

TEST_CASE("the shared-memory fallbacks give the same results and report the path taken", "[gpu]") {
  hb::select_device(0);
  const hb::GrayImage img = random_image(90, 70, hb::test_seed() + 2);
  ch15::Bench bench(img);
  const Template t = ch15::cut_template(img, 20, 30, 16, 16);
  ch15::Workspace& ws = bench.workspace();

  // With 1 KB per block nothing but the texture kernels and the FFT can run.
  ws.set_shared_limit(1024);
  std::vector<Path> paths = check_every_variant(bench, img, t, "shared limit 1 KB");
  CHECK(first_nine(paths) == std::vector<Path>{Path::TexTex, Path::TexConstant, Path::TexTex, Path::TexTex, Path::TexTex,
                                   Path::TexTex, Path::TexTex, Path::TexTex, Path::Fft});
  // With 4 KB the book's kernels fit (1472 bytes), the fused tiles of variants 7 and 8 do not.
  ws.set_shared_limit(4096);
  paths = check_every_variant(bench, img, t, "shared limit 4 KB");
  CHECK(first_nine(paths) == std::vector<Path>{Path::TexTex, Path::TexConstant, Path::Shared, Path::SharedUmul24,
                                   Path::Shared4, Path::SharedFixed, Path::Shared4, Path::Shared4, Path::Fft});
  ws.set_shared_limit(ws.device_shared_limit());
  paths = check_every_variant(bench, img, t, "the device's limit");
  // Variant 8 runs on the tensor cores from compute capability 8.0 on, else variant 7's path.
  const Path tensor_here = ch15::find_variant("8").path_here();
  CHECK(first_nine(paths) == std::vector<Path>{Path::TexTex, Path::TexConstant, Path::Shared, Path::SharedUmul24,
                                   Path::Shared4, Path::SharedFixed, Path::Dp4a, tensor_here, Path::Fft});

  if (!hb::under_sanitizer()) {
    // A real fallback: a 1000-pixel-wide template needs more shared memory for the fused
    // tiles than any block may have; the book's tile still fits (opting in above 48 KB).
    const hb::GrayImage wide = random_image(1100, 40, hb::test_seed() + 3);
    ch15::Bench wide_bench(wide);
    const Template w = ch15::cut_template(wide, 50, 12, 1000, 16);
    paths = check_every_variant(wide_bench, wide, w, describe(wide, w));
    CHECK(paths[6] == Path::Shared4);
    CHECK(paths[7] == Path::Shared4);
  }
}

// [large]: left out of the sanitizer runs (65,000-pixel templates over 70,000 outputs are too
// slow there); see scripts/run_sanitizer.sh.
TEST_CASE("templates at the constant-memory limit use constant memory and larger ones fall back", "[gpu][large]") {
  hb::select_device(0);
  const hb::GrayImage img = random_image(1030, 70, hb::test_seed() + 4);
  ch15::Bench bench(img);
  const Template full = ch15::cut_template(img, 5, 3, 1020, 64);  // exactly kConstantTemplateBytes
  REQUIRE(full.pixels.size() == ch15::kConstantTemplateBytes);
  std::vector<Path> paths = check_every_variant(bench, img, full, describe(img, full));
  CHECK(paths[1] == Path::TexConstant);
  // Variant 5's image tile for this template needs more shared memory than some GPUs grant a
  // block (a Turing GPU: 64 KiB); there it falls back to variant 1, which is just as exact.
  const bool tile_fits = ch15::book_shared_bytes(full.width, full.height) <= hb::shared_per_block_limit();
  INFO("variant 5's tile: " << ch15::book_shared_bytes(full.width, full.height) << " bytes, "
                            << hb::shared_per_block_limit() << " per block here");
  CHECK(paths[4] == (tile_fits ? Path::Shared4 : Path::TexTex));

  const hb::GrayImage tall = random_image(700, 100, hb::test_seed() + 5);
  ch15::Bench tall_bench(tall);
  const Template over = ch15::cut_template(tall, 10, 1, 673, 97);  // one byte more
  REQUIRE(over.pixels.size() == ch15::kConstantTemplateBytes + 1);
  paths = check_every_variant(tall_bench, tall, over, describe(tall, over));
  for (int i = 1; i <= 5; ++i) CHECK(paths[i] == Path::TexTex);
}

TEST_CASE("the FFT route agrees with the CPU exactly for small and large templates", "[gpu]") {
  hb::select_device(0);
  const bool small = hb::under_sanitizer();
  const hb::CoinScene scene = hb::make_coin_scene();
  const hb::GrayImage img = small ? scene.image : ch15::pad_image(scene.image, 512, 400, 7);
  ch15::Bench bench(img);
  const ch15::Variant& fft = ch15::find_variant("9");
  const ch15::Variant& tensor = ch15::find_variant("8");
  struct Size {
    int w, h;
  };
  std::vector<Size> sizes = {{8, 8}, {52, 52}, {101, 60}};
  if (!small) sizes.push_back({256, 256});
  for (const Size s : sizes) {
    const int x = std::clamp(236 - s.w / 2, 0, img.width - s.w), y = std::clamp(174 - s.h / 2, 0, img.height - s.h);
    const Template t = ch15::cut_template(img, x, y, s.w, s.h);
    INFO(describe(img, t));
    const ch15::Reference ref = ch15::compute_reference(img, t);
    bench.set_template(t);
    const ch15::Measurement f = bench.run(fft, 0, &ref);
    INFO(f.failure);
    CHECK(f.path == Path::Fft);
    CHECK(f.sums_exact);
    CHECK(f.coefficients_ok);
    const std::vector<float> from_fft = bench.coefficients();
    const ch15::Measurement d = bench.run(tensor, 0, &ref);
    CHECK(d.ok());
    const std::vector<float>& direct = bench.coefficients();
    double worst = 0;
    for (std::size_t i = 0; i < direct.size(); ++i) worst = std::max(worst, std::fabs(double(direct[i]) - from_fft[i]));
    CHECK(worst <= 2 * ch15::kCoefficientTolerance);
    CHECK(f.peak.x == x + s.w / 2);
    CHECK(f.peak.y == y + s.h / 2);
  }
}

TEST_CASE("the matcher finds a template cut from a random image at its true position", "[gpu]") {
  hb::select_device(0);
  const bool small = hb::under_sanitizer();
  const std::uint64_t seed = hb::test_seed() + 6;
  INFO("seed " << seed);
  const hb::GrayImage img = random_image(small ? 96 : 400, small ? 80 : 300, seed);
  const int w = 40, h = 30;
  const int x = static_cast<int>(hb::uniform_int(seed, 1, 0, img.width - w));
  const int y = static_cast<int>(hb::uniform_int(seed, 2, 0, img.height - h));
  const Template t = ch15::cut_template(img, x, y, w, h);
  const ch15::Reference ref = ch15::compute_reference(img, t);
  ch15::Bench bench(img);
  bench.set_template(t);
  for (const auto& v : ch15::variants()) {
    if (v.is_cpu()) continue;
    INFO("variant " << v.id << ", template at (" << x << ", " << y << ")");
    const ch15::Measurement m = bench.run(v, 0, &ref);
    CHECK(m.ok());
    CHECK(m.peak.x == x + w / 2);
    CHECK(m.peak.y == y + h / 2);
    CHECK(m.peak.value == Approx(1.0).margin(1e-5));
  }
}

TEST_CASE("the matcher finds a template planted in a random image", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed() + 7;
  hb::GrayImage img = random_image(hb::under_sanitizer() ? 100 : 333, hb::under_sanitizer() ? 90 : 251, seed);
  const Template t = random_template(24, 24, seed + 1);
  const int px = 17, py = img.height - 24 - 5;
  for (int j = 0; j < 24; ++j)
    for (int i = 0; i < 24; ++i) img.pixels[static_cast<std::size_t>(py + j) * img.width + px + i] = t.at(i, j);
  const ch15::Reference ref = ch15::compute_reference(img, t);
  CHECK(ref.peak.x == px + 12);
  CHECK(ref.peak.y == py + 12);
  ch15::Bench bench(img);
  bench.set_template(t);
  for (const auto& v : ch15::variants()) {
    if (v.is_cpu()) continue;
    INFO("variant " << v.id);
    const ch15::Measurement m = bench.run(v, 0, &ref);
    CHECK(m.ok());
    CHECK(m.peak.x == px + 12);
    CHECK(m.peak.y == py + 12);
  }
}

TEST_CASE("the GPU peak finder returns the first largest value and ignores NaN", "[gpu]") {
  hb::select_device(0);
  hb::Stream stream;
  hb::DeviceBuffer<unsigned long long> scratch(1);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto peak_of = [&](const std::vector<float>& host, int width) {
    hb::DeviceBuffer<float> d(host.size());
    HB_CUDA_CHECK(cudaMemcpy(d.data(), host.data(), d.bytes(), cudaMemcpyHostToDevice));
    HB_CUDA_CHECK(cudaDeviceSynchronize());  // the search runs in a non-blocking stream
    return ch15::gpu_peak(d.data(), width, host.size(), scratch.data(), stream);
  };
  ch15::Peak p = peak_of({-3.0f, -1.0f, -2.0f}, 3);
  CHECK(p.x == 1);
  CHECK(p.value == -1.0f);
  p = peak_of({0.5f, 0.9f, nan, 0.9f, 0.1f, -0.0f}, 2);
  CHECK(p.x == 1);
  CHECK(p.y == 0);
  p = peak_of({nan, nan}, 2);
  CHECK(p.x == -1);
  p = peak_of({-0.0f, 0.0f}, 2);
  CHECK(p.x == 1);  // +0 sorts above -0 in the key
  const std::size_t n = hb::under_sanitizer() ? (1u << 16) : (1u << 22) + 3;
  std::vector<float> big(n);
  for (std::size_t i = 0; i < n; ++i) big[i] = hb::uniform_float(5, i, -1.0f, 1.0f);
  big[n / 3] = 1.0f;
  big[n - 1] = 1.0f;
  p = peak_of(big, 1000);
  CHECK(p.x == static_cast<int>((n / 3) % 1000));
  CHECK(p.y == static_cast<int>((n / 3) / 1000));
  CHECK(p.value == 1.0f);
}

TEST_CASE("every variant gives the right results after the template changes and changes back", "[gpu]") {
  hb::select_device(0);
  const hb::GrayImage img = random_image(150, 77, hb::test_seed() + 8);
  ch15::Bench bench(img);
  const Template a = ch15::cut_template(img, 3, 4, 16, 16);
  const Template b = ch15::cut_template(img, 70, 40, 21, 13);
  check_every_variant(bench, img, a, "template a");
  check_every_variant(bench, img, b, "then template b");
  check_every_variant(bench, img, a, "then template a again");
}

TEST_CASE("every variant passes on the default coin scene and times its calls", "[gpu]") {
  hb::select_device(0);
  // The programs' default problem: the scene's dime, 52 x 52 at (210, 148). Under the
  // sanitizer a 16 x 16 template in the same dime, and no timed calls.
  const bool small = hb::under_sanitizer();
  ch15::ProblemOptions o;
  if (small) {
    o.x_template = 228;
    o.y_template = 166;
    o.w_template = o.h_template = 16;
  }
  const ch15::Problem p = ch15::make_problem(o, 20261122);
  const ch15::Reference ref = ch15::compute_reference(p.image, p.tmpl);
  CHECK(ref.peak.x == 236);
  CHECK(ref.peak.y == 174);
  ch15::Bench bench(p.image);
  bench.set_template(p.tmpl);
  for (const auto& v : ch15::variants()) {
    if (v.is_cpu()) continue;
    INFO("variant " << v.id);
    const ch15::Measurement m = bench.run(v, small ? 0 : 2, &ref);
    INFO(m.failure);
    CHECK(m.ok());
    CHECK(m.path == v.path_here());
    if (!small) CHECK(m.median_ms > 0);
    CHECK(m.peak.x == 236);
    CHECK(m.peak.y == 174);
  }
}
