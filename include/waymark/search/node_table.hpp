#pragma once
/// @file Per-query node scratch: g, h, parent and open-list position for every node a search
/// touches, reset in O(1) between queries by bumping a generation stamp.

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/search/concepts.hpp"
#include "waymark/search/generation_array.hpp"

namespace waymark::search {

inline constexpr std::uint32_t no_slot = std::numeric_limits<std::uint32_t>::max();

/// Scratch for one node. `heap_pos == not_open` means closed (expanded, or never pushed).
struct NodeRecord {
  static constexpr std::uint32_t not_open = std::numeric_limits<std::uint32_t>::max();

  Cost g = infinite_cost;
  Cost h = 0;
  std::uint32_t parent = no_slot;
  std::uint32_t heap_pos = not_open;
  std::uint32_t origin = 0;  ///< sources: their index among begin()'s sources
  std::uint32_t stamp = 0;   ///< generation that last wrote this record (dense tables only)

  [[nodiscard]] bool is_open() const { return heap_pos != not_open; }
};
static_assert(sizeof(NodeRecord) == 32, "a record is half a cache line");

/// Result of a lookup: the node's slot, and whether this query has not seen it before (its
/// record was just initialised).
struct SlotLookup {
  std::uint32_t slot;
  bool fresh;
};

/// Flat table indexed by the space's node index; for DenseSearchSpace worlds.
/// Memory: one NodeRecord (32 bytes) per node of the world, allocated on the first query
/// (see GenerationArray: untouched pages cost nothing) or by reserve().
template <DenseSearchSpace Space>
class DenseNodeTable {
 public:
  using Node = typename Space::node_type;

  /// Starts a new query: O(1) except on the first call (allocation) and every 2^32 queries.
  void reset(const Space& space) {
    if (records_.size() != space.node_count()) {
      records_.assign(space.node_count());
    } else {
      records_.reset();
    }
  }

  /// Allocates and touches the records now, so the first query runs as fast as the rest
  /// (otherwise it pays the page faults of every page it touches).
  void reserve(const Space& space) {
    reset(space);
    records_.touch_all();
  }

  SlotLookup find_or_insert(const Space& space, const Node& n) {
    const auto slot = static_cast<std::uint32_t>(space.index_of(n));
    return {slot, records_.touch(slot).fresh};
  }

  /// The slot of `n` if this query has seen it, else no_slot.
  [[nodiscard]] std::uint32_t find(const Space& space, const Node& n) const {
    const auto slot = static_cast<std::uint32_t>(space.index_of(n));
    return records_.is_set(slot) ? slot : no_slot;
  }

  NodeRecord& operator[](std::uint32_t slot) { return records_[slot]; }
  const NodeRecord& operator[](std::uint32_t slot) const { return records_[slot]; }
  Node node(const Space& space, std::uint32_t slot) const { return space.node_at(slot); }
  [[nodiscard]] std::size_t memory_bytes() const { return records_.memory_bytes(); }

 private:
  GenerationArray<NodeRecord> records_;
};

/// Open-addressing hash table from node to slot, for implicit spaces whose nodes cannot be
/// numbered up front (puzzle states). Reset is O(1) (bucket stamps); growth rehashes, so a
/// reused table stops allocating once it has held its largest query.
template <class Space, class Hash = std::hash<typename Space::node_type>>
class HashedNodeTable {
 public:
  using Node = typename Space::node_type;

  explicit HashedNodeTable(Hash hash = {}) : hash_(hash) {}

  /// Implicit spaces have no size to reserve for; the table grows with use.
  void reserve(const Space&) {}

  void reset(const Space&) {
    records_.clear();
    nodes_.clear();
    buckets_.reset();
  }

  SlotLookup find_or_insert(const Space&, const Node& n) {
    if (buckets_.size() == 0 || (nodes_.size() + 1) * 2 > buckets_.size()) grow();
    std::size_t b = bucket_of(n);
    for (; buckets_.is_set(b); b = (b + 1) & mask_) {
      if (nodes_[buckets_[b].slot] == n) return {buckets_[b].slot, false};
    }
    const auto slot = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back(n);
    records_.emplace_back();
    buckets_.touch(b).element.slot = slot;
    return {slot, true};
  }

  [[nodiscard]] std::uint32_t find(const Space&, const Node& n) const {
    if (buckets_.size() == 0) return no_slot;
    for (std::size_t b = bucket_of(n); buckets_.is_set(b); b = (b + 1) & mask_) {
      if (nodes_[buckets_[b].slot] == n) return buckets_[b].slot;
    }
    return no_slot;
  }

  NodeRecord& operator[](std::uint32_t slot) { return records_[slot]; }
  const NodeRecord& operator[](std::uint32_t slot) const { return records_[slot]; }
  Node node(const Space&, std::uint32_t slot) const { return nodes_[slot]; }
  [[nodiscard]] std::size_t size() const { return nodes_.size(); }
  /// Bytes held (capacities: records, nodes, buckets).
  [[nodiscard]] std::size_t memory_bytes() const {
    return records_.capacity() * sizeof(NodeRecord) + nodes_.capacity() * sizeof(Node) + buckets_.memory_bytes();
  }

 private:
  static constexpr std::size_t initial_buckets = 1024;
  static constexpr std::uint64_t fibonacci_multiplier = 0x9E3779B97F4A7C15ull;

  std::size_t bucket_of(const Node& n) const {
    // Fibonacci mixing spreads weak hashes (std::hash of integers is the identity).
    return static_cast<std::size_t>(static_cast<std::uint64_t>(hash_(n)) * fibonacci_multiplier >>
                                    shift_);
  }

  void grow() {
    const std::size_t size = buckets_.size() == 0 ? initial_buckets : buckets_.size() * 2;
    buckets_.assign(size);
    mask_ = size - 1;
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(size));
    for (std::uint32_t slot = 0; slot < nodes_.size(); ++slot) {
      std::size_t b = bucket_of(nodes_[slot]);
      while (buckets_.is_set(b)) b = (b + 1) & mask_;
      buckets_.touch(b).element.slot = slot;
    }
  }

  /// A bucket: the slot of the node hashed there, valid in the current generation.
  struct Bucket {
    std::uint32_t slot = 0;
    std::uint32_t stamp = 0;
  };

  std::vector<NodeRecord> records_;
  std::vector<Node> nodes_;
  GenerationArray<Bucket> buckets_;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
  Hash hash_;
};

/// Dense spaces get the flat table, implicit ones the hashed table.
template <class Space>
struct default_node_table {
  using type = HashedNodeTable<Space>;
};
template <DenseSearchSpace Space>
struct default_node_table<Space> {
  using type = DenseNodeTable<Space>;
};
template <class Space>
using default_node_table_t = typename default_node_table<Space>::type;

}  // namespace waymark::search
