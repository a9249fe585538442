#pragma once
/// @file PagedNodeTable: node scratch that grows with the nodes a query reaches, in pages of
/// consecutive node indices, with an optional page budget. The sparse alternative to
/// DenseNodeTable (32 bytes per node of the whole world, search::NodeTableKind::sparse), for
/// many searches over one large world.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include "waymark/search/concepts.hpp"
#include "waymark/search/generation_array.hpp"
#include "waymark/search/node_table.hpp"

namespace waymark::search {
namespace detail {
/// A PagedNodeTable directory entry: the page holding a run of node indices, valid in the
/// current generation. (Outside the class: GenerationArray checks it is default-constructible,
/// which a nested class with member initialisers is not until its enclosing class is complete.)
struct PageEntry {
  NodeRecord* records = nullptr;
  std::uint32_t stamp = 0;
};
}  // namespace detail

/// Node records for one search over a DenseSearchSpace, allocated per touched page.
///
/// Node indices are cut into runs of 64 (grids: 64 cells of a row); a run's records (one 2 KiB
/// page) are taken from the table's page pool the first time a query reaches one of its nodes,
/// through a directory of one 16-byte entry per run (1/4 byte per node, allocated by reserve()).
/// A slot is the node's index, as in DenseNodeTable: the open list breaks ties by slot, so a
/// search over this table expands the same nodes in the same order and returns the same path
/// as over the dense one. Reset is O(1): the directory is a GenerationArray and the records
/// carry the table's generation, so the pool's pages serve the next query without clearing.
///
/// Memory: the directory, plus 2 KiB per page the largest query so far held (the pool keeps its
/// pages, so a reused table stops allocating after warm-up; measured ~100 bytes per expanded
/// node on Moving AI maps, docs/request_queue.md). With a page budget (set_max_pages),
/// exhausted() turns true once a query holds more pages, and the engine fails the query with
/// out_of_nodes after that expansion: one expansion may add a page per successor past it. So
/// with a budget the pool never holds more than the budget plus one expansion's pages (grids:
/// 6); without one it keeps the largest query's pages until the table is destroyed. Pages are
/// not given back between queries: freeing and taking them again would allocate per query.
/// Costs one more dependent load per record access than the dense table.
template <DenseSearchSpace Space>
class PagedNodeTable {
 public:
  using Node = typename Space::node_type;
  static constexpr unsigned page_bits = 6;
  static constexpr std::uint32_t page_records = 1u << page_bits;
  static constexpr std::size_t page_bytes = page_records * sizeof(NodeRecord);  ///< 2 KiB

  /// Most pages one query may hold; 0 = no limit. Takes effect at once.
  void set_max_pages(std::size_t pages) { max_pages_ = pages; }
  [[nodiscard]] std::size_t max_pages() const { return max_pages_; }

  /// Sizes the directory for the space (O(nodes / 64)); no pages.
  void reserve(const Space& space) { reset(space); }

  /// Starts a new query: O(1), except when the space's size changed (the directory is
  /// allocated again) and once every 2^32 queries (the pages' stamps are cleared).
  void reset(const Space& space) {
    const std::size_t runs = (space.node_count() + page_records - 1) >> page_bits;
    if (runs != directory_.size() || node_count_ != space.node_count()) {
      directory_.assign(runs);
      node_count_ = space.node_count();
    } else {
      directory_.reset();
    }
    if (++generation_ == 0) {  // stamps of the previous cycle could match again
      for (const PagePtr& page : pages_) {
        for (std::uint32_t i = 0; i < page_records; ++i) page.get()[i].stamp = 0;
      }
      generation_ = 1;
    }
    used_ = 0;
    reached_ = 0;
  }

  SlotLookup find_or_insert(const Space& space, const Node& n) {
    const auto slot = static_cast<std::uint32_t>(space.index_of(n));
    Touched<detail::PageEntry> entry = directory_.touch(slot >> page_bits);
    if (entry.fresh) entry.element.records = take_page();
    NodeRecord& r = entry.element.records[slot & page_mask];
    if (r.stamp == generation_) return {slot, false};
    r = NodeRecord{};
    r.stamp = generation_;
    ++reached_;
    return {slot, true};
  }

  /// The slot of `n` if this query has reached it, else no_slot.
  [[nodiscard]] std::uint32_t find(const Space& space, const Node& n) const {
    const auto slot = static_cast<std::uint32_t>(space.index_of(n));
    if (!directory_.is_set(slot >> page_bits)) return no_slot;
    return (*this)[slot].stamp == generation_ ? slot : no_slot;
  }

  NodeRecord& operator[](std::uint32_t slot) { return directory_[slot >> page_bits].records[slot & page_mask]; }
  const NodeRecord& operator[](std::uint32_t slot) const {
    return directory_[slot >> page_bits].records[slot & page_mask];
  }
  Node node(const Space& space, std::uint32_t slot) const { return space.node_at(slot); }

  /// Whether the query holds more pages than its budget (the engine then fails it).
  [[nodiscard]] bool exhausted() const { return max_pages_ != 0 && used_ > max_pages_; }
  /// Nodes the current query has reached.
  [[nodiscard]] std::size_t size() const { return reached_; }
  /// Pages the current query holds, and pages in the pool (the most any query held).
  [[nodiscard]] std::size_t pages_in_use() const { return used_; }
  [[nodiscard]] std::size_t pages_pooled() const { return pages_.size(); }
  /// Bytes held: pooled pages, the directory and the pool's list.
  [[nodiscard]] std::size_t memory_bytes() const {
    return pages_.size() * page_bytes + directory_.memory_bytes() + pages_.capacity() * sizeof(PagePtr);
  }

 private:
  static constexpr std::uint32_t page_mask = page_records - 1;
  static constexpr std::size_t page_alignment = 64;  ///< records never straddle a cache line

  struct FreePage {
    void operator()(NodeRecord* p) const { std::free(p); }
  };
  using PagePtr = std::unique_ptr<NodeRecord[], FreePage>;

  /// The next page of the pool; a new one when the pool is used up.
  NodeRecord* take_page() {
    if (used_ == pages_.size()) {
      void* memory = std::aligned_alloc(page_alignment, page_bytes);
      if (memory == nullptr) throw std::bad_alloc();
      auto* records = static_cast<NodeRecord*>(memory);
      for (std::uint32_t i = 0; i < page_records; ++i) ::new (&records[i]) NodeRecord{};  // stamp 0: unset
      pages_.emplace_back(records);
    }
    return pages_[used_++].get();
  }

  GenerationArray<detail::PageEntry> directory_;  ///< per run of page_records indices: its page
  std::vector<PagePtr> pages_;                    ///< the pool; the first used_ belong to this query
  std::size_t node_count_ = 0;
  std::size_t used_ = 0;
  std::size_t reached_ = 0;
  std::size_t max_pages_ = 0;
  std::uint32_t generation_ = 0;
};

}  // namespace waymark::search
