#pragma once
/// @file Uninformed traversals: breadth-first (fewest moves) and depth-first (any path).
/// One template; the frontier discipline (FIFO or LIFO) is the policy.

#include <cstdint>
#include <vector>

#include "waymark/search/concepts.hpp"
#include "waymark/search/node_table.hpp"
#include "waymark/search/observer.hpp"
#include "waymark/search/search_core.hpp"

namespace waymark::search {

/// FIFO frontier: nodes are expanded in order of discovery depth, so the first path to reach
/// the goal has the fewest moves.
struct FifoFrontier {
  static constexpr bool fifo = true;
};
/// LIFO frontier: the most recently discovered node is expanded first (true DFS order).
struct LifoFrontier {
  static constexpr bool fifo = false;
};

/// Graph traversal that ignores edge costs when choosing what to expand. The returned path's
/// cost is still the sum of its real edge costs. A node is closed when it is first taken from
/// the frontier; the frontier may hold duplicates, so it grows to at most the number of edges.
template <SearchSpace Space, class Frontier, class Obs = NullObserver,
          class Table = default_node_table_t<Space>>
class TraversalSearch : public SearchCore<typename Space::node_type, Obs> {
  using Core = SearchCore<typename Space::node_type, Obs>;

 public:
  using Node = typename Space::node_type;

  explicit TraversalSearch(const Space& space, Obs observer = {})
      : Core(std::move(observer)), space_(&space) {}

  void begin(const Node& start, const Node& goal) {
    const typename Core::Timer timer(this->stats_);
    table_.reset(*space_);
    frontier_.clear();
    head_ = 0;
    goal_ = goal;
    this->start_query(start, goal);
    if (!node_is_traversable(*space_, start) || !node_is_traversable(*space_, goal)) {
      this->finish_failure();
      return;
    }
    const SlotLookup s = table_.find_or_insert(*space_, start);
    frontier_.push_back(Entry{s.slot, no_slot, 0});
    this->note_frontier_size(1);
    this->observer_.on_open(start, Cost{0}, Cost{0}, false);
  }

  Status step(std::size_t max_expansions = unlimited_expansions) {
    if (!this->status_.running()) return this->status_;
    const typename Core::Timer timer(this->stats_);
    for (std::size_t n = 0; n < max_expansions;) {
      if (this->cancelled_) {
        this->finish_failure(StatusDetail::cancelled);
        break;
      }
      if (head_ == frontier_.size()) {
        this->finish_failure();
        break;
      }
      const Entry e = take();
      NodeRecord& r = table_[e.slot];
      if (r.g != infinite_cost) continue;  // already closed through an earlier entry
      r.g = e.g;
      r.parent = e.parent;
      const Node node = table_.node(*space_, e.slot);
      if (node == goal_) {
        this->observer_.on_goal(node, e.g);
        this->build_path(
            e.slot, no_slot, e.g, [&](std::uint32_t s) { return table_.node(*space_, s); },
            [&](std::uint32_t s) { return table_[s].parent; });
        this->finish_success();
        break;
      }
      this->observer_.on_expand(node, e.g);
      ++this->stats_.expanded;
      ++n;
      space_->for_each_successor(node, [&](const Node& succ, Cost edge_cost) {
        ++this->stats_.generated;
        const SlotLookup s = table_.find_or_insert(*space_, succ);
        if (s.slot == no_slot || table_[s.slot].g != infinite_cost) return;
        frontier_.push_back(Entry{s.slot, e.slot, e.g + edge_cost});
        this->observer_.on_open(succ, e.g + edge_cost, Cost{0}, !s.fresh);
      });
      this->note_frontier_size(frontier_.size() - head_);
      this->observer_.on_close(node);
    }
    return this->status_;
  }

  [[nodiscard]] const Space& space() const { return *space_; }

 private:
  struct Entry {
    std::uint32_t slot;
    std::uint32_t parent;
    Cost g;
  };

  Entry take() {
    if constexpr (Frontier::fifo) {
      return frontier_[head_++];
    } else {
      const Entry e = frontier_.back();
      frontier_.pop_back();
      return e;
    }
  }

  const Space* space_;
  Table table_;
  std::vector<Entry> frontier_;
  std::size_t head_ = 0;  ///< FIFO read position; always 0 for LIFO
  Node goal_{};
};

template <SearchSpace Space, class Obs = NullObserver>
using BreadthFirstSearch = TraversalSearch<Space, FifoFrontier, Obs>;
template <SearchSpace Space, class Obs = NullObserver>
using DepthFirstSearch = TraversalSearch<Space, LifoFrontier, Obs>;

}  // namespace waymark::search
