#include "web/encoding.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <optional>
#include <stdexcept>

namespace waymark::web {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

/// The q-value of one "coding;q=0.5" element: 1 without one, 0 for a malformed one.
double q_value(std::string_view params) {
  while (!params.empty()) {
    const std::size_t semicolon = params.find(';');
    const std::string_view param = trim(params.substr(0, semicolon));
    params = semicolon == std::string_view::npos ? std::string_view{} : params.substr(semicolon + 1);
    const std::size_t eq = param.find('=');
    if (eq == std::string_view::npos || !equals_ignoring_case(trim(param.substr(0, eq)), "q")) continue;
    const std::string_view value = trim(param.substr(eq + 1));
    // RFC 9110: q = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ); anything else is not a weight.
    double q = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), q);
    if (ec != std::errc{} || end != value.data() + value.size() || !(q >= 0 && q <= 1)) return 0;
    return q;
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
    const std::size_t comma = accept_encoding.find(',');
    const std::string_view element = trim(accept_encoding.substr(0, comma));
    accept_encoding = comma == std::string_view::npos ? std::string_view{} : accept_encoding.substr(comma + 1);
    const std::size_t semicolon = element.find(';');
    const std::string_view coding = trim(element.substr(0, semicolon));
    const double q = semicolon == std::string_view::npos ? 1.0 : q_value(element.substr(semicolon + 1));
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
  constexpr std::size_t max_bytes = std::size_t{1} << 30;  // zlib counts in 32 bits; replies are far smaller
  if (data.size() > max_bytes) throw std::length_error("gzip: over 1 GiB in one reply");
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
