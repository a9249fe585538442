#pragma once
/// @file The one best-first search engine. A*, weighted A*, Dijkstra and greedy best-first are
/// this template with a different Priority policy (see priorities.hpp).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "waymark/search/budget.hpp"
#include "waymark/search/concepts.hpp"
#include "waymark/search/goal.hpp"
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
  /// Most nodes one query may reach (put in its node table); beyond it the query fails with
  /// out_of_nodes (checked after each expansion, so one node's successors may go past it).
  /// 0 = unlimited (dense spaces are then bounded by their size).
  std::size_t max_nodes = 0;
  /// When a started search fails (unreachable, out_of_nodes, cancelled: run_within's limits
  /// cancel), leave in path() the route from the start to the expanded node with the lowest h
  /// (ties: lowest g) and flag the status partial_result. Refusals at begin() have no path.
  bool partial_result = false;
};

/// Children per heap node; 4 measured best for grid searches (shallower than binary, and the
/// four children share a cache line).
inline constexpr unsigned default_heap_arity = 4;

/// Best-first search over `Space`, guided by `H`, keyed by `Priority`, reporting to `Obs`.
///
/// Steppable: begin(start, goal) — or begin(sources, goal) for several starts with initial
/// costs and a goal that is a node list, a predicate or nothing (one-to-all) — then
/// step(budget) until the status is finished; path() and stats() describe the result, and
/// g_of(), parent_of(), origin_of() every node reached (Dijkstra maps, regions).
///
/// The object owns all scratch and is meant to be reused: after the first queries have grown
/// its tables, a query allocates nothing. Not thread-safe; use one per thread (the world it
/// reads may be shared).
template <SearchSpace Space, class H = ZeroHeuristic, class Priority = AStarPriority, class Obs = NullObserver,
          class Table = default_node_table_t<Space>>
  requires Heuristic<H, typename Space::node_type>
class BestFirstSearch : public SearchCore<typename Space::node_type, Obs> {
  using Core = SearchCore<typename Space::node_type, Obs>;

 public:
  using Node = typename Space::node_type;
  using space_type = Space;

  explicit BestFirstSearch(const Space& space, H heuristic = {}, Priority priority = {}, Obs observer = {},
                           BestFirstOptions options = {})
      : Core(std::move(observer)),
        space_(&space),
        heuristic_(std::move(heuristic)),
        priority_(priority),
        options_(options),
        max_nodes_(options.max_nodes),
        open_(positions_) {
    positions_.table = &table_;
  }
  explicit BestFirstSearch(const Space&&, H = {}, Priority = {}, Obs = {}, BestFirstOptions = {}) = delete;  // would dangle

  BestFirstSearch(const BestFirstSearch&) = delete;
  BestFirstSearch& operator=(const BestFirstSearch&) = delete;

  /// Starts a query from one node to one node; previous results are discarded. A start or
  /// goal that the space reports as not traversable ends the query at once with Failure
  /// (invalid_query plus start_blocked, goal_blocked or out_of_bounds: endpoint_refusal).
  void begin(const Node& start, const Node& goal) {
    const Source<Node> source{start, 0};
    begin(std::span<const Source<Node>>(&source, 1), Goal<Node>::at(goal));
  }

