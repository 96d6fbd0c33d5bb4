// The templates (15.1), the problem the programs correlate, measuring and checking one variant
// (Bench), and the programs. What is timed, how rates count and what is checked: the page's
// "Results".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <thread>
#include <tuple>

#include "correlation.h"
#include "hb/bench.h"
#include "hb/cli.h"
#include "hb/coin_scene.h"
#include "hb/compare.h"
#include "hb/device.h"
#include "hb/files.h"
#include "hb/random.h"
#include "hb/report.h"
#include "hb/timing.h"

namespace ch15 {

namespace {

constexpr int kWarmup = 2;
constexpr int kDefaultTemplateSide = 52;

std::string dims(int width, int height) { return std::to_string(width) + " x " + std::to_string(height); }
std::string point(int x, int y) { return "(" + std::to_string(x) + ", " + std::to_string(y) + ")"; }

double mpix_per_s(std::size_t pixels, double ms) { return ms > 0 ? pixels / (ms * 1e-3) / 1e6 : 0.0; }
double gtpix_per_s(std::size_t pixels, std::size_t template_pixels, double ms) {
  return ms > 0 ? static_cast<double>(pixels) * template_pixels / (ms * 1e-3) / 1e9 : 0.0;
}
std::string ratio(double a, double b) { return a > 0 && b > 0 ? hb::fixed(a / b, 1) : "-"; }

void add_problem_options(CLI::App& app, ProblemOptions& o) {
  app.add_option("--input", o.input, "8-bit PGM image (P5 or P2) to search; default: a generated "
                                      "coin scene of 300 x 246 pixels");
  app.add_option("--xTemplate", o.x_template,
                 "left edge of the template in the image (default: 210, the scene's lower-right "
                 "dime; with --input, centred)");
  app.add_option("--yTemplate", o.y_template, "top edge of the template (default: 148)");
  app.add_option("--wTemplate", o.w_template, "template width (default: 52)");
  app.add_option("--hTemplate", o.h_template, "template height (default: 52)");
  app.add_option("--padWidth", o.pad_width,
                 "pad the image to this width with noise (needs --padHeight; 1024 x 1024 keeps "
                 "the GPU busy)");
  app.add_option("--padHeight", o.pad_height, "pad the image to this height (needs --padWidth)");
  app.add_option("--output", o.output,
                 "write the coefficients as a PGM picture (log transform, figure 15.2) at the "
                 "end of the run; an existing file of that name is replaced");
  app.add_option("--write-input", o.write_input,
                 "write the (padded) input image as PGM at the end of the run; an existing file "
                 "of that name is replaced");
}

// The driver's own flags; a variant's own program keeps their defaults.
struct DriverOptions {
  bool sweep = false, only_neighbourhood = false;
  std::vector<int> sizes = {8, 12, 16, 24, 32, 40, 48, 52, 64, 80, 96, 128, 160, 192, 256};
  double budget_ms = 100.0;
};

void add_driver_options(CLI::App& app, DriverOptions& d) {
  app.add_flag("--sweep", d.sweep, "print the template-size sweep (figure 15.6) instead");
  app.add_option("--sizes", d.sizes, "template sides of the sweep")
      ->check(CLI::Range(1, kMaxTemplateSide))
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--budget-ms", d.budget_ms,
                 "sweep: leave a variant out of larger templates once a call takes longer (0.001 to 1e6)")
      ->capture_default_str();
  app.add_flag("--neighbourhood", d.only_neighbourhood, "print only the 9 x 9 neighbourhood of the template position");
}

// The image goes into a 2D texture (a CUDA array): every GPU CUDA 13 supports takes up to
// 131072 x 65536 texels. Larger images are refused before the GPU is touched.
void require_texture_size(const Problem& p) {
  constexpr int kMaxTextureWidth = 131072, kMaxTextureHeight = 65536;
  if (p.image.width > kMaxTextureWidth || p.image.height > kMaxTextureHeight)
    throw hb::UsageError("an image of " + dims(p.image.width, p.image.height) +
                         " pixels does not fit a GPU texture (" + dims(kMaxTextureWidth, kMaxTextureHeight) +
                         " at most); the CPU variant (corr_cpu, or --variant 0) takes it");
}

// The CPU reference holds three 64-bit sums, a double and a float per pixel.
void require_reference_memory(const Problem& p) {
  hb::require_host_memory(p.image.pixels.size() * (3 * sizeof(std::int64_t) + 12),
                          "the CPU reference for " + dims(p.image.width, p.image.height) + " pixels");
}

std::string describe_template(const Template& t) {
  return dims(t.width, t.height) + " at " + point(t.x, t.y) + ", " + std::to_string(t.stats.n) + " pixels";
}

// One run of a program, after its flags were checked: the tables it prints and the files it
// writes. \p only is a variant's own program's variant, null in the driver.
struct Run {
  const char* program;
  const Variant* only;
  const hb::Cli& cli;
  const ProblemOptions& po;
  const DriverOptions& d;
  const Problem& p;
  const hb::DeviceInfo* dev;  // null when no GPU is used
  const hb::CommonOptions& opt = cli.options();
  std::vector<std::string> failures = {};

