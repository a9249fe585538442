#pragma once
/// @file Assertions, and what happens when one fails: a handler chosen at run time.
///
/// WAYMARK_ASSERT(expr) guards the library's preconditions (in Release too). When one fails,
/// waymark::assert_failed() calls the handler set with set_assert_handler(); when there is
/// none, or the handler returns, it throws AssertionFailure, which the library's callers see
/// like any other exception: a C++ program may catch it, an uncaught one ends the program
/// with the message; the C API (waymark.h) turns it into WM_ERROR_INTERNAL and a message,
/// so a C, C# or Python host gets an error instead of a dead process. A handler that must not
/// return (a game engine's crash reporter) may abort itself.
///
/// Define WAYMARK_ASSERT before including any waymark header to replace the macro at compile
/// time; it is compiled out when WAYMARK_DISABLE_ASSERTS is defined.

#include <stdexcept>
#include <string>

namespace waymark {

/// What a failed assertion throws when no handler ends it: "file:line: assertion failed: expr".
class AssertionFailure : public std::logic_error {
 public:
  AssertionFailure(const char* expr, const char* file, int line);
  [[nodiscard]] const char* file() const noexcept { return file_; }
  [[nodiscard]] int line() const noexcept { return line_; }

 private:
  const char* file_;
  int line_;
};

/// Called with the failed expression, the file and line of the WAYMARK_ASSERT, and the context
/// given to set_assert_handler(). Any thread may call it. When it returns, AssertionFailure is
/// thrown.
using AssertHandler = void (*)(const char* expr, const char* file, int line, void* context);

/// Installs `handler` (null: none, the default) for every thread; returns the previous one.
/// Thread-safe.
AssertHandler set_assert_handler(AssertHandler handler, void* context = nullptr) noexcept;

/// Reports a failed assertion: calls the handler, then throws AssertionFailure.
[[noreturn]] void assert_failed(const char* expr, const char* file, int line);

}  // namespace waymark

#ifndef WAYMARK_ASSERT
#  ifdef WAYMARK_DISABLE_ASSERTS
#    define WAYMARK_ASSERT(expr) ((void)0)
#  else
#    define WAYMARK_ASSERT(expr) \
       ((expr) ? (void)0 : ::waymark::assert_failed(#expr, __FILE__, __LINE__))
#  endif
#endif
