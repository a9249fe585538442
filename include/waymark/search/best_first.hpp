#pragma once
/// @file The one best-first search engine. A*, weighted A*, Dijkstra and greedy best-first are
/// this template with a different Priority policy (see priorities.hpp).

#include <cstddef>
#include <cstdint>

#include "waymark/search/concepts.hpp"
#include "waymark/search/indexed_heap.hpp"
#include "waymark/search/node_table.hpp"
#include "waymark/search/observer.hpp"
#include "waymark/search/priorities.hpp"
#include "waymark/search/search_core.hpp"

namespace waymark::search {

struct BestFirstOptions {
  /// Put closed nodes reached again with a lower g back on the open list. Needed for optimal
  /// results with admissible but inconsistent heuristics; never triggers with consistent ones.
  bool reopen_closed = true;
  /// Node-table limit for hashed (implicit-space) tables; 0 = unlimited. Dense tables hold
  /// every node of the world and ignore it.
  std::size_t max_nodes = 0;
  /// On failure, leave in path() the route to the expanded node with the lowest h (ties:
  /// lowest g) and flag the status PartialResult.
  bool partial_result = false;
};

/// Children per heap node; 4 measured best for grid searches (shallower than binary, and the
/// four children share a cache line).
inline constexpr unsigned default_heap_arity = 4;

/// Best-first search over `Space`, keyed by `Priority`, guided by `H`, reporting to `Obs`.
///
/// Steppable: begin(start, goal), then step(budget) until the status is finished; path() and
/// stats() describe the result. The object owns all scratch and is meant to be reused: after
/// the first queries have grown its tables, a query allocates nothing. Not thread-safe; use one
/// per thread (the world it reads may be shared).
template <SearchSpace Space, class Priority, class H = ZeroHeuristic, class Obs = NullObserver,
          class Table = default_node_table_t<Space>>
  requires Heuristic<H, typename Space::node_type>
class BestFirstSearch : public SearchCore<typename Space::node_type, Obs> {
  using Core = SearchCore<typename Space::node_type, Obs>;

 public:
  using Node = typename Space::node_type;

  explicit BestFirstSearch(const Space& space, H heuristic = {}, Priority priority = {},
                           BestFirstOptions options = {}, Obs observer = {})
      : Core(std::move(observer)),
        space_(&space),
        heuristic_(std::move(heuristic)),
        priority_(priority),
        options_(options),
        open_(positions_) {
    table_.set_max_nodes(options_.max_nodes);
    positions_.table = &table_;
  }

  BestFirstSearch(const BestFirstSearch&) = delete;
  BestFirstSearch& operator=(const BestFirstSearch&) = delete;

  /// Starts a query; previous results are discarded. A start or goal that the space reports as
  /// not traversable ends the query at once with Failure.
  void begin(const Node& start, const Node& goal) {
    const typename Core::Timer timer(this->stats_);
    table_.reset(*space_);
    open_.clear();
    goal_ = goal;
    closest_ = no_slot;
    this->start_query(start, goal);
    if (!node_is_traversable(*space_, start) || !node_is_traversable(*space_, goal)) {
      this->finish_failure();
    } else {
      const SlotLookup s = table_.find_or_insert(*space_, start);
      NodeRecord& r = table_[s.slot];
      r.g = 0;
      r.h = estimate(start);
      open_.push(s.slot, priority_(r.g, r.h), r.g);
      this->note_frontier_size(1);
      this->observer_.on_open(start, r.g, r.h, false);
    }
  }

  /// Warm-up without a query: sizes the node table for the whole space, so even the first
  /// query allocates nothing and touches no fresh memory.
  void reserve() { table_.reserve(*space_); }

  /// Expands at most `max_expansions` nodes. Returns Running while there is more to do.
  Status step(std::size_t max_expansions = unlimited_expansions) {
    if (!this->status_.running()) return this->status_;
    const typename Core::Timer timer(this->stats_);
    for (std::size_t n = 0; n < max_expansions; ++n) {
      if (this->cancelled_) {
        fail(StatusDetail::cancelled);
        break;
      }
      if (open_.empty()) {
        fail(StatusDetail::none);
        break;
      }
      const std::uint32_t slot = open_.pop().slot();
      NodeRecord& current = table_[slot];
      current.heap_pos = NodeRecord::not_open;
      const Node node = table_.node(*space_, slot);
      if (node == goal_) {
        this->observer_.on_goal(node, current.g);
        build_path_to(slot);
        this->finish_success();
        break;
      }
      this->observer_.on_expand(node, current.g);
      ++this->stats_.expanded;
      if (options_.partial_result && (closest_ == no_slot || closer(current, table_[closest_]))) closest_ = slot;
      expand(node, slot);
      this->observer_.on_close(node);
      if (out_of_nodes_) {
        out_of_nodes_ = false;
        fail(StatusDetail::out_of_nodes);
        break;
      }
    }
    return this->status_;
  }

