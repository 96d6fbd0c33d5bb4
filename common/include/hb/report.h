/// \file
/// \brief Results for people (an aligned table) and for machines (CSV), with the same columns.
#pragma once

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace hb {

/// A table with a header block of facts (program, device, N, seed, ...): in CSV a run of
/// `# key: value` lines, so that a results file records the GPU, driver and date.
class Report {
 public:
  explicit Report(std::vector<std::string> columns) : columns_(std::move(columns)) {}
  void fact(const std::string& key, const std::string& value);
  /// Adds a row; it must have one cell per column.
  void row(std::vector<std::string> cells);
  void print(std::ostream& os, bool csv) const;

  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

 private:
  std::vector<std::string> columns_;
  std::vector<std::pair<std::string, std::string>> facts_;
  std::vector<std::vector<std::string>> rows_;
};

/// \p value with \p digits digits after the point ("12.35").
std::string fixed(double value, int digits);
/// Quotes a CSV cell when it holds a comma, quote or newline.
std::string csv_escape(const std::string& cell);
/// Today's date as YYYY-MM-DD (UTC), for report headers.
std::string today_utc();

}  // namespace hb
