#pragma once
// How `waymark serve` encodes its replies. cpp-httplib, its server library before issue 32,
// compressed every text or JSON reply with Brotli at quality 11 whenever the client accepted it
// (Chromium always does): 5.7 s for the 4 MB reply of a traced den520d search that took 0.04 s
// to send as it is. The server chooses the encoding here (docs/viewer.md has the measurements
// behind it).
// Not installed: it is the CLI's, not the library's.

#include <cstddef>
#include <string>
#include <string_view>

#include "waymark/core/enum_names.hpp"

namespace waymark::web {

/// `waymark serve --compress`.
enum class Compression {
  automatic,  ///< none to loopback clients (the bytes cost nothing there), gzip to others that accept it
  none,       ///< never compress
  gzip,       ///< gzip whenever the client accepts it
};

/// Each mode's spelling (`--compress`).
inline constexpr EnumNames<Compression, 3> compression_names{
    {{Compression::automatic, "auto"}, {Compression::none, "none"}, {Compression::gzip, "gzip"}}};

/// zlib's level for gzip replies: 1, the fastest. Measured on the API's replies (docs/viewer.md):
/// the 4 MB traced search goes out in 0.060 s at level 1 (16% of its size), 0.098 s at level 6
/// (11%), 0.041 s as it is: level 1 delivers sooner than level 6 on any link faster than about
/// 50 Mbit/s (a LAN, where a viewer on another machine is), and sending it as it is sooner still
/// on loopback, where bytes cost nothing.
inline constexpr int gzip_level = 1;

/// Replies shorter than this are never compressed: a TCP segment carries them either way.
inline constexpr std::size_t min_compressed_bytes = 1400;

/// Whether `address` (as the server reports a peer: "127.0.0.1", "::1", "::ffff:127.0.0.1")
/// is a loopback address.
[[nodiscard]] bool is_loopback(std::string_view address);

/// Whether an Accept-Encoding header value admits gzip: a "gzip", "x-gzip" or "*" coding whose
/// q-value is not 0 (RFC 9110 §12.5.3; a coding named twice counts by its first mention).
[[nodiscard]] bool accepts_gzip(std::string_view accept_encoding);

/// Whether a reply of `bytes` to the client at `remote_address` that sent `accept_encoding`
/// goes gzip-compressed under `mode`.
[[nodiscard]] bool use_gzip(Compression mode, std::string_view remote_address, std::string_view accept_encoding,
                            std::size_t bytes);

/// The most bytes gzip() takes at once: zlib counts in 32 bits, and the API's replies are far
/// smaller (a traced query stops at ApiLimits::max_events, about 35 MB).
inline constexpr std::size_t max_gzip_bytes = std::size_t{1} << 30;

/// `data` as a gzip stream (RFC 1952) at `level` (zlib's 1 to 9). Throws std::length_error
/// beyond max_gzip_bytes, before reading any of it.
[[nodiscard]] std::string gzip(std::string_view data, int level = gzip_level);

}  // namespace waymark::web
