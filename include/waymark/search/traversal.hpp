#pragma once
/// @file Uninformed traversals: breadth-first (fewest moves) and depth-first (any path).
/// One template; the frontier discipline (FIFO or LIFO) is the policy.

#include <cstdint>
#include <span>
#include <vector>

#include "waymark/search/budget.hpp"
#include "waymark/search/concepts.hpp"
#include "waymark/search/goal.hpp"
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

struct TraversalOptions {
  /// Most nodes one query may reach; beyond it the query fails with out_of_nodes.
  /// 0 = unlimited.
  std::size_t max_nodes = 0;
};

/// Graph traversal that ignores edge costs when choosing what to expand. The returned path's
/// cost is still the sum of its real edge costs (a source's initial cost included). A node is
/// closed when it is first taken from the frontier; the frontier may hold duplicates, so it
/// grows to at most the number of edges. Several sources start at depth 0.
template <SearchSpace Space, class Frontier, class Obs = NullObserver,
          class Table = default_node_table_t<Space>>
class TraversalSearch : public SearchCore<typename Space::node_type, Obs> {
  using Core = SearchCore<typename Space::node_type, Obs>;

 public:
  using Node = typename Space::node_type;
  using space_type = Space;

  explicit TraversalSearch(const Space& space, Frontier = {}, Obs observer = {}, TraversalOptions options = {})
      : Core(std::move(observer)), space_(&space), nodes_(options.max_nodes) {}
  explicit TraversalSearch(const Space&&, Frontier = {}, Obs = {}, TraversalOptions = {}) = delete;  // would dangle

  void begin(const Node& start, const Node& goal) {
    const Source<Node> source{start, 0};
    begin(std::span<const Source<Node>>(&source, 1), Goal<Node>::at(goal));
  }

  void begin(std::span<const Source<Node>> sources, const Goal<Node>& goal) {
    const typename Core::Timer timer(this->stats_);
    table_.reset(*space_);
    frontier_.clear();
    head_ = 0;
    nodes_.reset();
    this->start_query(goal);
    if (is_stale(*space_)) {
      this->finish_failure(StatusDetail::stale_world);
      return;
    }
    if (goal.kind() == Goal<Node>::Kind::node && !node_is_traversable(*space_, goal.node())) {
      this->finish_failure(endpoint_refusal(*space_, goal.node(), StatusDetail::goal_blocked));
      return;
    }
    for (const Source<Node>& s : sources) {
      if (!node_is_traversable(*space_, s.node)) continue;
      const SlotLookup l = table_.find_or_insert(*space_, s.node);
      if (l.fresh && !nodes_.admit()) {
        this->finish_failure(StatusDetail::out_of_nodes);
        return;
      }
      frontier_.push_back(Entry{l.slot, no_slot, s.cost});
      this->observer_.on_open(s.node, static_cast<const Node*>(nullptr), s.cost, Cost{0}, !l.fresh);
    }
    if (frontier_.empty()) {
      this->finish_failure(sources_refusal(*space_, sources));
      return;
    }
    this->note_frontier_size(frontier_.size());
  }

  /// Warm-up without a query: sizes the node table for the whole space (dense spaces).
  void reserve() { table_.reserve(*space_); }

  Status step(const Budget& budget = {}) {
    if (!this->status_.running()) return this->status_;
    const typename Core::Timer timer(this->stats_);
    if (is_stale(*space_)) {
      this->finish_failure(StatusDetail::stale_world);
      return this->status_;
    }
    const BudgetMeter meter(budget, this->stats_.expanded, this->stats_.generated);
    while (!meter.exhausted(this->stats_.expanded, this->stats_.generated)) {
      if (this->cancelled_) {
        this->finish_failure(StatusDetail::cancelled);
        break;
      }
      if (head_ == frontier_.size()) {
        this->finish_failure(StatusDetail::unreachable);
        break;
      }
      const Entry e = take();
      NodeRecord& r = table_[e.slot];
      if (r.g != infinite_cost) continue;  // already closed through an earlier entry
      r.g = e.g;
      r.parent = e.parent;
      const Node node = table_.node(*space_, e.slot);
      if (this->goal_.reached(node)) {
        this->observer_.on_goal(node, e.g);
        this->build_path(
            e.slot, no_slot, e.g, [&](std::uint32_t s) { return table_.node(*space_, s); },
            [&](std::uint32_t s) { return table_[s].parent; });
        this->finish_success();
        break;
      }
      this->observer_.on_expand(node, e.g, Cost{0});
      ++this->stats_.expanded;
      bool full = false;
      space_->for_each_successor(node, [&](const Node& succ, Cost edge_cost) {
        ++this->stats_.generated;
        this->observer_.on_generate(node, succ, e.g, edge_cost);
        const SlotLookup s = table_.find_or_insert(*space_, succ);
        if (table_[s.slot].g != infinite_cost) return;
        if (s.fresh && !nodes_.admit()) {
          full = true;
          return;
        }
        frontier_.push_back(Entry{s.slot, e.slot, e.g + edge_cost});
        this->observer_.on_open(succ, &node, e.g + edge_cost, Cost{0}, !s.fresh);
      });
      this->note_frontier_size(frontier_.size() - head_);
      this->observer_.on_close(node);
      if (full) {
        this->finish_failure(StatusDetail::out_of_nodes);
        break;
      }
    }
    this->stats_.scanned = this->stats_.generated;
    return this->end_step();
  }
  Status step(std::size_t max_expansions) { return step(Budget::of_expansions(max_expansions)); }

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
  NodeLimit nodes_;
  Table table_;
  std::vector<Entry> frontier_;
  std::size_t head_ = 0;  ///< FIFO read position; always 0 for LIFO
};

template <SearchSpace Space, class Obs = NullObserver>
using BreadthFirstSearch = TraversalSearch<Space, FifoFrontier, Obs>;
template <SearchSpace Space, class Obs = NullObserver>
using DepthFirstSearch = TraversalSearch<Space, LifoFrontier, Obs>;

}  // namespace waymark::search
