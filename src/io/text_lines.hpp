#pragma once
// Line-oriented text parsing shared by the loaders in src/io (not installed, not public).

#include <charconv>
#include <cstddef>
#include <fstream>
#include <istream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "waymark/core/errors.hpp"

namespace waymark::io::detail {

/// Reads lines, strips a trailing CR, and counts them for error messages.
class LineReader {
 public:
  LineReader(std::istream& in, const std::string& name) : in_(in), name_(name) {}

  bool next(std::string& line) {
    if (!std::getline(in_, line)) return false;
    ++number_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  }

  [[noreturn]] void fail(const std::string& reason) const { throw LoadError(name_, number_, reason); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& reason) const {
    throw LoadError(name_, line, reason);
  }
  [[nodiscard]] std::size_t number() const { return number_; }
  [[nodiscard]] const std::string& name() const { return name_; }

 private:
  std::istream& in_;
  const std::string& name_;
  std::size_t number_ = 0;
};

/// The fields of a line separated by spaces and tabs.
inline std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t begin = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > begin) fields.push_back(line.substr(begin, i - begin));
  }
  return fields;
}

/// Parses the whole of `s` as a number (integer or floating point, by the type of `out`).
/// Floating point accepts "nan" and "inf": callers check the range.
template <class T>
bool parse_number(std::string_view s, T& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && end == s.data() + s.size();
}

inline std::ifstream open_or_throw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path, 0, "cannot open file");
  return in;
}

}  // namespace waymark::io::detail
