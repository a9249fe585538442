#pragma once
/// @file Binary files with a trailing checksum: what every preprocessing file (JPS+ tables,
/// landmarks, contraction hierarchies, route tables, pattern databases) writes and reads. Truncation, trailing data and a checksum
/// mismatch become LoadError(file, 0, reason).

#include <algorithm>
#include <array>
#include <cstddef>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/core/hash.hpp"

namespace waymark {

/// Creates (or truncates) `path` and writes it through `write(std::ostream&)`. Every save()
/// goes through here, so each reports failure the same way: SaveError(path, reason).
template <class Write>
void save_file(const std::string& path, Write&& write) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw SaveError(path, std::string("cannot open for writing: ") + std::strerror(errno));
  write(out);
  out.flush();
  if (!out) throw SaveError(path, "write failed (is the disk full?)");
}

/// Opens `path` for reading (binary mode), or throws LoadError(path, 0, reason): "cannot open
/// file", or "is a directory, not a file" (a directory opens as a stream that never ends).
/// Every loader opens its files through here.
std::ifstream open_input_file(const std::string& path);

/// Opens `path` for reading and returns load(std::istream&): every path-taking load() goes
/// through here, so each reports an unreadable file the same way: LoadError(path, 0, "cannot
/// open file").
template <class Load>
auto load_file(const std::string& path, Load&& load) {
  std::ifstream in = open_input_file(path);
  return load(in);
}

/// Size of the checksum that ends every checksummed file.
inline constexpr std::size_t checksum_bytes = 8;
using ChecksumBytes = std::array<unsigned char, checksum_bytes>;

/// A checksum as it is written: little-endian.
[[nodiscard]] inline ChecksumBytes checksum_bytes_of(std::uint64_t sum) {
  ChecksumBytes le{};
  for (std::size_t i = 0; i < le.size(); ++i) le[i] = static_cast<unsigned char>(sum >> (8 * i));
  return le;
}

/// The bytes ChecksummedWriter appends after `size` bytes of payload (Hasher over them): what
/// a file's last checksum_bytes must be.
[[nodiscard]] inline ChecksumBytes checksum_of(const void* data, std::size_t size) {
  Hasher h;
  h.add_bytes(static_cast<const unsigned char*>(data), size);
  return checksum_bytes_of(h.value());
}

/// Writes raw bytes and hashes them; finish() appends the checksum (8 bytes, little-endian).
class ChecksummedWriter {
 public:
  explicit ChecksummedWriter(std::ostream& out) : out_(&out) {}

  void bytes(const void* data, std::size_t size) {
    sum_.add_bytes(static_cast<const unsigned char*>(data), size);
    out_->write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  template <class T>
  void array(const std::vector<T>& v) {
    bytes(v.data(), v.size() * sizeof(T));
  }
  void finish() {
    const ChecksumBytes le = checksum_bytes_of(sum_.value());
    out_->write(reinterpret_cast<const char*>(le.data()), static_cast<std::streamsize>(le.size()));
  }

 private:
  std::ostream* out_;
  Hasher sum_;
};

/// Reads exact byte counts and hashes them; finish() checks the checksum and the end of file.
class ChecksummedReader {
 public:
  ChecksummedReader(std::istream& in, const std::string& name) : in_(&in), name_(&name) {}
  ChecksummedReader(std::istream&, const std::string&&) = delete;  // would dangle

  [[noreturn]] void fail(const std::string& reason) const { throw LoadError(*name_, 0, reason); }

  void bytes(void* data, std::size_t size, const char* what) {
    in_->read(static_cast<char*>(data), static_cast<std::streamsize>(size));
    if (static_cast<std::size_t>(in_->gcount()) != size) fail(std::string("truncated file (in the ") + what + ")");
    sum_.add_bytes(static_cast<const unsigned char*>(data), size);
  }
  /// `count` elements into `v`, read in chunks so a forged count cannot allocate more than
  /// the file holds before the shortfall is noticed.
  template <class T>
  void array(std::vector<T>& v, std::size_t count, const char* what) {
    constexpr std::size_t chunk_bytes = std::size_t{1} << 20;
    v.clear();
    const std::size_t chunk = std::max<std::size_t>(1, chunk_bytes / sizeof(T));
    for (std::size_t done = 0; done < count;) {
      const std::size_t n = std::min(chunk, count - done);
      v.resize(done + n);
      bytes(v.data() + done, n * sizeof(T), what);
      done += n;
    }
    v.shrink_to_fit();
  }
  void finish() {
    ChecksumBytes le{};
    in_->read(reinterpret_cast<char*>(le.data()), static_cast<std::streamsize>(le.size()));
    if (static_cast<std::size_t>(in_->gcount()) != le.size()) fail("truncated file (in the checksum)");
    if (le != checksum_bytes_of(sum_.value())) fail("corrupt file: checksum mismatch");
    if (in_->peek() != std::char_traits<char>::eof()) fail("corrupt file: data after the checksum");
  }

 private:
  std::istream* in_;
  const std::string* name_;
  Hasher sum_;
};

}  // namespace waymark
