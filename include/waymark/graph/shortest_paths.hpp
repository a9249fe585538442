#pragma once
/// @file Shortest paths on graphs beyond the single best-first query: a one-to-all
/// shortest-path tree, a bidirectional Dijkstra query, and precomputed all-pairs route tables
/// for small graphs. All three run the library's one best-first engine. See docs/graph.md
/// ("Shortest-path trees, bidirectional Dijkstra and route tables").

#include <algorithm>
#include <istream>
#include <cstddef>
#include <optional>
#include <span>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/core/path.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/graph/graph.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/events.hpp"
#include "waymark/search/observer.hpp"
#include "waymark/search/search_core.hpp"
#include "waymark/search/shortest_path_tree.hpp"

namespace waymark::graph {

/// One-to-all Dijkstra on a graph: the distance from a source (or the nearest of several) to
/// every vertex and a shortest-path tree. On `graph.reversed()` it gives distances *to* the
/// source, and parent(v) is v's next hop towards it. See search::ShortestPathTree.
using ShortestPathTree = search::ShortestPathTree<Graph>;

/// A graph and its reversed copy, for backward searches. Built once (O(V + E), the reversed
/// copy costs as much memory as the graph), shared read-only by any number of
/// BidirectionalDijkstra objects. Keeps a reference to `forward`, which must outlive it.
/// Stale after an edit of the forward graph's weights until sync().
class BidirectionalGraph {
 public:
  explicit BidirectionalGraph(const Graph& forward);
  explicit BidirectionalGraph(const Graph&&) = delete;  // would dangle

  [[nodiscard]] const Graph& forward() const { return *forward_; }
  [[nodiscard]] const Graph& backward() const { return backward_; }

  [[nodiscard]] bool stale() const { return synced_version_ != forward_->version(); }
  /// Copies the weights edited since the last sync into the reversed copy: O(edits), or
  /// O(E) when the forward graph's log no longer reaches back. Returns the arcs copied.
  /// Not thread-safe: no search may run meanwhile.
  std::size_t sync();

 private:
  const Graph* forward_;
  Graph backward_;
  std::vector<ArcId> backward_arc_;  ///< by forward arc: the same arc in backward_
  std::uint64_t synced_version_;
};

/// Which side a bidirectional search advances next.
enum class Alternation : std::uint8_t {
  smaller_key,       ///< the side whose closest frontier vertex is nearer (balanced radii)
  smaller_frontier,  ///< the side with fewer frontier vertices (Pohl's cardinality rule)
};

struct BidirectionalOptions {
  /// smaller_frontier settled 15–30% fewer vertices than smaller_key on Rome99 and Oldenburg
  /// (random pairs; docs/graph.md).
  Alternation alternation = Alternation::smaller_frontier;
};

/// One-to-one shortest path by Dijkstra from both ends at once: forward from the source on the
/// graph, backward from the target on the reversed graph, each side the library's best-first
/// engine. Every arc scanned between a vertex of one side and a vertex reached by the other
/// offers a meeting cost; the search stops when min key(forward) + min key(backward) ≥ the
/// best meeting cost, which is then the distance (see docs/graph.md for why this rule, and not
/// "stop when the searches meet", is correct).
///
/// Steppable like every search: begin(source, target) — or several sources and a goal that is
/// a node list (the backward side starts from all of them) — then step(budget) (expansions
/// count settled vertices of both sides), path(), stats() (expanded: both sides; generated:
/// arcs scanned), cancel(). Events carry the side that made them (Direction). A source or
/// target outside the graph fails at once; an unreachable target fails once either side is
/// exhausted; a predicate goal or none is an invalid_query. Zero-weight arcs, parallel arcs and
/// self-loops are fine (a self-loop is never part of a returned path).
///
/// One object per thread; allocates nothing per query after warm-up. Not copyable or movable
/// (each side's observer points back at it). Memory: 2 × 32 bytes per vertex + the frontiers.
template <class Obs = search::NullObserver>
class BidirectionalDijkstra : public search::SearchCore<VertexId, Obs> {
  using Core = search::SearchCore<VertexId, Obs>;

 public:
  using Node = VertexId;