  /// Starts a query from every source at once (each with its initial cost, the cheapest
  /// kept for a repeated node). Sources that are not traversable are left out; with none left,
  /// or none given, the query fails at once. A Kind::node goal that is not traversable fails
  /// at once too. origin_of(n) tells which source a node's best path starts from.
  void begin(std::span<const Source<Node>> sources, const Goal<Node>& goal) {
    const typename Core::Timer timer(this->stats_);
    table_.reset(*space_);
    open_.clear();
    closest_ = no_slot;
    extra_scanned_ = 0;
    this->start_query(goal);
    if (refuse_stale()) return;
    if (goal.kind() == Goal<Node>::Kind::node && !node_is_traversable(*space_, goal.node())) {
      this->finish_failure(endpoint_refusal(*space_, goal.node(), StatusDetail::goal_blocked));
      return;
    }
    for (std::uint32_t i = 0; i < sources.size(); ++i) {
      const Source<Node>& s = sources[i];
      if (!node_is_traversable(*space_, s.node)) continue;
      const SlotLookup l = table_.find_or_insert(*space_, s.node);
      NodeRecord& r = table_[l.slot];
      if (l.fresh) {
        r.h = estimate(s.node);
      } else if (!(s.cost < r.g)) {
        continue;
      }
      r.g = s.cost;
      r.origin = i;
      const Cost key = priority_(r.g, r.h);
      if (r.is_open()) {
        open_.decrease_key(r.heap_pos, key, r.g);
      } else {
        open_.push(l.slot, key, r.g);
      }
      this->observer_.on_open(s.node, static_cast<const Node*>(nullptr), r.g, r.h, !l.fresh);
    }
    if (open_.empty()) {
      this->finish_failure(sources_refusal(*space_, sources));
      return;
    }
    if (over_node_limit()) {
      this->finish_failure(StatusDetail::out_of_nodes);
      return;
    }
    this->note_frontier_size(open_.size());
  }

  /// Warm-up without a query: sizes the node table for the whole space, so even the first
  /// query allocates nothing and touches no fresh memory.
  void reserve() { table_.reserve(*space_); }
  /// Sizes the open list for `nodes` entries (16 bytes each).
  void reserve_open(std::size_t nodes) { open_.reserve(nodes); }

  /// Expands nodes until the search finishes or the budget is used up (then Running).
  Status step(const Budget& budget = {}) {
    if (!this->status_.running()) return this->status_;
    const typename Core::Timer timer(this->stats_);
    if (refuse_stale()) return this->status_;
    if (budget.is_unlimited()) {  // the one-shot query: no budget to check per expansion
      while (expand_next()) {
      }
    } else {
      const BudgetMeter meter(budget, this->stats_.expanded, scan_count());
      while (!meter.exhausted(this->stats_.expanded, scan_count()) && expand_next()) {
      }
    }
    if constexpr (CostAwareSearchSpace<Space>) {
      this->stats_.scanned = this->stats_.generated + extra_scanned_;
    } else if constexpr (!ScanningSearchSpace<Space>) {
      this->stats_.scanned = this->stats_.generated;
    }
    return this->end_step();
  }
  /// Expands at most `max_expansions` nodes.
  Status step(std::size_t max_expansions) { return step(Budget::of_expansions(max_expansions)); }

  /// One expansion, or the end of the search, without budget, timing or slice events: for
  /// searches built from this one (bidirectional Dijkstra). False once the search finished.
  [[gnu::always_inline]] bool expand_next() {
    if (this->cancelled_) {
      fail(StatusDetail::cancelled);
      return false;
    }
    if (open_.empty()) {
      fail(StatusDetail::unreachable);
      return false;
    }
    const std::uint32_t slot = open_.pop().slot();
    NodeRecord& current = table_[slot];
    current.heap_pos = NodeRecord::not_open;
    const Node node = table_.node(*space_, slot);
    if (this->goal_.reached(node)) {
      this->observer_.on_goal(node, current.g);
      build_path_to(slot);
      this->finish_success();
      return false;
    }
    this->observer_.on_expand(node, current.g, current.h);
    ++this->stats_.expanded;
    if (options_.partial_result && (closest_ == no_slot || closer(current, table_[closest_]))) closest_ = slot;
    expand(node, slot);
    this->observer_.on_close(node);
    if (over_node_limit()) {
      fail(StatusDetail::out_of_nodes);
      return false;
    }
    return true;
  }

  [[nodiscard]] const Space& space() const { return *space_; }
  [[nodiscard]] const H& heuristic() const { return heuristic_; }
  [[nodiscard]] const Priority& priority() const { return priority_; }
  /// Replaces the priority policy (a weight, a key rounding). Takes effect at the next begin().
  void set_priority(Priority priority) { priority_ = priority; }
  /// Replaces the heuristic (for one made anew after its world changed). Takes effect at the
  /// next begin().
  void set_heuristic(H heuristic) { heuristic_ = std::move(heuristic); }

