// hb::printable: kept apart from error.cpp (which needs the CUDA runtime) so that the fuzz
// harnesses of the PGM reader and the command line link without it.
#include "hb/error.h"

namespace hb {

std::string printable(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    static const char* hex = "0123456789abcdef";
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (u < 0x20 || u == 0x7f) out += std::string("\\x") + hex[u >> 4] + hex[u & 15];
    else out += c;
  }
  return out;
}

std::string quote_arg(const std::string& text) {
  if (text.size() <= 40) return "'" + printable(text) + "'";
  return "'" + printable(text.substr(0, 32)) + "...' (" + std::to_string(text.size()) +
         " characters)";
}

}  // namespace hb