  // A report whose facts are the run's (with a GPU, the GPU's too, and what runs in place of a
  // variant whose headline form this GPU or build lacks) and the image's.
  hb::Report report(std::vector<std::string> columns, const std::string& title, bool gpu = true) const {
    hb::Report r(std::move(columns));
    hb::add_run_facts(r, title, cli.command_line(), gpu ? dev : nullptr);
    if (gpu && dev != nullptr) hb::add_form_notes(r, variants());
    std::string image = p.source + ", " + dims(p.original_width, p.original_height);
    if (p.image.width != p.original_width || p.image.height != p.original_height)
      image += ", padded to " + dims(p.image.width, p.image.height);
    r.fact("image", image);
    return r;
  }

  void add_rate_facts(hb::Report& r) const {
    r.fact("Mpix/s", "output pixels (one coefficient each) per second, 1e6");
    r.fact("G tpx/s", "output pixels x template pixels per second, 1e9 (section 15.7)");
    r.fact("iterations", std::to_string(opt.iters) + " timed (median) after " + std::to_string(kWarmup) + " untimed");
    r.fact("check", opt.no_check ? "skipped (--no-check)"
                                 : "sums bit for bit, coefficients within " +
                                       hb::fixed(kCoefficientTolerance * 1e6, 0) + "e-6, against the CPU");
  }

  // Writes --output (\p coefficients as a picture) and --write-input once the work is done, so
  // that a run that stops early leaves no file.
  void write_outputs(const std::vector<float>* coefficients) const {
    if (coefficients != nullptr && !po.output.empty())
      hb::write_pgm(po.output, log_transform_image(*coefficients, p.image.width, p.image.height));
    if (!po.write_input.empty()) hb::write_pgm(po.write_input, p.image);
  }

  // Section 15.2's table: the CPU reference's coefficients around the template's centre.
  void print_neighbourhood(const Reference& ref) const {
    std::vector<std::string> columns = {"dy \\ dx"};
    for (int dx = -4; dx <= 4; ++dx) columns.push_back(std::to_string(dx));
    hb::Report r = report(columns, std::string(program) + " (neighbourhood of the template, section 15.2)", false);
    r.fact("template", describe_template(p.tmpl));
    r.fact("centre", "output " + point(p.focus_x, p.focus_y) +
                         ", where the template matches itself; coefficients of the CPU reference");
    const auto rows = neighbourhood(ref.coefficients, p.image.width, p.image.height, p.focus_x, p.focus_y);
    for (int dy = -4; dy <= 4; ++dy) {
      std::vector<std::string> cells = {std::to_string(dy)};
      for (double c : rows[dy + 4]) cells.push_back(hb::fixed(c, 2));
      r.row(cells);
    }
    r.print(std::cout, opt.csv);
  }