  /// Whether the current query has reached `n` (it has a g, final or tentative).
  [[nodiscard]] bool reached(const Node& n) const { return table_.find(*space_, n) != no_slot; }
  /// Reached and expanded: with a consistent heuristic (always for Dijkstra), g_of(n) is final.
  [[nodiscard]] bool closed(const Node& n) const {
    const std::uint32_t slot = table_.find(*space_, n);
    return slot != no_slot && !table_[slot].is_open();
  }
  /// Best known cost-so-far of `n` in the current query (infinite if never reached).
  [[nodiscard]] Cost g_of(const Node& n) const {
    const std::uint32_t slot = table_.find(*space_, n);
    return slot == no_slot ? infinite_cost : table_[slot].g;
  }
  /// The node before `n` on its best path so far; nullopt for sources and unreached nodes.
  [[nodiscard]] std::optional<Node> parent_of(const Node& n) const {
    const std::uint32_t slot = table_.find(*space_, n);
    if (slot == no_slot || table_[slot].parent == no_slot) return std::nullopt;
    return table_.node(*space_, table_[slot].parent);
  }
  /// Index (into begin()'s sources) of the source `n`'s best path starts from; nullopt when
  /// unreached. O(path length): the parents are followed back to the source (the relaxation
  /// does not carry origins, so searches that never ask pay nothing).
  [[nodiscard]] std::optional<std::uint32_t> origin_of(const Node& n) const {
    std::uint32_t slot = table_.find(*space_, n);
    if (slot == no_slot) return std::nullopt;
    while (table_[slot].parent != no_slot) slot = table_[slot].parent;
    return table_[slot].origin;
  }
  /// Nodes on the open list, and the smallest key among them (infinite when empty).
  [[nodiscard]] std::size_t open_size() const { return open_.size(); }
  [[nodiscard]] Cost min_key() const { return open_.empty() ? infinite_cost : open_.top().key(); }
  /// The node table, for tables with settings of their own (a memory budget).
  [[nodiscard]] Table& node_table() { return table_; }
  [[nodiscard]] const Table& node_table() const { return table_; }
  /// Bytes of scratch held: the node table's (when it reports them) and the open list's.
  [[nodiscard]] std::size_t memory_bytes() const {
    std::size_t bytes = open_.memory_bytes();
    if constexpr (requires(const Table& t) { t.memory_bytes(); }) bytes += table_.memory_bytes();
    return bytes;
  }

 private:
  /// Lets the heap write positions straight into the node records.
  struct PositionSink {
    Table* table = nullptr;
    void set_position(std::uint32_t slot, std::uint32_t pos) { (*table)[slot].heap_pos = pos; }
  };

  /// Nodes reached so far: each is closed (expanded once, or again after a reopening) or open.
  /// Checked per expansion, so a query may exceed the limit by one node's successors.
  [[nodiscard]] bool over_node_limit() const {
    if constexpr (requires(const Table& t) { t.exhausted(); }) {  // tables with a memory budget
      if (table_.exhausted()) return true;
    }
    return max_nodes_ != 0 && this->stats_.expanded - this->stats_.reopened + open_.size() > max_nodes_;
  }

  bool refuse_stale() {
    if (is_unsupported(*space_)) {
      this->finish_failure(StatusDetail::invalid_query | StatusDetail::unsupported);
      return true;
    }
    if (!is_stale(*space_) && !is_stale(heuristic_)) return false;
    this->finish_failure(StatusDetail::stale_world);
    return true;
  }

  std::uint64_t scan_count() const {
    if constexpr (CostAwareSearchSpace<Space>) {
      return this->stats_.generated + extra_scanned_;
    } else if constexpr (ScanningSearchSpace<Space>) {
      return this->stats_.scanned;
    } else {
      return this->stats_.generated;
    }
  }

  Cost estimate(const Node& n) const {
    if constexpr (Priority::uses_heuristic) {
      return this->goal_.estimate(heuristic_, n);
    } else {
      (void)n;
      return 0;
    }
  }

