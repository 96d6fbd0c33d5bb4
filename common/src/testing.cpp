#include "hb/testing.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace hb {

bool under_sanitizer() {
  const char* v = std::getenv("HB_UNDER_SANITIZER");
  return v != nullptr && std::string(v) == "1";
}

std::vector<std::size_t> standard_sizes(std::size_t block, std::size_t large) {
  std::vector<std::size_t> s{0, 1, 31, 32, 33, block + 1, block, 1000003, large};
  if (block > 0) s.push_back(block - 1);
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  if (under_sanitizer())
    s.erase(std::remove_if(s.begin(), s.end(), [](std::size_t n) { return n > kSanitizerMaxSize; }),
            s.end());
  return s;
}

std::uint64_t test_seed(std::uint64_t fallback) {
  const char* v = std::getenv("HB_TEST_SEED");
  if (v == nullptr || *v == '\0') return fallback;
  return std::strtoull(v, nullptr, 10);
}

std::string read_text_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string normalize_space(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = true;
    } else {
      if (space && !out.empty()) out += ' ';
      out += c;
      space = false;
    }
  }
  return out;
}

std::string file_comment_first_paragraph(const std::string& text) {
  std::istringstream in(text);
  std::string line, para;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside) {
      inside = line == "/// \\file";
      continue;
    }
    if (line.rfind("///", 0) != 0 || line == "///") break;
    para += line.substr(line.size() > 3 && line[3] == ' ' ? 4 : 3) + "\n";
  }
  return normalize_space(para);
}

}  // namespace hb