  // The rate table: the CPU reference's row (when \p ref ran), then every GPU variant of
  // \p chosen. A variant's own program leaves "x variant 1" empty; the driver adds the peak.
  // A single GPU variant's coefficients become \p picture.
  void rate_table(const Reference* ref, const std::vector<const Variant*>& chosen, std::vector<float>& picture) {
    hb::Report r = report({"id", "variant", "path", "ms (median)", "Mpix/s", "G tpx/s", "x CPU", "x variant 1",
                           "sums", "coefficients", "peak x", "peak y", "peak value"},
                          program);
    r.fact("template", describe_template(p.tmpl));
    if (ref != nullptr) r.fact("CPU threads", std::to_string(ref->threads));
    add_rate_facts(r);
    const std::size_t pixels = p.image.pixels.size();
    const auto row = [&](const Variant& v, Path path, double ms, const Peak& peak, const std::string& x_cpu,
                         const std::string& x_variant1, const std::string& sums, const std::string& coefficients) {
      r.row({v.id, v.title, to_string(path), hb::fixed(ms, 3), hb::fixed(mpix_per_s(pixels, ms), 1),
             hb::fixed(gtpix_per_s(pixels, p.tmpl.pixels.size(), ms), 2), x_cpu, x_variant1, sums, coefficients,
             std::to_string(peak.x), std::to_string(peak.y), hb::fixed(peak.value, 4)});
    };
    if (ref != nullptr) row(variants().front(), Path::Cpu, ref->ms, ref->peak, "1.0", "-", "reference", "reference");
    if (!chosen.empty()) {
      Bench bench(p.image);
      bench.set_template(p.tmpl);
      double variant1_ms = 0.0;
      for (const Variant* v : chosen) {
        const Measurement m = bench.run(*v, opt.iters, opt.no_check ? nullptr : ref);
        if (only == nullptr && std::string(v->id) == "1") variant1_ms = m.median_ms;
        char max_err[32];
        std::snprintf(max_err, sizeof max_err, "max err %.1e", m.max_error);
        row(*v, m.path, m.median_ms, m.peak, ratio(ref ? ref->ms : 0.0, m.median_ms), ratio(variant1_ms, m.median_ms),
            hb::check_text(m.sums_exact, m.checked), !m.checked ? "skipped" : m.coefficients_ok ? max_err : "FAIL");
        if (chosen.size() == 1) picture = bench.coefficients();
        if (!m.ok())
          failures.push_back("variant " + std::string(v->id) +
                             (only ? std::string(" (") + to_string(m.path) + ")" : "") + ": " + m.failure);
      }
    }
    r.print(std::cout, opt.csv);
    if (only == nullptr && !opt.csv) {  // the driver always has the reference
      std::cout << "\nPeak (CPU reference): coefficient " << hb::fixed(ref->peak.value, 4) << " at "
                << point(ref->peak.x, ref->peak.y) << "; the template was cut at " << point(p.tmpl.x, p.tmpl.y)
                << ", so it matches itself at " << point(p.focus_x, p.focus_y) << ".\n";
    }
  }

