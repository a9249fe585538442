#pragma once
// Forging preprocessing files the way an attacker would: patch the payload, then make the
// trailing checksum match again, so only the loader's own checks stand in the way.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "waymark/core/binary_io.hpp"

namespace waymark::test {

using waymark::checksum_bytes;

/// `bytes` (a whole file: payload, then checksum) with its checksum recomputed over the payload.
template <class Bytes>
void reseal(Bytes& bytes) {
  const std::size_t payload = bytes.size() - checksum_bytes;
  const ChecksumBytes sum = checksum_of(bytes.data(), payload);
  std::memcpy(bytes.data() + payload, sum.data(), checksum_bytes);
}

/// `bytes` with `size` bytes of `patch` written at `at`, resealed.
template <class Bytes>
Bytes forge(Bytes bytes, std::size_t at, const void* patch, std::size_t size) {
  std::memcpy(bytes.data() + at, patch, size);
  reseal(bytes);
  return bytes;
}

}  // namespace waymark::test
