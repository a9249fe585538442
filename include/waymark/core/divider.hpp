#pragma once
/// @file Division of 32-bit numbers by a divisor fixed at construction, by one multiplication:
/// hot loops that turn a cell index into (x, y) avoid two hardware divisions.

#include <cstdint>

#include "waymark/core/assert.hpp"

namespace waymark {

/// Exact floor(n / d) and n mod d for every 32-bit n and d ≥ 1. With M = ⌊(2^64 − 1) / d⌋ + 1,
/// floor(n / d) is the high 64 bits of M·n (Lemire, Kaser & Kurz, "Faster remainder by direct
/// computation", 2019). d = 1 would need M = 2^64, so it takes its own branch.
class Divider {
 public:
  explicit Divider(std::uint32_t d) : d_(d), m_(d > 1 ? UINT64_MAX / d + 1 : 0) { WAYMARK_ASSERT(d >= 1); }

  [[nodiscard]] std::uint32_t divisor() const { return d_; }

  [[nodiscard]] std::uint32_t quotient(std::uint32_t n) const {
    if (d_ == 1) return n;
    __extension__ using u128 = unsigned __int128;
    return static_cast<std::uint32_t>((static_cast<u128>(m_) * n) >> 64);
  }

  struct QuotientRemainder {
    std::uint32_t quotient;
    std::uint32_t remainder;
  };
  [[nodiscard]] QuotientRemainder divide(std::uint32_t n) const {
    const std::uint32_t q = quotient(n);
    return {q, n - q * d_};
  }

 private:
  std::uint32_t d_;
  std::uint64_t m_;
};

}  // namespace waymark