  // The sweep of figure 15.6: square templates of the given sizes centred on the default
  // template's centre. A variant is left out of larger sizes once a call takes over the budget.
  void sweep(const std::vector<const Variant*>& chosen) {
    hb::Report r = report({"template", "w", "h", "id", "variant", "path", "ms (median)", "Mpix/s", "G tpx/s", "check"},
                          std::string(program) + " (template-size sweep, figure 15.6)");
    r.fact("templates", "squares centred at " + point(p.focus_x, p.focus_y) + ", clamped to the image");
    add_rate_facts(r);
    r.fact("budget", "a variant is left out of larger sizes once a call takes more than " +
                         hb::fixed(d.budget_ms, 0) + " ms");
    Bench bench(p.image);
    std::map<const Variant*, bool> over_budget;
    std::vector<std::pair<int, bool>> fft_wins;  // (size, whether the FFT route beat every direct variant)
    const std::size_t pixels = p.image.pixels.size();
    for (int side : d.sizes) {
      if (side > p.image.width || side > p.image.height || side * side > kMaxTemplatePixels) continue;
      const int x = std::clamp(p.focus_x - side / 2, 0, p.image.width - side);
      const int y = std::clamp(p.focus_y - side / 2, 0, p.image.height - side);
      Template t;
      try {
        t = cut_template(p.image, x, y, side, side);
      } catch (const hb::UsageError&) {
        continue;  // a flat square: nothing to correlate
      }
      bench.set_template(t);
      Reference ref;
      if (!opt.no_check) ref = compute_reference(p.image, t);
      double best = 0, fft_rate = 0;
      const std::string s = std::to_string(side);
      for (const Variant* v : chosen) {
        if (over_budget[v]) continue;
        const Measurement m = bench.run(*v, opt.iters, opt.no_check ? nullptr : &ref);
        if (!m.ok()) failures.push_back("variant " + std::string(v->id) + " at " + s + ": " + m.failure);
        const double rate = mpix_per_s(pixels, m.median_ms);
        if (v->path() == Path::Fft) fft_rate = rate;
        else best = std::max(best, rate);
        over_budget[v] = m.median_ms > d.budget_ms;
        r.row({s + "x" + s, s, s, v->id, v->name, to_string(m.path), hb::fixed(m.median_ms, 3), hb::fixed(rate, 1),
               hb::fixed(gtpix_per_s(pixels, t.pixels.size(), m.median_ms), 2), hb::check_text(m.ok(), m.checked)});
      }
      if (best > 0 && fft_rate > 0) fft_wins.emplace_back(side, fft_rate > best);
    }
    // The crossover: the smallest size from which on the FFT route beats every direct variant.
    std::string crossover = "not measured (run the direct variants and variant 9 together)";
    if (!fft_wins.empty()) {
      int from = -1;
      for (auto it = fft_wins.rbegin(); it != fft_wins.rend() && it->second; ++it) from = it->first;
      crossover = from < 0 ? "the FFT route is slower than the best direct variant at every measured size"
                           : "the FFT route beats every direct variant from " + dims(from, from) + " on";
    }
    r.fact("FFT crossover", crossover);
    r.print(std::cout, opt.csv);
  }
};

// Compares GPU sums with the CPU's exactly: empty when all agree, else how many differ and the
// first and last few.
std::string compare_sums(const std::vector<CorrSums>& got, const std::vector<ExactSums>& want, int width) {
  if (got.size() != want.size()) return "different sizes";
  std::vector<std::size_t> bad;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i].sum_i != want[i].sum_i || got[i].sum_isq != want[i].sum_isq || got[i].sum_it != want[i].sum_it)
      bad.push_back(i);
  if (bad.empty()) return "";
  const auto text = [&](std::size_t i) {
    const auto sums = [](const auto& s) {
      return std::to_string(s.sum_i) + "/" + std::to_string(s.sum_isq) + "/" + std::to_string(s.sum_it);
    };
    return point(static_cast<int>(i % width), static_cast<int>(i / width)) + ": got " + sums(got[i]) + ", want " +
           sums(want[i]);
  };
  std::string s = std::to_string(bad.size()) + " of " + std::to_string(got.size()) +
                  " pixels differ (SumI/SumISq/SumIT); first: ";
  for (std::size_t k = 0; k < bad.size() && k < 3; ++k) s += (k ? "; " : "") + text(bad[k]);
  if (bad.size() > 3) s += "; last: " + text(bad.back());
  return s;
}

}  // namespace

void validate_template_size(int width, int height) {
  const std::string flags = "--wTemplate " + std::to_string(width) + " --hTemplate " + std::to_string(height);
  if (width < 1 || height < 1) throw hb::UsageError(flags + ": the template must be at least 1 x 1");
  if (width > kMaxTemplateSide || height > kMaxTemplateSide)
    throw hb::UsageError(flags + ": each side must be at most " + std::to_string(kMaxTemplateSide));
  if (static_cast<long long>(width) * height > kMaxTemplatePixels)
    throw hb::UsageError("template of " + dims(width, height) + " pixels: more than " +
                         std::to_string(kMaxTemplatePixels) + " pixels (the sums would not fit 32 bits)");
}

Template make_template(std::vector<std::uint8_t> pixels, int width, int height) {
  validate_template_size(width, height);
  if (pixels.size() != static_cast<std::size_t>(width) * height)
    throw std::logic_error("make_template: pixel count does not match the size");
  Template t{-1, -1, width, height, std::move(pixels), {}};
  TemplateStats& s = t.stats;
  s.n = static_cast<std::int64_t>(t.pixels.size());
  for (const std::int64_t v : t.pixels) {
    s.sum += v;
    s.sum_sq += v * v;
  }
  s.variance = s.n * s.sum_sq - s.sum * s.sum;
  // The text's advice: compute fDenomExp in double. Both products are below 2^53, so the
  // double is exact and equals the integer above.
  s.denom_exp = static_cast<double>(s.n) * static_cast<double>(s.sum_sq) -
                static_cast<double>(s.sum) * static_cast<double>(s.sum);
  return t;
}

