#pragma once
/// @file An indexed d-ary min-heap with decrease-key.

#include <cstdint>
#include <vector>

#include "waymark/core/assert.hpp"
#include "waymark/core/cost.hpp"

namespace waymark {

/// Min-heap of (key, g, slot) ordered by key, ties broken toward *larger* g (deeper nodes
/// first, which finishes A* sooner on plateaus). Each slot's position is written through
/// `PositionMap::set_position(slot, pos)` so decrease_key is O(log_d n) without a search.
///
/// Allocation: push may grow the entry vector; clear() keeps capacity, so a reused heap stops
/// allocating once it has seen its largest size.
template <unsigned Arity, class PositionMap>
class IndexedDaryHeap {
  static_assert(Arity >= 2, "a heap needs at least two children per node");

 public:
  struct Entry {
    Cost key;
    Cost g;
    std::uint32_t slot;
  };

  explicit IndexedDaryHeap(PositionMap& positions) : positions_(&positions) {}

  [[nodiscard]] bool empty() const { return entries_.empty(); }
  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  [[nodiscard]] const Entry& top() const {
    WAYMARK_ASSERT(!entries_.empty());
    return entries_.front();
  }
  void clear() { entries_.clear(); }
  void reserve(std::size_t n) { entries_.reserve(n); }

  void push(std::uint32_t slot, Cost key, Cost g) {
    entries_.push_back(Entry{key, g, slot});
    sift_up(entries_.size() - 1);
  }

  /// Lowers the key of a slot already in the heap at position `pos`.
  void decrease_key(std::uint32_t pos, Cost key, Cost g) {
    WAYMARK_ASSERT(pos < entries_.size());
    entries_[pos].key = key;
    entries_[pos].g = g;
    sift_up(pos);
  }

  /// Removes and returns the minimum entry.
  Entry pop() {
    WAYMARK_ASSERT(!entries_.empty());
    Entry best = entries_.front();
    Entry last = entries_.back();
    entries_.pop_back();
    if (!entries_.empty()) {
      entries_.front() = last;
      sift_down(0);
    }
    return best;
  }

 private:
  static bool before(const Entry& a, const Entry& b) {
    return a.key < b.key || (a.key == b.key && a.g > b.g);
  }

  void place(std::size_t pos, const Entry& e) {
    entries_[pos] = e;
    positions_->set_position(e.slot, static_cast<std::uint32_t>(pos));
  }

  void sift_up(std::size_t pos) {
    const Entry moving = entries_[pos];
    while (pos > 0) {
      const std::size_t parent = (pos - 1) / Arity;
      if (!before(moving, entries_[parent])) break;
      place(pos, entries_[parent]);
      pos = parent;
    }
    place(pos, moving);
  }

  void sift_down(std::size_t pos) {
    const Entry moving = entries_[pos];
    const std::size_t n = entries_.size();
    for (;;) {
      const std::size_t first = pos * Arity + 1;
      if (first >= n) break;
      const std::size_t end = first + Arity < n ? first + Arity : n;
      std::size_t best = first;
      for (std::size_t c = first + 1; c < end; ++c) {
        if (before(entries_[c], entries_[best])) best = c;
      }
      if (!before(entries_[best], moving)) break;
      place(pos, entries_[best]);
      pos = best;
    }
    place(pos, moving);
  }

  PositionMap* positions_;
  std::vector<Entry> entries_;
};

}  // namespace waymark
