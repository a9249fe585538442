#include "web/encoding.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <optional>
#include <stdexcept>

#include "io/text_lines.hpp"  // io::detail::parse_number

namespace waymark::web {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// The next item of a `separator`-separated list, trimmed; `rest` keeps what follows it.
std::string_view next_item(std::string_view& rest, char separator) {
  const std::size_t at = rest.find(separator);
  const std::string_view item = trim(rest.substr(0, at));
  rest = at == std::string_view::npos ? std::string_view{} : rest.substr(at + 1);
  return item;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

/// The q-value of a coding's parameters ("q=0.5;..."): 1 without one, 0 for one that is not a
/// number from 0 to 1 (RFC 9110 §12.4.2).
double q_value(std::string_view params) {
  while (!params.empty()) {
    const std::string_view param = next_item(params, ';');
    const std::size_t eq = param.find('=');
    if (eq == std::string_view::npos || !equals_ignoring_case(trim(param.substr(0, eq)), "q")) continue;
    double q = 0;
    return io::detail::parse_number(trim(param.substr(eq + 1)), q) && q >= 0 && q <= 1 ? q : 0;  // NaN fails both
  }
  return 1;
}

}  // namespace

bool is_loopback(std::string_view address) {
  if (address.starts_with("::ffff:")) address.remove_prefix(7);  // IPv4 mapped into IPv6
  return address.starts_with("127.") || address == "::1" || address == "0:0:0:0:0:0:0:1";
}

bool accepts_gzip(std::string_view accept_encoding) {
  std::optional<double> gzip_q;
  std::optional<double> any_q;
  while (!accept_encoding.empty()) {
    std::string_view params = next_item(accept_encoding, ',');
    const std::string_view coding = next_item(params, ';');
    const double q = q_value(params);
    if ((equals_ignoring_case(coding, "gzip") || equals_ignoring_case(coding, "x-gzip")) && !gzip_q) gzip_q = q;
    if (coding == "*" && !any_q) any_q = q;
  }
  if (gzip_q) return *gzip_q > 0;
  return any_q && *any_q > 0;
}

bool use_gzip(Compression mode, std::string_view remote_address, std::string_view accept_encoding, std::size_t bytes) {
  if (mode == Compression::none || bytes < min_compressed_bytes || !accepts_gzip(accept_encoding)) return false;
  return mode == Compression::gzip || !is_loopback(remote_address);
}

std::string gzip(std::string_view data, int level) {
  if (data.size() > max_gzip_bytes) throw std::length_error("gzip: over 1 GiB in one reply");
  z_stream z{};
  constexpr int gzip_window_bits = 15 + 16;  // 32 KiB window, gzip header and trailer
  constexpr int memory_level = 8;            // zlib's default
  if (deflateInit2(&z, level, Z_DEFLATED, gzip_window_bits, memory_level, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("gzip: deflateInit2 failed");
  // deflateBound is enough room for the whole stream, so one Z_FINISH call ends it.
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("gzip: deflate failed");
  return out;
}

}  // namespace waymark::web
