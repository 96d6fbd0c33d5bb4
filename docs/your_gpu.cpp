// your_gpu: which variant of which chapter needs which GPU, read from the chapters' variant
// tables, and what this GPU runs.
//
//   your_gpu                       the GPU of this machine (device 0, or --device I): its compute
//                                  capability, the code's, and every variant that runs a
//                                  portable form or is left out here (exit 77 without a GPU)
//   your_gpu --page IN OUT         the "Your GPU" page: IN with @NEEDS_TABLE@ and
//                                  @ARCHITECTURE_TABLE@ filled in (needs no GPU)
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "hb/capability.h"
#include "hb/cli.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/files.h"

#ifdef HB_HAVE_CH12
#include "reduction.h"
#endif
#ifdef HB_HAVE_CH13
#include "scan.h"
#endif
#ifdef HB_HAVE_CH14
#include "nbody.h"
#endif
#ifdef HB_HAVE_CH15
#include "correlation.h"
#endif
#ifdef HB_HAVE_HISTOGRAM
#include "histogram.h"
#endif

namespace {

// One variant whose form depends on the GPU.
struct Row {
  std::string chapter;  // "13. Scan"
  std::string variant;  // "scan 7 bulk_copy_lookback"
  std::string program;  // its own program
  hb::Needs needs;
};

// A variant whose largest block size depends on the shared memory of the GPU.
struct TileRow {
  std::string chapter, variant, program;
  unsigned bytes_per_thread;
};

std::vector<Row> rows_that_need_something() {
  std::vector<Row> rows;
  // Unused when no chapter with a variant table is built (e.g. HB_CHAPTERS=ch11_streaming).
  [[maybe_unused]] const auto add = [&](const std::string& chapter, const std::string& variant,
                                        const std::string& program, const hb::Needs& needs) {
    if (hb::needs_anything(needs)) rows.push_back({chapter, variant, program, needs});
  };
#ifdef HB_HAVE_CH12
  for (const auto& v : ch12::variants())
    add("12. Reduction", std::string("variant ") + v.id + " " + v.name, v.program(), v.needs);
#endif
#ifdef HB_HAVE_CH13
  for (const auto& v : ch13::scan_variants())
    add("13. Scan", v.label() + " " + v.name, v.program(), v.needs);
  for (const auto& v : ch13::compact_variants())
    add("13. Scan", v.label() + " " + v.name, v.program(), v.needs);
  for (const auto& v : ch13::warp_variants()) add("13. Scan", v.label() + " " + v.name, "scan", v.needs);
  for (const auto& v : ch13::block_variants()) add("13. Scan", v.label() + " " + v.name, "scan", v.needs);
#endif
#ifdef HB_HAVE_CH14
  for (const auto& v : ch14::variants())
    add("14. N-body", "variant " + std::to_string(v.id) + " " + v.name, v.program(), v.needs);
#endif
#ifdef HB_HAVE_CH15
  for (const auto& v : ch15::variants())
    add("15. Correlation", std::string("variant ") + v.id + " " + v.name, v.program(), v.needs);
#endif
#ifdef HB_HAVE_HISTOGRAM
  for (const auto& v : histo::variants())
    add("Histograms", std::string("variant ") + v.id + " " + v.name, v.program(), v.needs);
#endif
  return rows;
}

std::vector<TileRow> rows_with_tiles() {
  std::vector<TileRow> rows;
#ifdef HB_HAVE_CH13
  for (const auto& v : ch13::scan_variants())
    if (v.tile_bytes_per_thread > 0)
      rows.push_back({"13. Scan", v.label() + " " + v.name, v.program(), v.tile_bytes_per_thread});
  for (const auto& v : ch13::compact_variants())
    if (v.tile_bytes_per_thread > 0)
      rows.push_back({"13. Scan", v.label() + " " + v.name, v.program(), v.tile_bytes_per_thread});
#endif
  return rows;
}

// The largest power-of-two block (up to 1024 threads) whose tile fits \p limit bytes, with the
// same allowance for static shared memory as the launchers (ch13::fits_shared_memory).
int largest_block(unsigned bytes_per_thread, std::size_t limit) {
  int best = 0;
  for (int t = 32; t <= 1024; t *= 2)
    if (std::size_t(bytes_per_thread) * t + 1024 <= limit) best = t;
  return best;
}

std::string form_cell(const hb::Needs& needs, hb::Capability cc) {
  switch (hb::form_for(needs, cc, hb::architecture_shared_limit(cc))) {
    case hb::Form::Headline: return "as written";
    case hb::Form::Portable: return "portable form";
    case hb::Form::None: return "**left out**";
  }
  return "?";
}

std::string needs_table() {
  std::ostringstream out;
  out << "| chapter | variant | program | its headline form needs | below that, in its place |\n"
      << "|:---|:---|:---|:---|:---|\n";
  for (const Row& r : rows_that_need_something())
    out << "| " << r.chapter << " | " << r.variant << " | `" << r.program << "` | "
        << hb::needs_text(r.needs) << " | "
        << (r.needs.below != nullptr ? r.needs.below
                                     : "nothing: left out (its program says why and exits 3; "
                                       "its tests report Skipped)")
        << " |\n";
  for (const TileRow& r : rows_with_tiles())
    out << "| " << r.chapter << " | " << r.variant << " | `" << r.program << "` | "
        << r.bytes_per_thread << " bytes of shared memory per thread of a block"
        << " | smaller blocks only (see the largest block per architecture below) |\n";
  return out.str();
}

std::string architecture_table() {
  const auto& archs = hb::supported_architectures();
  std::ostringstream out;
  out << "| chapter | variant |";
  for (const hb::Capability cc : archs) out << " " << hb::capability_text(cc) << " |";
  out << "\n|:---|:---|";
  for (std::size_t i = 0; i < archs.size(); ++i) out << ":---|";
  out << "\n| | shared memory per block |";
  for (const hb::Capability cc : archs) out << " " << hb::architecture_shared_limit(cc) / 1024 << " KiB |";
  out << "\n";
  for (const Row& r : rows_that_need_something()) {
    out << "| " << r.chapter << " | " << r.variant << " |";
    for (const hb::Capability cc : archs) out << " " << form_cell(r.needs, cc) << " |";
    out << "\n";
  }
  for (const TileRow& r : rows_with_tiles()) {
    out << "| " << r.chapter << " | " << r.variant << ": largest block |";
    for (const hb::Capability cc : archs)
      out << " " << largest_block(r.bytes_per_thread, hb::architecture_shared_limit(cc)) << " |";
    out << "\n";
  }
  return out.str();
}

void replace(std::string& text, const std::string& marker, const std::string& by) {
  const auto at = text.find(marker);
  if (at == std::string::npos) throw hb::UsageError("the page template has no " + marker);
  text.replace(at, marker.size(), by);
}

int write_page(const std::string& in_path, const std::string& out_path) {
  hb::InputFile in(in_path);
  hb::check_output_path(out_path, "--page");
  std::stringstream buffer;
  buffer << in.stream().rdbuf();
  std::string page = buffer.str();
  replace(page, "@NEEDS_TABLE@", needs_table());
  replace(page, "@ARCHITECTURE_TABLE@", architecture_table());
  replace(page, "@BUILD_ARCHITECTURES@", HB_CUDA_ARCHITECTURES);
  hb::write_file(out_path, page);
  return 0;
}

int describe_this_gpu(int device) {
  hb::select_device(device);
  const hb::DeviceInfo dev = hb::query_device(device);
  std::cout << "Your GPU: " << dev.name << ", compute capability " << dev.compute_capability()
            << "; the programs run code built for " << hb::capability_text(hb::code_capability())
            << " (this build: CMAKE_CUDA_ARCHITECTURES=" << HB_CUDA_ARCHITECTURES << ").\n";
  int different = 0;
  for (const Row& r : rows_that_need_something()) {
    const std::string note = hb::form_note(r.needs);
    if (note.empty()) continue;
    std::cout << "  " << r.chapter << ", " << r.variant << ": " << note << "\n";
    ++different;
  }
  const std::size_t limit = hb::shared_per_block_limit();
  for (const TileRow& r : rows_with_tiles()) {
    const int largest = largest_block(r.bytes_per_thread, limit);
    if (largest < 1024) {
      std::cout << "  " << r.chapter << ", " << r.variant << ": blocks of up to " << largest
                << " threads (" << limit / 1024 << " KiB of shared memory per block)\n";
      ++different;
    }
  }
  if (different == 0) std::cout << "  Every variant of every chapter runs here as its page describes it.\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return hb::run_main("your_gpu", [&] {
    CLI::App app{"Which variant needs which GPU (from the chapters' variant tables), and what "
                 "this GPU runs."};
    std::vector<std::string> page;
    int device = 0;
    app.add_option("--page", page, "IN OUT: write the \"Your GPU\" page (no GPU needed)")
        ->expected(2);
    app.add_option("--device", device, "the CUDA device to describe")->check(CLI::Range(0, 1023));
    hb::make_strict(app);
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      std::cout << app.help();
      return 0;
    } catch (const CLI::ParseError& e) {
      throw hb::UsageError(e.what());
    }
    if (!page.empty()) return write_page(page[0], page[1]);
    return describe_this_gpu(device);
  });
}
