#pragma once
/// @file Overridable assertion macro.
///
/// Define WAYMARK_ASSERT before including any waymark header to route failures to your own
/// handler (e.g. a game engine's crash reporter). The default calls waymark::assert_failed(),
/// which prints the location and aborts. Compiled out when WAYMARK_DISABLE_ASSERTS is defined.

namespace waymark {
/// Default handler: writes "file:line: assertion failed: expr" to stderr and aborts.
[[noreturn]] void assert_failed(const char* expr, const char* file, int line) noexcept;
}  // namespace waymark

#ifndef WAYMARK_ASSERT
#  ifdef WAYMARK_DISABLE_ASSERTS
#    define WAYMARK_ASSERT(expr) ((void)0)
#  else
#    define WAYMARK_ASSERT(expr) \
       ((expr) ? (void)0 : ::waymark::assert_failed(#expr, __FILE__, __LINE__))
#  endif
#endif