  static bool closer(const NodeRecord& a, const NodeRecord& b) {
    return a.h < b.h || (a.h == b.h && a.g < b.g);
  }

  /// Inlining decided by measurement: Dijkstra's expansion goes inline into expand_next() (7%
  /// fewer instructions for bidirectional Dijkstra), the heuristic searches' stays a call (inline,
  /// grid A* ran 4% more instructions). See docs/search.md.
  [[gnu::always_inline]] void expand(const Node& node, std::uint32_t slot) {
    if constexpr (Priority::uses_heuristic) {
      expand_outline(node, slot);
    } else {
      expand_inline(node, slot);
    }
  }
  [[gnu::noinline]] void expand_outline(const Node& node, std::uint32_t slot) { expand_inline(node, slot); }
  [[gnu::always_inline]] void expand_inline(const Node& node, std::uint32_t slot) {
    const Cost g = table_[slot].g;
    // Without a heuristic (Dijkstra) keys are g, settled nodes are final (edge costs are >= 0),
    // and a closed node can never improve: the reopening branch is left out.
    constexpr bool reopens = Priority::uses_heuristic;
    // Forced inline: the relaxation is the innermost loop of every search.
    const auto relax = [&](const Node& succ, Cost edge_cost) __attribute__((always_inline)) {
      ++this->stats_.generated;
      this->observer_.on_generate(node, succ, g, edge_cost);
      if constexpr (DominancePruningSpace<Space>) {
        if (space_->dominated(succ, g + edge_cost)) return;
      }
      if constexpr (ShortcutSearchSpace<Space>) {
        relax_any_angle(node, slot, succ, g + edge_cost);
        return;
      }
      const SlotLookup s = table_.find_or_insert(*space_, succ);
      NodeRecord& r = table_[s.slot];
      const Cost new_g = g + edge_cost;
      if (s.fresh) {
        if constexpr (Priority::uses_heuristic) r.h = estimate(succ);  // else stays 0 from the reset
      } else if (!(new_g < r.g)) {
        return;
      }
      r.g = new_g;
      r.parent = slot;
      const Cost key = priority_(new_g, r.h);
      if (s.fresh) {
        open_.push(s.slot, key, new_g);
      } else if (r.is_open()) {
        open_.decrease_key(r.heap_pos, key, new_g);
      } else if (reopens && options_.reopen_closed) {
        ++this->stats_.reopened;
        open_.push(s.slot, key, new_g);
      } else {
        return;  // closed, better g recorded for the path, but not re-expanded
      }
      this->observer_.on_open(succ, &node, new_g, r.h, !s.fresh);
    };
    if constexpr (CostAwareSearchSpace<Space>) {
      space_->for_each_successor(node, g, relax, extra_scanned_);
    } else if constexpr (ParentAwareSearchSpace<Space>) {
      const std::uint32_t parent_slot = table_[slot].parent;
      const Node goal = this->goal_.kind() == Goal<Node>::Kind::node ? this->goal_.node() : Node{};
      const Node parent = parent_slot == no_slot ? Node{} : table_.node(*space_, parent_slot);
      const Node* parent_ptr = parent_slot == no_slot ? nullptr : &parent;
      if constexpr (ScanningSearchSpace<Space>) {
        space_->for_each_successor(node, parent_ptr, goal, relax, this->stats_.scanned);
      } else {
        space_->for_each_successor(node, parent_ptr, goal, relax);
      }
    } else {
      space_->for_each_successor(node, relax);
    }
    this->note_frontier_size(open_.size());
  }

