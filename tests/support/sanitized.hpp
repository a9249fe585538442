#pragma once
// Whether this test program is built with AddressSanitizer (the ASan+UBSan tree of make test).
//
// A few exhaustive tests run a sample of their cases there: ASan is there to find memory
// errors, and every code path an exhaustive test reaches is reached by a representative share
// of its cases; the release tree runs them all, and that is where their answers are checked
// in full (docs/build.md, "Exhaustive in release, a sample under ASan").

namespace waymark::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool sanitized = true;
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
inline constexpr bool sanitized = true;
#  else
inline constexpr bool sanitized = false;
#  endif
#else
inline constexpr bool sanitized = false;
#endif

/// `full` in an ordinary build, `sample` under AddressSanitizer.
template <class T>
constexpr T full_or_sanitized(T full, T sample) {
  return sanitized ? sample : full;
}

}  // namespace waymark::test