Template cut_template(const hb::GrayImage& image, int x, int y, int width, int height) {
  validate_template_size(width, height);
  const std::string where = "template " + dims(width, height) + " at " + point(x, y);
  if (x < 0 || y < 0 || x > image.width - width || y > image.height - height)
    throw hb::UsageError(where + " (--xTemplate --yTemplate --wTemplate --hTemplate) is not inside the " +
                         dims(image.width, image.height) + " image");
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width) * height);
  for (int j = 0; j < height; ++j)
    for (int i = 0; i < width; ++i) pixels[static_cast<std::size_t>(j) * width + i] = image.at(x + i, y + j);
  Template t = make_template(std::move(pixels), width, height);
  if (t.stats.variance == 0)
    throw hb::UsageError(where + " is flat (every pixel is " + std::to_string(t.pixels[0]) +
                         "): the normalized correlation is undefined");
  t.x = x;
  t.y = y;
  return t;
}

std::uint8_t log_transform_pixel(double c) {
  if (!(c > 0.0)) return 0;  // negative, zero and NaN
  const double r = 255.0 * std::min(c, 1.0);
  return static_cast<std::uint8_t>(std::lround(255.0 * std::log1p(r) / std::log(256.0)));
}

hb::GrayImage log_transform_image(const std::vector<float>& values, int width, int height) {
  hb::GrayImage img{width, height, 255, std::vector<std::uint8_t>(values.size())};
  for (std::size_t i = 0; i < values.size(); ++i) img.pixels[i] = log_transform_pixel(values[i]);
  return img;
}

hb::GrayImage pad_image(const hb::GrayImage& image, int width, int height, std::uint64_t seed) {
  if (width < image.width || height < image.height)
    throw hb::UsageError("--padWidth/--padHeight " + dims(width, height) + ": smaller than the image (" +
                         dims(image.width, image.height) + ")");
  for (const auto& [side, flag] : {std::pair{width, "--padWidth"}, std::pair{height, "--padHeight"}})
    if (side < 1 || side > hb::kMaxPgmSide)
      throw hb::UsageError(std::string(flag) + " " + std::to_string(side) + ": must be between 1 and " +
                           std::to_string(hb::kMaxPgmSide));
  if (static_cast<std::size_t>(width) * height > hb::kMaxPgmPixels)
    throw hb::UsageError("padded image of " + dims(width, height) + " pixels: more than " +
                         std::to_string(hb::kMaxPgmPixels) + " pixels");
  hb::GrayImage out{width, height, 255, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height)};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * width + x;
      out.pixels[i] = (x < image.width && y < image.height)
                          ? image.at(x, y)
                          : static_cast<std::uint8_t>(hb::hash64(seed + 0x9AD, i) >> 56);
    }
  return out;
}

Problem make_problem(const ProblemOptions& o, std::uint64_t seed) {
  // Fails before any work when --output or --write-input could not be written at the end;
  // creates nothing, so a run that stops early leaves no file behind.
  if (!o.output.empty()) hb::check_output_path(o.output, "--output");
  if (!o.write_input.empty()) hb::check_output_path(o.write_input, "--write-input");
  if (o.pad_width.has_value() != o.pad_height.has_value())
    throw hb::UsageError("--padWidth and --padHeight go together: give both or neither");
  Problem p;
  int x = 0, y = 0, w = 0, h = 0;  // the default template
  if (!o.input.empty()) {
    p.image = hb::read_pgm(o.input);
    p.source = o.input;
    w = std::min(kDefaultTemplateSide, p.image.width);
    h = std::min(kDefaultTemplateSide, p.image.height);
    x = (p.image.width - w) / 2;
    y = (p.image.height - h) / 2;
  } else {
    hb::CoinScene scene = hb::make_coin_scene(hb::kSceneWidth, hb::kSceneHeight, seed);
    p.image = std::move(scene.image);
    p.source = "generated coin scene (seed " + std::to_string(seed) + ")";
    std::tie(x, y, w, h) = std::tie(scene.template_x, scene.template_y, scene.template_w, scene.template_h);
  }
  p.original_width = p.image.width;
  p.original_height = p.image.height;
  if (o.pad_width) {
    if (*o.pad_width < 1 || *o.pad_height < 1)
      throw hb::UsageError("--padWidth " + std::to_string(*o.pad_width) + " --padHeight " +
                           std::to_string(*o.pad_height) + ": must be positive");
    p.image = pad_image(p.image, *o.pad_width, *o.pad_height, seed);
  }
  p.tmpl = cut_template(p.image, o.x_template.value_or(x), o.y_template.value_or(y), o.w_template.value_or(w),
                        o.h_template.value_or(h));
  p.focus_x = p.tmpl.x + p.tmpl.width / 2;
  p.focus_y = p.tmpl.y + p.tmpl.height / 2;
  return p;
}

