#pragma once
/// @file GenerationArray: a fixed-size array whose every element reads as unset again after
/// reset() in O(1). Each element carries the generation that last wrote it; reset() starts a
/// new generation instead of clearing memory. The one implementation of that trick: node
/// tables, hashed-table buckets, contraction-hierarchy queries and witness searches use it.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "waymark/core/assert.hpp"

namespace waymark::search {

/// The generation tag an element type carries: `T::stamp`, a std::uint32_t.
template <class T>
concept GenerationStamped = std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T> &&
                            std::is_default_constructible_v<T> && requires(T t) {
                              { t.stamp } -> std::convertible_to<std::uint32_t>;
                            };

/// Element lookup: the element, and whether it was unset (and has just been value-initialised).
template <class T>
struct Touched {
  T& element;
  bool fresh;
};

/// `size()` elements of T, each set (written in the current generation) or unset.
///
/// Memory comes from calloc, not a vector: an element only needs stamp 0 to read as unset, and
/// zeroed pages from the OS cost nothing until touched, so a first search over a large world
/// pays only for the pages it reaches. touch_all() pays for all of them up front (warm-up).
/// Allocation: assign() when the size changes; nothing else allocates.
template <GenerationStamped T>
class GenerationArray {
 public:
  GenerationArray() = default;
  GenerationArray(GenerationArray&&) noexcept = default;
  GenerationArray& operator=(GenerationArray&&) noexcept = default;

  /// Makes the array `n` elements long, all unset. Reallocates only when `n` changes.
  /// @throws std::bad_alloc when the memory cannot be had.
  void assign(std::size_t n) {
    if (n != size_ || !data_) {
      data_.reset(static_cast<T*>(std::calloc(n == 0 ? 1 : n, sizeof(T))));
      if (!data_) throw std::bad_alloc();
      size_ = n;
      generation_ = 0;
    }
    reset();
  }

  /// Every element unset. O(1), except once every 2^32 calls, when the stamps are cleared so
  /// that a stamp from the previous cycle cannot match.
  void reset() {
    if (++generation_ == 0) {
      for (std::size_t i = 0; i < size_; ++i) data_[i].stamp = 0;
      generation_ = 1;
    }
  }

  /// Writes every element once, so a first search pays no page faults. Elements stay unset.
  void touch_all() {
    if (size_ == 0) return;
    std::memset(static_cast<void*>(data_.get()), 0, size_ * sizeof(T));
    if (generation_ == 0) generation_ = 1;
  }

  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] std::size_t memory_bytes() const { return size_ * sizeof(T); }
  [[nodiscard]] bool is_set(std::size_t i) const { return data_[i].stamp == generation_; }

  /// Element i, value-initialised first when unset.
  Touched<T> touch(std::size_t i) {
    T& e = data_[i];
    if (e.stamp == generation_) return {e, false};
    e = T{};
    e.stamp = generation_;
    return {e, true};
  }

  /// Element i without a check: for elements known to be set.
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T[], Free> data_;
  std::size_t size_ = 0;
  std::uint32_t generation_ = 0;
};

/// A membership mark for GenerationArray: a set of indices emptied in O(1).
struct GenerationMark {
  std::uint32_t stamp = 0;
};

/// A set of indices 0..size()-1, emptied by reset() in O(1).
class GenerationSet {
 public:
  void assign(std::size_t n) { marks_.assign(n); }
  void reset() { marks_.reset(); }
  [[nodiscard]] std::size_t size() const { return marks_.size(); }
  [[nodiscard]] bool contains(std::size_t i) const { return marks_.is_set(i); }
  /// Adds i; true when it was not in the set.
  bool insert(std::size_t i) { return marks_.touch(i).fresh; }

 private:
  GenerationArray<GenerationMark> marks_;
};

}  // namespace waymark::search
