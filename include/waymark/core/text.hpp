#pragma once
/// @file Text shown to people: input echoed safely in messages.

#include <charconv>
#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

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

/// `v` for a message: the shortest text that reads back as exactly `v`, in plain digits from
/// 0.0001 up to 1e15 ("0.3", "0.0001", "1000000") and in exponent form beyond ("1e-09",
/// "1e+300"), "inf", "nan"; never std::to_string's six fixed decimals ("0.000000" for 1e-9).
/// The one way numbers are written into messages (docs/robustness.md, "Numbers in messages"):
/// the library, the CLI and the server use no std::to_string (the source_rules test checks).
inline std::string number_text(double v) {
  constexpr double plain_from = 1e-4;
  constexpr double plain_below = 1e15;
  char buf[64];
  const double magnitude = v < 0 ? -v : v;
  const bool plain = magnitude == 0 || (magnitude >= plain_from && magnitude < plain_below);
  const auto r = plain ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
                       : std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

/// A computed measure (a distance, an area) for a message, rounded to `significant_digits`
/// first so that rounding noise does not show: 0.40000000000000036 is "0.4" at 15 digits. Input
/// values and limits are written exactly, by number_text(v).
inline std::string number_text(double v, int significant_digits) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, significant_digits);
  double rounded = v;
  std::from_chars(buf, r.ptr, rounded);
  return number_text(rounded);
}

/// A whole number for a message, in decimal digits ("16777216", "-3").
template <std::integral T>
  requires(!std::same_as<T, bool>)
std::string number_text(T v) {
  char buf[24];
  const auto r = std::is_signed_v<T> ? std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v))
                                     : std::to_chars(buf, buf + sizeof buf, static_cast<unsigned long long>(v));
  return std::string(buf, r.ptr);
}

/// Two numbers as a point or cell for a message: "(x, y)" (separator ", "), or "(x,y)".
template <class T>
std::string pair_text(T x, T y, std::string_view separator = ", ") {
  std::string s = number_text(x);  // built up front: GCC 12 misreads "(" + number_text (-Wrestrict)
  s.insert(s.begin(), '(');
  s += separator;
  s += number_text(y);
  s += ')';
  return s;
}

}  // namespace waymark