Reference compute_reference(const hb::GrayImage& image, const Template& tmpl) {
  Reference r;
  r.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  hb::HostTimer timer;
  r.sums = cpu_sums(image, tmpl, r.threads);
  r.coefficients = cpu_coefficients(r.sums, tmpl.stats);
  r.ms = timer.elapsed_ms();
  r.peak = cpu_peak(r.coefficients, image.width);
  return r;
}

Bench::Bench(const hb::GrayImage& image)
    : ws_(image),
      coefficients_(static_cast<std::size_t>(image.width) * image.height),
      sums_(static_cast<std::size_t>(image.width) * image.height),
      peak_scratch_(1) {}

Measurement Bench::run(const Variant& v, int iters, const Reference* reference) {
  if (v.is_cpu()) throw std::logic_error("Bench::run: variant 0 runs on the CPU");
  Measurement m;
  const std::size_t n = coefficients_.size();
  host_coefficients_.resize(n);
  v.prepare(ws_, stream_);
  const auto fail = [&](const std::string& what) { m.failure += (m.failure.empty() ? "" : "; ") + what; };

  if (reference != nullptr) {
    m.checked = true;
    // Poisoned first: 0xFFFFFFFF is no valid sum (they are all below 65536 * 65025), and
    // 0xFFFFFFFF is a NaN as a float, so an output a kernel forgets to write cannot pass.
    hb::poison(sums_.data(), sums_.bytes(), 0xFF, stream_);
    v.launch(ws_, Output{nullptr, sums_.data()}, stream_);
    host_sums_.resize(n);
    hb::copy_to_host(host_sums_.data(), sums_.data(), n, stream_);
    const std::string diff = compare_sums(host_sums_, reference->sums, ws_.width());
    m.sums_exact = diff.empty();
    if (!m.sums_exact) fail("sums: " + diff);
  }
  // One checked call, the timed calls (none for iters = 0), and the check again: what a call
  // leaves behind (the constant template, the packed fragments) must not change the result.
  int checks = 0;
  const hb::Checked c = hb::measure_checked(
      [&](cudaStream_t st) { hb::poison(coefficients_.data(), coefficients_.bytes(), 0xFF, st); },
      [&](cudaStream_t st) { m.path = v.launch(ws_, Output{coefficients_.data(), nullptr}, st); },
      [&] {
        hb::copy_to_host(host_coefficients_.data(), coefficients_.data(), n, stream_);
        const hb::CompareResult r = hb::compare_relative(host_coefficients_.data(), reference->coefficients.data(),
                                                         n, 0.0, kCoefficientTolerance, "coefficients");
        m.max_error = std::max(m.max_error, r.max_error);
        if (!r.ok) {
          m.coefficients_ok = false;
          fail(std::string(checks == 0 ? "first call" : "after the timed calls") + ": " + r.report);
        }
        ++checks;
        return m.coefficients_ok;
      },
      stream_, iters > 0 ? kWarmup : 0, iters, reference != nullptr);
  m.median_ms = c.median_ms;
  if (reference == nullptr) hb::copy_to_host(host_coefficients_.data(), coefficients_.data(), n, stream_);
  m.peak = gpu_peak(coefficients_.data(), ws_.width(), n, peak_scratch_.data(), stream_);
  // The GPU's peak must be the peak of the very coefficients it searched.
  const Peak host = cpu_peak(host_coefficients_, ws_.width());
  if (host.x != m.peak.x || host.y != m.peak.y || host.value != m.peak.value) {
    m.coefficients_ok = false;
    fail("peak: the GPU found " + point(m.peak.x, m.peak.y) + ", the host " + point(host.x, host.y));
  }
  return m;
}

std::vector<std::vector<double>> neighbourhood(const std::vector<double>& coefficients, int width,
                                               int height, int cx, int cy) {
  std::vector<std::vector<double>> rows(9);
  for (int dy = -4; dy <= 4; ++dy)
    for (int dx = -4; dx <= 4; ++dx) {
      const int x = std::clamp(cx + dx, 0, width - 1), y = std::clamp(cy + dy, 0, height - 1);
      rows[dy + 4].push_back(coefficients[static_cast<std::size_t>(y) * width + x]);
    }
  return rows;
}

