#pragma once
/// @file Non-cryptographic 64-bit hashing for fingerprints (is this table for this world?)
/// and file checksums (is this file intact?). The values are part of waymark's file formats:
/// changing them needs a format version bump in every file that stores them.

#include <bit>
#include <cstddef>
#include <cstdint>

namespace waymark {

/// splitmix64's finaliser: a cheap, well-mixing permutation of 64-bit values.
[[nodiscard]] constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Streaming hash of 64-bit words and of bytes (taken as little-endian words, a short last
/// word zero-padded, the byte count mixed in), order-sensitive.
class Hasher {
 public:
  void add(std::uint64_t word) { h_ = (std::rotl(h_, 27) ^ mix64(word)) * golden_ratio; }

  void add_bytes(const unsigned char* p, std::size_t n) {
    bytes_ += n;
    for (std::size_t i = 0; i < n; ++i) {
      partial_ |= std::uint64_t{p[i]} << (8 * partial_length_);
      if (++partial_length_ == 8) {
        add(partial_);
        partial_ = 0;
        partial_length_ = 0;
      }
    }
  }

  [[nodiscard]] std::uint64_t value() const {
    Hasher h = *this;
    if (h.partial_length_ != 0) h.add(h.partial_);
    h.add(h.bytes_);
    return mix64(h.h_);
  }

 private:
  static constexpr std::uint64_t golden_ratio = 0x9e3779b97f4a7c15ull;
  std::uint64_t h_ = 0x243f6a8885a308d3ull;  // any fixed start
  std::uint64_t partial_ = 0;
  unsigned partial_length_ = 0;
  std::uint64_t bytes_ = 0;
};

}  // namespace waymark