  explicit BidirectionalDijkstra(const BidirectionalGraph& graphs, Obs observer = {}, BidirectionalOptions options = {})
      : Core(observer),
        graphs_(&graphs),
        options_(options),
        forward_(graphs.forward(), {}, {}, SideObserver<search::Direction::forward>{this, observer}),
        backward_(graphs.backward(), {}, {}, SideObserver<search::Direction::backward>{this, observer}) {}
  explicit BidirectionalDijkstra(const BidirectionalGraph&&, Obs = {}, BidirectionalOptions = {}) = delete;  // would dangle
  BidirectionalDijkstra(const BidirectionalDijkstra&) = delete;
  BidirectionalDijkstra& operator=(const BidirectionalDijkstra&) = delete;

  /// Starts a query; previous results are discarded. source == target succeeds with the
  /// one-vertex path.
  void begin(VertexId source, VertexId target) {
    const search::Source<VertexId> s{source, 0};
    const search::Goal<VertexId> goal = search::Goal<VertexId>::at(target);
    begin(std::span<const search::Source<VertexId>>(&s, 1), goal);
  }
  void begin(std::span<const search::Source<VertexId>> sources, const search::Goal<VertexId>& goal) {
    const typename Core::Timer timer(this->stats_);
    this->start_query(goal);
    best_ = infinite_cost;
    meet_forward_ = meet_backward_ = VertexId::invalid();
    searched_ = false;
    if (graphs_->stale()) {
      this->finish_failure(StatusDetail::stale_world);
      return;
    }
    using Kind = typename search::Goal<VertexId>::Kind;
    if (sources.empty() || (goal.kind() != Kind::node && goal.kind() != Kind::any_of)) {
      this->finish_failure(StatusDetail::invalid_query);
      return;
    }
    targets_.clear();
    if (goal.kind() == Kind::node) {
      targets_.push_back({goal.node(), 0});
    } else {
      for (const VertexId t : goal.nodes()) targets_.push_back({t, 0});
    }
    forward_.begin(sources, search::Goal<VertexId>::none());
    backward_.begin(targets_, search::Goal<VertexId>::none());
    searched_ = true;
    if (!forward_.status().running() || !backward_.status().running()) {
      // A side refused its vertices: not in the graph (out_of_bounds).
      this->finish_failure(forward_.status().detail | backward_.status().detail);
      return;
    }
    // A vertex that is both a source and a target meets without an arc.
    for (const search::Source<VertexId>& s : sources) {
      if (backward_.reached(s.node)) offer(s.node, s.node, forward_.g_of(s.node) + backward_.g_of(s.node));
    }
    this->note_frontier_size(forward_.open_size() + backward_.open_size());
  }

  /// Settles vertices (both sides) within the budget. Running while there is more to do.
  Status step(const search::Budget& budget = {}) {
    if (!this->status_.running()) return this->status_;
    const typename Core::Timer timer(this->stats_);
    if (graphs_->stale()) {
      this->finish_failure(StatusDetail::stale_world);
      return this->status_;
    }
    if (budget.is_unlimited()) {
      while (settle_next()) {
      }
    } else {
      const search::BudgetMeter meter(budget, expanded(), generated());
      while (!meter.exhausted(expanded(), generated()) && settle_next()) {
      }
    }
    this->stats_.expanded = expanded();
    this->stats_.generated = this->stats_.scanned = generated();
    return this->end_step();
  }
  Status step(std::size_t max_expansions) { return step(search::Budget::of_expansions(max_expansions)); }

  /// Warm-up: sizes and touches both node tables.
  void reserve() {
    forward_.reserve();
    backward_.reserve();
  }

  [[nodiscard]] const BidirectionalGraph& graphs() const { return *graphs_; }
  /// Vertices settled by each side in the current query.
  [[nodiscard]] std::uint64_t forward_expanded() const { return searched_ ? forward_.stats().expanded : 0; }
  [[nodiscard]] std::uint64_t backward_expanded() const { return searched_ ? backward_.stats().expanded : 0; }

