#pragma once
// The target of an HTTP request (RFC 9112 §3.2, origin form: "/path?query"), as `waymark serve`
// reads it before anything else: the path percent-decoded, the query split into parameters.
// Not installed: it is the CLI's, not the library's. Fuzzed by fuzz/http_target.cpp.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace waymark::web {

/// Most parameters one query string may give (a request naming more is refused, 400): the
/// API's routes read at most one.
inline constexpr std::size_t max_target_params = 64;

/// A request target, decoded.
struct Target {
  std::string path;                           ///< "/api/map", percent-decoded ("+" stays "+")
  std::map<std::string, std::string> params;  ///< the query's key=value pairs ("+" is a space); the first of a repeated key wins
};

/// `raw` ("/api/map?name=arena") decoded, or why it cannot be: it does not start with "/",
/// its decoded path holds a control character (a byte below 0x20 or 0x7f, "%00" among them:
/// "/index.html%00.js" would otherwise name index.html), or its query gives more than
/// max_target_params parameters. A "%" not followed by two hex digits stays as it is.
struct TargetOrError {
  std::optional<Target> target;
  std::string error;  ///< set when target is empty
};
[[nodiscard]] TargetOrError parse_target(std::string_view raw);

/// `text` with each "%XX" replaced by its byte; with `plus_is_space`, "+" becomes " " (the
/// query string's form encoding).
[[nodiscard]] std::string percent_decode(std::string_view text, bool plus_is_space);

}  // namespace waymark::web
