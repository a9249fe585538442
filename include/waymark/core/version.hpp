#pragma once
/// @file The library's version at run time, beside the header's WAYMARK_VERSION_* macros.

#include <string_view>

#include "waymark/version.h"

namespace waymark {

/// The version of the library linked in ("MAJOR.MINOR.PATCH"): WAYMARK_VERSION_STRING as it
/// was when the library was compiled, which a program built against other headers can compare.
[[nodiscard]] std::string_view version() noexcept;

}  // namespace waymark
