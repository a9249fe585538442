#pragma once
/// @file The version counter and bounded edit log every editable world keeps, so data derived
/// from it (masks, tables, heuristic bounds) can catch up incrementally, or know it must
/// rebuild, and is never used while behind.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace waymark {

/// Versions and the most recent edits of a world. `Change` carries a `std::uint64_t version`,
/// set by record() to the world's version after the edit.
template <class Change>
class ChangeLog {
 public:
  /// Edits kept; derived data that fell further behind rebuilds in full.
  static constexpr std::size_t capacity = 4096;

  /// 0 until the first edit; then the number of edits so far.
  [[nodiscard]] std::uint64_t version() const { return version_; }

  /// Counts one edit and keeps it. Allocates once, at the first edit (room for twice the
  /// capacity), so that edits at run time (a door in a running game) allocate nothing after.
  void record(Change change) {
    if (changes_.capacity() == 0) changes_.reserve(2 * capacity + 1);
    change.version = ++version_;
    changes_.push_back(change);
    // Trimmed in halves, so the cost of erasing is spread over `capacity` edits.
    if (changes_.size() > 2 * capacity) {
      const auto keep_from = changes_.end() - static_cast<std::ptrdiff_t>(capacity);
      oldest_ = (keep_from - 1)->version;
      changes_.erase(changes_.begin(), keep_from);
    }
  }

  /// The edits after `version`, oldest first (empty when there are none); nullopt when the log
  /// no longer reaches back that far.
  [[nodiscard]] std::optional<std::span<const Change>> since(std::uint64_t version) const {
    if (version < oldest_) return std::nullopt;
    const auto first = std::upper_bound(changes_.begin(), changes_.end(), version,
                                        [](std::uint64_t v, const Change& c) { return v < c.version; });
    return std::span<const Change>(changes_.data() + (first - changes_.begin()),
                                   static_cast<std::size_t>(changes_.end() - first));
  }

 private:
  std::uint64_t version_ = 0;
  std::uint64_t oldest_ = 0;  ///< since() reaches back to this version
  std::vector<Change> changes_;
};

}  // namespace waymark
