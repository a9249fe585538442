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

#include "waymark/core/binary_io.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"

namespace waymark::io::detail {

/// The longest line a text loader accepts, CR and LF excluded: a 32768-cell map row fits, and
/// a file with no line breaks (a binary file, /dev/zero) is refused after reading this much
/// instead of growing one line without end.
inline constexpr std::size_t max_line_bytes = std::size_t{1} << 16;

/// Reads lines (at most max_line_bytes each), strips a trailing CR, and counts them for error
/// messages.
class LineReader {
 public:
  LineReader(std::istream& in, const std::string& name) : in_(in), name_(name), buffer_(max_line_bytes + 2) {}

  bool next(std::string& line) {
    // +2: room for a CR, and one more byte to tell an over-long line from a full one.
    in_.getline(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    const auto read = static_cast<std::size_t>(in_.gcount());
    if (read == 0 && in_.eof()) return false;
    ++number_;
    if (in_.fail() && !in_.eof()) fail("line longer than " + number_text(max_line_bytes) + " bytes");
    const bool delimited = !in_.eof();  // a last line without a line break ends at EOF
    line.assign(buffer_.data(), delimited ? read - 1 : read);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.size() > max_line_bytes) fail("line longer than " + number_text(max_line_bytes) + " bytes");
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
  std::vector<char> buffer_;
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

/// A 16-bit flag mask: 0x-prefixed hexadecimal or decimal, at most 0xffff; else fails the
/// line naming `what`.
inline std::uint16_t parse_flag_mask(const LineReader& r, std::string_view field, const std::string& what) {
  unsigned long v = 0;
  const bool hex = field.size() > 2 && field[0] == '0' && (field[1] == 'x' || field[1] == 'X');
  const std::string_view digits = hex ? field.substr(2) : field;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, hex ? 16 : 10);
  if (ec != std::errc{} || end != digits.data() + digits.size() || v > 0xffff) {
    r.fail(what + " must be a number from 0 to 0xffff, got " + waymark::quoted(field));
  }
  return static_cast<std::uint16_t>(v);
}

}  // namespace waymark::io::detail
