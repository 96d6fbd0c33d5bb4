#include "hb/report.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <ostream>
#include <stdexcept>

#include "hb/error.h"

namespace hb {

void Report::fact(const std::string& key, const std::string& value) {
  // A fact is one line of the header ("# key: value" in CSV): a newline in a value (a file
  // name, the command line) is written as \n, so it can never start a line of its own.
  facts_.emplace_back(printable(key), printable(value));
}

void Report::row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size())
    throw std::logic_error("Report::row: " + std::to_string(cells.size()) + " cells for " +
                           std::to_string(columns_.size()) + " columns");
  rows_.push_back(std::move(cells));
}

std::string csv_escape(const std::string& cell) {
  if (cell.find_first_of(",\"\n") == std::string::npos) return cell;
  std::string out = "\"";
  for (char c : cell) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void Report::print(std::ostream& os, bool csv) const {
  if (csv) {
    for (const auto& [k, v] : facts_) os << "# " << k << ": " << v << '\n';
    const auto line = [&](const std::vector<std::string>& cells) {
      for (std::size_t c = 0; c < cells.size(); ++c) os << (c ? "," : "") << csv_escape(cells[c]);
      os << '\n';
    };
    line(columns_);
    for (const auto& r : rows_) line(r);
    return;
  }
  std::size_t key_width = 0;
  for (const auto& f : facts_) key_width = std::max(key_width, f.first.size());
  for (const auto& [k, v] : facts_)
    os << k << std::string(key_width - k.size(), ' ') << " : " << v << '\n';
  if (!facts_.empty()) os << '\n';

  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) width[c] = columns_[c].size();
  for (const auto& r : rows_)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  // The first two columns (id, name) read best left-aligned; numbers right-aligned.
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(width[c] - cells[c].size(), ' ');
      os << (c ? " | " : "") << (c < 2 ? cells[c] + pad : pad + cells[c]);
    }
    os << '\n';
  };
  line(columns_);
  for (std::size_t c = 0; c < columns_.size(); ++c)
    os << (c ? "-|-" : "") << std::string(width[c], '-');
  os << '\n';
  for (const auto& r : rows_) line(r);
}

std::string fixed(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  return buf;
}

std::string today_utc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

}  // namespace hb
