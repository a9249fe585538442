#pragma once
/// @file Text shown to people: input echoed safely in messages.

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>

namespace waymark {

/// `s` in single quotes for a message, with bytes outside printable ASCII written as \xNN (no
/// control bytes reach the terminal, no NUL cuts the message) and the middle of a long text
/// elided.
inline std::string quoted(std::string_view s) {
  constexpr std::size_t shown = 60;
  static constexpr char hex[] = "0123456789abcdef";
  std::string out(1, '\'');
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s.size() > shown && i == shown / 2) {
      out += "...";
      i = s.size() - shown / 2;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xf];
    }
  }
  out += '\'';
  return out;
}

/// `v` for a message: the shortest text that reads back as exactly `v` ("0.3", "1e-09",
/// "10000", "inf", "nan"), never std::to_string's six fixed decimals ("0.000000" for 1e-9).
inline std::string number_text(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace waymark