 private:
  /// Each side's observer: offers meetings, and forwards the side's events with its direction
  /// (begin, end and slice ends are the whole search's, reported by it).
  /// (The direction is a template argument: a run-time one cost 1-2% per scanned arc.)
  template <search::Direction D>
  struct SideObserver : Obs {
    SideObserver(BidirectionalDijkstra* owner, const Obs& outer) : Obs(search::with_direction(outer, D)), self(owner) {}
    void on_generate(const VertexId& from, const VertexId& to, Cost g_from, Cost w) {
      self->scanned<D>(from, to, g_from + w);
    }
    template <class Goal>
    void on_begin(const Goal&) {}
    void on_end(Status) {}
    void on_slice_end() {}
    BidirectionalDijkstra* self;
  };

  [[nodiscard]] std::uint64_t expanded() const { return forward_.stats().expanded + backward_.stats().expanded; }
  [[nodiscard]] std::uint64_t generated() const { return forward_.stats().generated + backward_.stats().generated; }

  /// Settles one vertex on the side whose turn it is, or ends the query. False once it ended.
  [[gnu::always_inline]] bool settle_next() {
    if (this->cancelled_) {
      this->finish_failure(StatusDetail::cancelled);
      return false;
    }
    const Cost forward_key = forward_.min_key();
    const Cost backward_key = backward_.min_key();
    // Every path through a vertex settled by neither side costs at least the sum of the two
    // keys, and every other path was offered when its joining arc was scanned (docs/graph.md).
    // An exhausted side has key infinity, so this also ends unreachable queries.
    if (forward_key + backward_key >= best_) {
      finish_query();
      return false;
    }
    const bool go_forward = options_.alternation == Alternation::smaller_key
                                ? forward_key <= backward_key
                                : forward_.open_size() <= backward_.open_size();
    if (go_forward) {
      forward_.expand_next();
    } else {
      backward_.expand_next();
    }
    this->note_frontier_size(forward_.open_size() + backward_.open_size());
    return true;
  }

  /// An arc scanned by one side: offers the path through it when the other side reached its head.
  template <search::Direction D>
  void scanned(VertexId from, VertexId to, Cost g_to) {
    if (from == to) return;  // self-loops never shorten a path
    if constexpr (D == search::Direction::forward) {
      const Cost rest = backward_.g_of(to);  // infinite when the other side has not reached it
      if (rest != infinite_cost) offer(from, to, g_to + rest);
    } else {
      // Scanning reversed arc from → to is the arc to → from of the graph: forward part ends at `to`.
      const Cost before = forward_.g_of(to);
      if (before != infinite_cost) offer(to, from, before + g_to);
    }
  }

  void offer(VertexId forward_end, VertexId backward_end, Cost cost) {
    if (cost < best_) {
      best_ = cost;
      meet_forward_ = forward_end;
      meet_backward_ = backward_end;
    }
  }

  void finish_query() {
    if (best_ == infinite_cost) {
      this->finish_failure(StatusDetail::unreachable);
      return;
    }
    auto& nodes = this->path_.nodes;
    nodes.clear();
    for (std::optional<VertexId> v = meet_forward_; v; v = forward_.parent_of(*v)) nodes.push_back(*v);
    std::reverse(nodes.begin(), nodes.end());
    // A meeting at a vertex (a source that is a target) has that vertex on both sides.
    std::optional<VertexId> v = meet_backward_;
    if (meet_backward_ == meet_forward_) v = backward_.parent_of(*v);
    for (; v; v = backward_.parent_of(*v)) nodes.push_back(*v);
    this->path_.cost = best_;
    this->finish_success();
  }

