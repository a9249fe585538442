#pragma once
// The node table of the shortest mode's search (Polyanya, polyanya.hpp). Not installed.
//
// The engine's hashed table (search::HashedNodeTable) hashed all six fields of an interval
// node and probed open addresses: 10 % of a terrain query's instructions. Here a node is
// found by the polygon edge it enters through, directly: a generation-stamped head per edge
// (per corner of the mesh) starts the list of this query's nodes on that edge, compared in
// full. Nodes without an edge (the start, the goal, a turn in the goal's polygon, a link's
// landing) share a few more heads, by their root; so do the nodes rooted at a link's landing,
// by root and edge (many landings may see one edge: a list per edge would grow with them, a
// lookup with it). Slots are given in the order nodes are first seen, as the hashed table gave
// them: the search runs exactly as before.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "waymark/navmesh/nav_query.hpp"
#include "waymark/search/node_table.hpp"

namespace waymark::navmesh::detail {

/// A node table (as search::HashedNodeTable) for a Space of IntervalNode with corner_count(),
/// first_landing_root() and landing_root_count(). Memory: 8 bytes per mesh corner, 16 per link
/// traversal (at least 512 bytes), and per node reached in the largest query so far its record,
/// node and list link (grown, never shrunk: no allocation per query after warm-up).
template <class Space>
class IntervalNodeTable {
 public:
  using Node = IntervalNode;

  void reserve(const Space&) {}

  void reset(const Space& space) {
    shared_ = std::bit_ceil(std::max<std::size_t>(min_shared_heads, 2 * space.landing_root_count()));
    const std::size_t heads = space.corner_count() + shared_;
    first_landing_ = space.first_landing_root();
    if (heads_.size() != heads) {
      heads_.assign(heads, Head{});
      generation_ = 0;
    }
    if (++generation_ == 0) {  // once every 2^32 queries: no stamp of the last cycle may match
      for (Head& h : heads_) h.stamp = 0;
      generation_ = 1;
    }
    edgeless_ = space.corner_count();
    size_ = 0;
  }

  search::SlotLookup find_or_insert(const Space&, const Node& n) {
    Head& head = heads_[head_of(n)];
    const std::uint32_t first = head.stamp == generation_ ? head.slot : search::no_slot;
    for (std::uint32_t s = first; s != search::no_slot; s = entries_[s].next) {
      if (same(entries_[s].node, n)) return {s, false};
    }
    if (size_ == entries_.size()) grow();
    const std::uint32_t slot = size_++;
    entries_[slot] = {n, first};
    records_[slot] = search::NodeRecord{};
    head = {slot, generation_};
    return {slot, true};
  }

  [[nodiscard]] std::uint32_t find(const Space&, const Node& n) const {
    if (heads_.empty()) return search::no_slot;
    const Head& head = heads_[head_of(n)];
    if (head.stamp != generation_) return search::no_slot;
    for (std::uint32_t s = head.slot; s != search::no_slot; s = entries_[s].next) {
      if (same(entries_[s].node, n)) return s;
    }
    return search::no_slot;
  }

  search::NodeRecord& operator[](std::uint32_t slot) { return records_[slot]; }
  const search::NodeRecord& operator[](std::uint32_t slot) const { return records_[slot]; }
  const Node& node(const Space&, std::uint32_t slot) const { return entries_[slot].node; }
  [[nodiscard]] std::size_t size() const { return size_; }
  /// Bytes held (records, nodes with their list links, heads).
  [[nodiscard]] std::size_t memory_bytes() const {
    return records_.size() * sizeof(search::NodeRecord) + entries_.size() * sizeof(Entry) + heads_.size() * sizeof(Head);
  }

 private:
  /// The fewest heads shared by the nodes without an edge or rooted at a landing (chosen by
  /// root and edge): twice the landings, a power of two, at least this.
  static constexpr std::size_t min_shared_heads = 64;
  static constexpr std::uint32_t no_edge = PolyId::invalid_value;

  [[nodiscard]] std::size_t head_of(const Node& n) const {
    if ((n.edge != no_edge) & (n.root < first_landing_)) return n.edge;
    return edgeless_ + ((n.root + n.edge * 0x9e3779b1U) & (shared_ - 1));
  }
  /// IntervalNode's ==, field by field, without a branch per field.
  static bool same(const Node& a, const Node& b) {
    return (a.root == b.root) & (a.edge == b.edge) & (a.poly == b.poly) & (a.left.x == b.left.x) &
           (a.left.y == b.left.y) & (a.right.x == b.right.x) & (a.right.y == b.right.y);
  }

  [[gnu::noinline, gnu::cold]] void grow() {
    const std::size_t size = entries_.empty() ? initial_slots : entries_.size() * 2;
    entries_.resize(size);
    records_.resize(size);
  }
  static constexpr std::size_t initial_slots = 256;

  /// The first slot of a head's list (the latest node added to it), valid when its stamp is
  /// this query's generation.
  struct Head {
    std::uint32_t slot = 0;
    std::uint32_t stamp = 0;
  };
  /// A node and the next slot in its head's list.
  struct Entry {
    Node node;
    std::uint32_t next = search::no_slot;
  };

  std::vector<Head> heads_;
  std::uint32_t generation_ = 0;
  std::size_t edgeless_ = 0;  // the first head of the nodes without an edge or rooted at a landing
  std::size_t shared_ = min_shared_heads;  // how many heads those share (a power of two)
  std::uint32_t first_landing_ = PolyId::invalid_value;  // the first root at a link's landing
  std::uint32_t size_ = 0;    // slots given in this query
  std::vector<Entry> entries_;
  std::vector<search::NodeRecord> records_;
};

}  // namespace waymark::navmesh::detail
