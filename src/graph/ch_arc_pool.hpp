#pragma once
// The contraction's dynamic graph storage (internal to src/graph: not installed).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/core/errors.hpp"

namespace waymark::graph::ch_detail {

/// "No such index": the record of an original arc, an unset parent or arc.
inline constexpr std::uint32_t none = 0xFFFFFFFFu;

/// An arc of the remaining graph during contraction; `record` names the shortcut it stands
/// for, or none for an original arc.
struct DynArc {
  std::uint32_t other;
  std::uint32_t record;
  Cost weight;
};

/// The arcs of every vertex in one direction, each vertex's arcs contiguous in one shared
/// array (few cache misses, and vertices with nearby ids sit nearby, which the generated and
/// most real road graphs number spatially). A vertex that outgrows its room moves to the
/// end with twice the room; when half the array is abandoned room, it is rebuilt in vertex
/// order. Spans stay valid until the next push or compact().
class ArcPool {
 public:
  void assign(const std::vector<std::uint32_t>& counts) {
    slots_.assign(counts.size(), Slot{});
    std::size_t total = 0;
    for (const std::uint32_t c : counts) total += c;
    arcs_.clear();
    arcs_.reserve(total + total / 2);
    for (std::size_t v = 0; v < counts.size(); ++v) {
      slots_[v] = Slot{static_cast<std::uint32_t>(arcs_.size()), 0, counts[v]};
      arcs_.resize(arcs_.size() + counts[v]);
    }
    abandoned_ = 0;
  }

  [[nodiscard]] std::span<DynArc> arcs(std::uint32_t v) { return {arcs_.data() + slots_[v].begin, slots_[v].size}; }
  [[nodiscard]] std::span<const DynArc> arcs(std::uint32_t v) const {
    return {arcs_.data() + slots_[v].begin, slots_[v].size};
  }

  void push(std::uint32_t v, const DynArc& a) {
    Slot& s = slots_[v];
    if (s.size == s.capacity) {
      const std::uint32_t room = std::max<std::uint32_t>(min_room, s.capacity * 2);
      if (arcs_.size() + room > std::numeric_limits<std::uint32_t>::max())
        throw BuildError("a contraction hierarchy's build holds at most 2^32 - 1 arcs per direction");
      const auto begin = static_cast<std::uint32_t>(arcs_.size());
      arcs_.resize(arcs_.size() + room);
      std::copy_n(arcs_.begin() + s.begin, s.size, arcs_.begin() + begin);
      abandoned_ += s.capacity;
      s.begin = begin;
      s.capacity = room;
    }
    arcs_[s.begin + s.size++] = a;
  }

  /// Removes the arc to `other` (order not kept).
  void remove(std::uint32_t v, std::uint32_t other) {
    Slot& s = slots_[v];
    DynArc* a = arcs_.data() + s.begin;
    for (std::uint32_t i = 0; i < s.size; ++i) {
      if (a[i].other == other) {
        a[i] = a[--s.size];
        return;
      }
    }
  }

  void release(std::uint32_t v) {
    abandoned_ += slots_[v].capacity;
    slots_[v] = Slot{};
  }

  /// Rebuilds the array in vertex order once half of it is abandoned room.
  void compact_if_sparse() {
    if (abandoned_ * 2 < arcs_.size()) return;
    std::vector<DynArc> packed;
    packed.reserve(arcs_.size() - abandoned_);
    for (Slot& s : slots_) {
      const auto begin = static_cast<std::uint32_t>(packed.size());
      packed.insert(packed.end(), arcs_.begin() + s.begin, arcs_.begin() + s.begin + s.size);
      const std::uint32_t room = s.size + s.size / 2;
      packed.resize(packed.size() + (room - s.size));
      s = Slot{begin, s.size, room};
    }
    arcs_ = std::move(packed);
    abandoned_ = 0;
  }

 private:
  struct Slot {
    std::uint32_t begin = 0;
    std::uint32_t size = 0;
    std::uint32_t capacity = 0;
  };
  static constexpr std::uint32_t min_room = 4;

  std::vector<Slot> slots_;
  std::vector<DynArc> arcs_;
  std::size_t abandoned_ = 0;
};

}  // namespace waymark::graph::ch_detail