  const BidirectionalGraph* graphs_;
  BidirectionalOptions options_;
  search::Dijkstra<Graph, SideObserver<search::Direction::forward>> forward_;
  search::Dijkstra<Graph, SideObserver<search::Direction::backward>> backward_;
  std::vector<search::Source<VertexId>> targets_;
  bool searched_ = false;  ///< the sides belong to the current query
  Cost best_ = infinite_cost;
  VertexId meet_forward_;   ///< last vertex of the forward part of the best path
  VertexId meet_backward_;  ///< first vertex of the backward part (an arc joins the two, or the same vertex)
};

/// For every (source, target) pair of a small graph, the first arc of a shortest path, so a
/// route is read out hop by hop with no search. Built by one Dijkstra per target on the
/// reversed graph (its tree gives every vertex's next hop towards that target).
///
/// Layout: one row of V entries per target, entry [target][source] = the position of the
/// first arc among source's out-arcs (graph.targets(source)[i] / weights(source)[i]), or
/// `no_arc`. Storing the arc rather than the next vertex reads the weight in O(1) and settles
/// parallel arcs once, at build time (the cheapest is chosen); one row per target keeps a
/// whole read-out inside one V × 4-byte row.
///
/// Memory: V² × 4 bytes (Rome99, 3,353 vertices: 45 MB; Oldenburg, 6,105: 149 MB; the limit,
/// 20,000: 1.6 GB). Keeps a reference to the graph, which must outlive it. Read-only after
/// construction: share it among threads; queries never throw.
class RouteTable {
 public:
  /// Largest graph a table is built for: 20,000² × 4 bytes = 1.6 GB.
  static constexpr std::size_t max_vertices = 20'000;
  /// Entry for "no first arc": source == target, or target unreachable.
  static constexpr std::uint32_t no_arc = std::numeric_limits<std::uint32_t>::max();
  /// File format version written by save() and accepted by load().
  static constexpr std::uint32_t file_version = 2;

  /// Builds the table: V Dijkstra searches on graph.reversed(), single-threaded,
  /// O(V · (V + E) log V) time. Throws BuildError when the graph has more than max_vertices
  /// vertices (before allocating anything).
  explicit RouteTable(const Graph& graph);
  explicit RouteTable(const Graph&&) = delete;  // would dangle

  /// Reads a table written by save() for `graph`. Throws LoadError (file, line 0, reason) when
  /// the file cannot be read, is not a route table (magic), has another version, was built for
  /// a graph with other vertex or arc counts or other arcs (fingerprint of every arc's head
  /// and weight, in order), is truncated, has trailing data, or fails the checksum or the
  /// entry checks: each entry must name one of its source's arcs, and each target's entries
  /// must form a shortest-path tree (no cycle, no arc shorter than the tree's distances), so
  /// even a forged file with a correct checksum cannot answer wrongly. O(V · (V + E)).
  [[nodiscard]] static RouteTable load(const std::string& path, const Graph& graph);
  static RouteTable load(const std::string&, const Graph&&) = delete;  // would dangle
  /// The same from a stream; `name` is used in error messages.
  [[nodiscard]] static RouteTable load(std::istream& in, const std::string& name, const Graph& graph);
  static RouteTable load(std::istream&, const std::string&, const Graph&&) = delete;  // would dangle
  /// Writes the table to a binary file (40-byte header, the entries in native byte order, an
  /// 8-byte checksum).
  /// @throws SaveError when the file cannot be written.
  void save(const std::string& path) const;

  [[nodiscard]] const Graph& graph() const { return *graph_; }
  [[nodiscard]] std::size_t memory_bytes() const { return first_arc_.size() * sizeof(std::uint32_t); }
  /// Whether the graph's weights were edited since the table was built (or loaded).
  [[nodiscard]] bool stale() const { return version_ != graph_->version(); }
  /// Builds the table again for the graph's weights now. As expensive as the constructor.
  void rebuild();

  /// The first arc of a shortest path from `source` to `target` as its position among
  /// source's out-arcs; no_arc when source == target, unreachable, or an id is not a vertex.
  [[nodiscard]] std::uint32_t first_arc(VertexId source, VertexId target) const;

  /// Writes a shortest path from `source` to `target` into `out` (source first) with its cost,
  /// summed along the arcs. Failure and an empty `out` when unreachable or an id is not a
  /// vertex. O(path length); allocates only when `out` has to grow.
  Status route(VertexId source, VertexId target, Path<VertexId>& out) const;
  /// The shortest distance, summed along the route; infinite when unreachable or an id is not
  /// a vertex. O(path length), no allocation.
  [[nodiscard]] Cost distance(VertexId source, VertexId target) const;

 private:
  RouteTable(const Graph& graph, std::vector<std::uint32_t> first_arc)
      : graph_(&graph), version_(graph.version()), first_arc_(std::move(first_arc)) {}

  template <class Visit>
  bool walk(VertexId source, VertexId target, Visit&& visit) const;

  const Graph* graph_;
  std::uint64_t version_;
  std::vector<std::uint32_t> first_arc_;  ///< [target * V + source]
};

}  // namespace waymark::graph
