#include "hb/testing.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>

namespace hb {

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

std::string read_text_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

std::string normalize_space(const std::string& text) {
  const char* space = " \n\t\r";
  std::string out;
  for (std::size_t b = text.find_first_not_of(space); b != std::string::npos;) {
    const std::size_t e = text.find_first_of(space, b);
    out += (out.empty() ? "" : " ") + text.substr(b, e - b);
    b = text.find_first_not_of(space, e);
  }
  return out;
}

bool has_line(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    const auto b = l.find_first_not_of(" \t");
    const auto e = l.find_last_not_of(" \t\r");
    if (b != std::string::npos && l.substr(b, e - b + 1) == line) return true;
  }
  return false;
}

std::map<std::string, std::string> csv_row(const std::string& path,
                                           const std::map<std::string, std::string>& match) {
  std::istringstream in(read_text_file(path));
  std::vector<std::string> header;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) cells.emplace_back();
      else cells.back() += c;
    }
    if (header.empty()) {
      header = cells;
      continue;
    }
    std::map<std::string, std::string> row;
    for (std::size_t k = 0; k < header.size() && k < cells.size(); ++k) row[header[k]] = cells[k];
    const auto has = [&](const auto& m) { return row.count(m.first) && row[m.first] == m.second; };
    if (std::all_of(match.begin(), match.end(), has)) return row;
  }
  return {};
}

bool shows_rounded(const std::string& shown, const std::string& value) {
  std::string digits = shown;
  digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
  const std::size_t dot = digits.find('.');
  const int decimals = dot == std::string::npos ? 0 : int(digits.size() - dot - 1);
  char rounded[64];
  std::snprintf(rounded, sizeof rounded, "%.*f", decimals, std::stod(value));
  return digits == rounded;
}

}  // namespace hb
