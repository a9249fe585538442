#pragma once
// The HTTP statuses the viewer's API and its server answer with (RFC 9110 §15), named once for
// both. Not installed: it is the CLI's, not the library's.

namespace waymark::web {

inline constexpr int http_ok = 200;
inline constexpr int http_bad_request = 400;
inline constexpr int http_not_found = 404;
inline constexpr int http_method_not_allowed = 405;
inline constexpr int http_length_required = 411;
inline constexpr int http_too_large = 413;
inline constexpr int http_unsupported_media_type = 415;
inline constexpr int http_too_many = 429;
inline constexpr int http_internal_error = 500;
inline constexpr int http_unavailable = 503;

}  // namespace waymark::web