  /// Theta*'s relaxation (ShortcutSearchSpace): `succ` reached from the expanded `node` at
  /// `new_g`, or straight from that node's parent when that costs no more. It repeats the plain
  /// relaxation rather than sharing it so that every other space compiles exactly as before
  /// (shared, the extra parent variable moved JPS's stack slots: +2.2% instructions in its
  /// successor loop). See docs/smoothing.md.
  void relax_any_angle(const Node& node, std::uint32_t slot, const Node& succ, Cost new_g) {
    std::uint32_t from = slot;
    const std::uint32_t up = table_[slot].parent;
    if (up != no_slot) {
      const Node up_node = table_.node(*space_, up);
      if (!(up_node == succ)) {
        const Cost straight = table_[up].g + space_->shortcut_cost(up_node, succ);
        if (straight <= new_g) {
          new_g = straight;
          from = up;
        }
      }
    }
    const SlotLookup s = table_.find_or_insert(*space_, succ);
    NodeRecord& r = table_[s.slot];
    if (s.fresh) {
      if constexpr (Priority::uses_heuristic) r.h = estimate(succ);
    } else if (!(new_g < r.g)) {
      return;
    }
    r.g = new_g;
    r.parent = from;
    const Cost key = priority_(new_g, r.h);
    if (s.fresh) {
      open_.push(s.slot, key, new_g);
    } else if (r.is_open()) {
      open_.decrease_key(r.heap_pos, key, new_g);
    } else if (Priority::uses_heuristic && options_.reopen_closed) {
      ++this->stats_.reopened;
      open_.push(s.slot, key, new_g);
    } else {
      return;
    }
    const Node parent = from == slot ? node : table_.node(*space_, from);
    this->observer_.on_open(succ, &parent, new_g, r.h, !s.fresh);
  }

  void build_path_to(std::uint32_t slot) {
    this->build_path(
        slot, no_slot, table_[slot].g, [&](std::uint32_t s) { return table_.node(*space_, s); },
        [&](std::uint32_t s) { return table_[s].parent; });
  }

  /// Ends the search with a failure: once per query, so kept out of the expansion loop (inlined,
  /// its partial-path code cost A* 0.9% more instructions in the loop).
  [[gnu::cold, gnu::noinline]] void fail(StatusDetail why) {
    if (options_.partial_result && closest_ != no_slot) {
      build_path_to(closest_);
      if (this->stats_.reopened != 0) recost_path();
      why = why | StatusDetail::partial_result;
    }
    this->finish_failure(why);
  }

  /// After a reopening a node's g can exceed what its parent chain costs (a parent improved and
  /// its children are not relaxed again yet): the partial path's cost becomes the sum of its
  /// steps (each the cheapest arc between the two nodes). Once per failed query, O(path × arcs).
  /// Paths whose steps are not arcs (jumps, shortcuts) keep the recorded g.
  void recost_path() {
    if constexpr (!ParentAwareSearchSpace<Space>) {
      const auto& nodes = this->path_.nodes;
      Cost sum = table_[table_.find(*space_, nodes.front())].g;  // the source's own cost
      for (std::size_t i = 1; i < nodes.size(); ++i) {
        Cost step = infinite_cost;
        space_->for_each_successor(nodes[i - 1], [&](const Node& succ, Cost c) {
          if (succ == nodes[i] && c < step) step = c;
        });
        if (step == infinite_cost) return;
        sum += step;
      }
      this->path_.cost = sum;
    }
  }

  const Space* space_;
  H heuristic_;
  Priority priority_;
  BestFirstOptions options_;
  std::uint64_t max_nodes_;  ///< 0: no limit
  Table table_;
  PositionSink positions_;
  IndexedDaryHeap<default_heap_arity, PositionSink> open_;
  std::uint32_t closest_ = no_slot;
  std::uint64_t extra_scanned_ = 0;  ///< CostAwareSearchSpace: the space's work besides its successors
};

/// The named searches: one engine, four policies.
template <SearchSpace Space, class H, class Obs = NullObserver>
using AStar = BestFirstSearch<Space, H, AStarPriority, Obs>;
template <SearchSpace Space, class H, class Obs = NullObserver>
using WeightedAStar = BestFirstSearch<Space, H, WeightedAStarPriority, Obs>;
template <SearchSpace Space, class Obs = NullObserver>
using Dijkstra = BestFirstSearch<Space, ZeroHeuristic, DijkstraPriority, Obs>;
template <SearchSpace Space, class H, class Obs = NullObserver>
using GreedyBestFirst = BestFirstSearch<Space, H, GreedyPriority, Obs>;

}  // namespace waymark::search