  [[nodiscard]] const Space& space() const { return *space_; }

  /// Best known cost-so-far of `n` in the current query (infinite if never reached).
  [[nodiscard]] Cost g_of(const Node& n) const {
    const std::uint32_t slot = table_.find(*space_, n);
    return slot == no_slot ? infinite_cost : table_[slot].g;
  }

 private:
  /// Lets the heap write positions straight into the node records.
  struct PositionSink {
    Table* table = nullptr;
    void set_position(std::uint32_t slot, std::uint32_t pos) { (*table)[slot].heap_pos = pos; }
  };

  Cost estimate(const Node& n) const {
    if constexpr (Priority::uses_heuristic) {
      return static_cast<Cost>(heuristic_(n, goal_));
    } else {
      (void)n;
      return 0;
    }
  }

  static bool closer(const NodeRecord& a, const NodeRecord& b) {
    return a.h < b.h || (a.h == b.h && a.g < b.g);
  }

  void expand(const Node& node, std::uint32_t slot) {
    const Cost g = table_[slot].g;
    const auto relax = [&](const Node& succ, Cost edge_cost) {
      ++this->stats_.generated;
      const SlotLookup s = table_.find_or_insert(*space_, succ);
      if (s.slot == no_slot) {
        out_of_nodes_ = true;
        return;
      }
      NodeRecord& r = table_[s.slot];
      const Cost new_g = g + edge_cost;
      if (s.fresh) {
        r.h = estimate(succ);
      } else if (!(new_g < r.g)) {
        return;
      }
      const bool improved = !s.fresh;
      r.g = new_g;
      r.parent = slot;
      const Cost key = priority_(new_g, r.h);
      if (r.is_open()) {
        open_.decrease_key(r.heap_pos, key, new_g);
      } else if (s.fresh || options_.reopen_closed) {
        this->stats_.reopened += improved ? 1 : 0;
        open_.push(s.slot, key, new_g);
      } else {
        return;  // closed, better g recorded for the path, but not re-expanded
      }
      this->observer_.on_open(succ, new_g, r.h, improved);
    };
    if constexpr (ParentAwareSearchSpace<Space>) {
      const std::uint32_t parent_slot = table_[slot].parent;
      if (parent_slot == no_slot) {
        space_->for_each_successor(node, static_cast<const Node*>(nullptr), goal_, relax);
      } else {
        const Node parent = table_.node(*space_, parent_slot);
        space_->for_each_successor(node, &parent, goal_, relax);
      }
    } else {
      space_->for_each_successor(node, relax);
    }
    this->note_frontier_size(open_.size());
  }

  void build_path_to(std::uint32_t slot) {
    this->build_path(
        slot, no_slot, table_[slot].g, [&](std::uint32_t s) { return table_.node(*space_, s); },
        [&](std::uint32_t s) { return table_[s].parent; });
  }

  void fail(StatusDetail why) {
    if (options_.partial_result && closest_ != no_slot) {
      build_path_to(closest_);
      why = why | StatusDetail::partial_result;
    }
    this->finish_failure(why);
  }

  const Space* space_;
  H heuristic_;
  Priority priority_;
  BestFirstOptions options_;
  Table table_;
  PositionSink positions_;
  IndexedDaryHeap<default_heap_arity, PositionSink> open_;
  Node goal_{};
  std::uint32_t closest_ = no_slot;
  bool out_of_nodes_ = false;
};

/// The named searches: one engine, four policies.
template <SearchSpace Space, class H, class Obs = NullObserver>
using AStar = BestFirstSearch<Space, AStarPriority, H, Obs>;
template <SearchSpace Space, class H, class Obs = NullObserver>
using WeightedAStar = BestFirstSearch<Space, WeightedAStarPriority, H, Obs>;
template <SearchSpace Space, class Obs = NullObserver>
using Dijkstra = BestFirstSearch<Space, DijkstraPriority, ZeroHeuristic, Obs>;
template <SearchSpace Space, class H, class Obs = NullObserver>
using GreedyBestFirst = BestFirstSearch<Space, GreedyPriority, H, Obs>;

}  // namespace waymark::search
