// How `waymark serve` chooses and makes its reply encoding (src/web/encoding.hpp).
#include "web/encoding.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <zlib.h>

#include <stdexcept>

#include <random>
#include <string>

namespace web_encoding_test {
namespace {

using waymark::web::Compression;

/// `packed` inflated by zlib as a gzip stream; "" when it is not one.
std::string inflate_gzip(const std::string& packed) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) return "";
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
  z.avail_in = static_cast<uInt>(packed.size());
  std::string out;
  char buf[16384];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  const bool whole = rc == Z_STREAM_END && z.avail_in == 0;
  inflateEnd(&z);
  return whole ? out : "";
}

TEST(ReplyEncoding, AcceptEncodingIsReadWithItsWeights) {
  for (const char* yes : {"gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.5", "GZIP", "x-gzip", "*",
                          "deflate, *;q=0.1", " gzip ; q=1 ", "br, gzip;q=0.001"}) {
    EXPECT_TRUE(waymark::web::accepts_gzip(yes)) << yes;
  }
  for (const char* no : {"", "br", "deflate, br, zstd", "gzip;q=0", "gzip;q=0.000", "*;q=0", "gzip;q=0, *",
                         "gzip;q=nonsense", "gzip;q=2", "gzipx", "identity"}) {
    EXPECT_FALSE(waymark::web::accepts_gzip(no)) << no;
  }
}

TEST(ReplyEncoding, LoopbackClientsGetRepliesAsTheyAreUnlessAsked) {
  for (const char* loopback : {"127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"})
    EXPECT_TRUE(waymark::web::is_loopback(loopback)) << loopback;
  for (const char* remote : {"10.0.0.7", "192.168.1.2", "::ffff:10.0.0.1", "2001:db8::1", "", "1.127.0.0"})
    EXPECT_FALSE(waymark::web::is_loopback(remote)) << remote;

  const std::size_t big = 100000;
  const char* chromium = "gzip, deflate, br, zstd";
  EXPECT_FALSE(use_gzip(Compression::automatic, "127.0.0.1", chromium, big));
  EXPECT_TRUE(use_gzip(Compression::automatic, "192.168.1.2", chromium, big));
  EXPECT_FALSE(use_gzip(Compression::automatic, "192.168.1.2", "br", big));
  EXPECT_FALSE(use_gzip(Compression::automatic, "192.168.1.2", chromium, waymark::web::min_compressed_bytes - 1));
  EXPECT_TRUE(use_gzip(Compression::gzip, "127.0.0.1", chromium, big));
  EXPECT_FALSE(use_gzip(Compression::gzip, "127.0.0.1", "", big));
  EXPECT_FALSE(use_gzip(Compression::none, "192.168.1.2", chromium, big));
}

TEST(ReplyEncoding, GzipRoundTripsThroughZlib) {
  std::mt19937 rng(7);
  std::string events;
  for (int i = 0; i < 20000; ++i)
    events += R"({"event":"open","node":[)" + std::to_string(rng() % 512) + "," + std::to_string(rng() % 512) + "]},";
  std::string noise(70000, '\0');
  for (char& c : noise) c = static_cast<char>(rng());
  for (const std::string& text : {std::string{}, std::string("x"), events, noise}) {
    for (const int level : {1, 6, 9}) {
      const std::string packed = waymark::web::gzip(text, level);
      ASSERT_GE(packed.size(), 18u) << "a gzip header and trailer";
      EXPECT_EQ(static_cast<unsigned char>(packed[0]), 0x1f);
      EXPECT_EQ(static_cast<unsigned char>(packed[1]), 0x8b);
      EXPECT_EQ(inflate_gzip(packed), text) << text.size() << " bytes at level " << level;
    }
  }
  EXPECT_LT(waymark::web::gzip(events).size() * 5, events.size());
}

TEST(ReplyEncoding, GzipRefusesMoreThanItsLimitBeforeReadingIt) {
  // Address space only: gzip must refuse from the length, before touching a page.
  const std::size_t size = waymark::web::max_gzip_bytes + 1;
  void* pages = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(pages, MAP_FAILED);
  EXPECT_THROW((void)waymark::web::gzip(std::string_view(static_cast<const char*>(pages), size)), std::length_error);
  munmap(pages, size);
}

}  // namespace
}  // namespace web_encoding_test