int program_main(const char* program, const char* id, int argc, char** argv) {
  return hb::run_main(program, [&] {
    const Variant* only = id != nullptr ? &hb::program_row(variants(), id, program) : nullptr;
    hb::CliSpec spec;
    spec.program = program;
    spec.description =
        only != nullptr
            ? std::string("Chapter 15, variant ") + only->id + ": " + only->title +
                  ". Correlates a template with an image (default: a generated coin scene and one of its coins), "
                  "checks the result against the CPU and prints the rate in Mpix/s and G template-pixels/s."
            : "Chapter 15 driver: normalized cross-correlation of a template with an image (default: a generated "
              "coin scene). Prints the 9 x 9 coefficients around the template's position (section 15.2) and every "
              "variant's rate in Mpix/s and G template-pixels/s (15.7); with --sweep, the rate against the "
              "template size (figure 15.6). Use --padWidth 1024 --padHeight 1024 for measurements.";
    spec.n_unit = "pixels; not used here, the image sets the size";
    if (only == nullptr) spec.variants = static_cast<int>(variants().size());
    hb::Cli cli(spec);
    ProblemOptions po;
    add_problem_options(cli.app(), po);
    DriverOptions d;
    if (only == nullptr) add_driver_options(cli.app(), d);
    if (!cli.parse(argc, argv)) return 0;
    if (cli.app().count("--n") > 0)
      throw hb::UsageError("--n: not used by this program; the image sets the size (--input, "
                           "--padWidth/--padHeight)");
    hb::require_range(d.budget_ms, 1e-3, 1e6, "--budget-ms");
    if (d.sweep && d.only_neighbourhood) throw hb::UsageError("--sweep and --neighbourhood: choose one");
    if (d.sweep && !po.output.empty())
      throw hb::UsageError("--output writes the coefficients of one template, not of a --sweep");
    const hb::CommonOptions& opt = cli.options();
    const Problem p = make_problem(po, opt.seed);

    std::vector<const Variant*> chosen;
    for (const auto& v : variants())
      if (!v.is_cpu() && (only != nullptr ? &v == only : opt.variant < 0 || opt.variant == std::stoi(v.id)))
        chosen.push_back(&v);
    const bool gpu = !d.only_neighbourhood && !chosen.empty();
    // The driver always has the reference; a variant's own program unless --no-check, but the
    // CPU variant is the reference itself, checked or not.
    const bool with_reference = only == nullptr || only->is_cpu() || !opt.no_check;
    // Too large for a GPU texture or for the reference's memory: a variant's own program says
    // the first, the driver the second.
    if (only != nullptr && gpu) require_texture_size(p);
    if (with_reference) require_reference_memory(p);
    if (d.sweep && chosen.empty()) throw hb::UsageError("--sweep measures GPU variants; --variant 0 has none");
    if (only == nullptr && gpu) require_texture_size(p);
    std::optional<hb::DeviceInfo> dev;
    if (gpu) {
      hb::select_device(opt.device);
      dev = hb::query_device(opt.device);
    }
    Run run{program, only, cli, po, d, p, dev ? &*dev : nullptr};

    if (d.sweep) {
      run.sweep(chosen);
      run.write_outputs(nullptr);
    } else {
      Reference ref;
      if (with_reference) ref = compute_reference(p.image, p.tmpl);
      if (only == nullptr && (!opt.csv || d.only_neighbourhood)) {
        run.print_neighbourhood(ref);
        if (!d.only_neighbourhood) std::cout << '\n';
      }
      std::vector<float> picture(ref.coefficients.begin(), ref.coefficients.end());
      if (!d.only_neighbourhood) run.rate_table(with_reference ? &ref : nullptr, chosen, picture);
      run.write_outputs(&picture);
    }
    if (!run.failures.empty()) {
      std::string msg = std::to_string(run.failures.size()) + " variant(s) differ from the CPU: ";
      for (std::size_t i = 0; i < run.failures.size() && i < 3; ++i) msg += (i ? " | " : "") + run.failures[i];
      throw hb::CheckFailed(only != nullptr ? run.failures.front() : msg);
    }
    return 0;
  });
}

}  // namespace ch15
