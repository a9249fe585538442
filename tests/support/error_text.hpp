#pragma once
// The message a call fails with, for tests that check error texts.

#include <string>

namespace waymark::test {

/// What `f()` throws as an `Error`, as its what(); "" when it does not throw.
template <class Error, class F>
std::string error_text(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace waymark::test
