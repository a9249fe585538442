#pragma once
/// @file Shortest paths on graphs beyond the single best-first query: a one-to-all
/// shortest-path tree, a bidirectional Dijkstra query, and precomputed all-pairs route tables
/// for small graphs. All three are built on DijkstraFrontier, which runs Dijkstra on the
/// search engine's node table and heap. See docs/graph.md ("Shortest-path trees, bidirectional
/// Dijkstra and route tables").

#include <cstddef>
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
#include "waymark/search/indexed_heap.hpp"
#include "waymark/search/node_table.hpp"
#include "waymark/search/observer.hpp"
#include "waymark/search/search_core.hpp"

namespace waymark::graph {

/// One Dijkstra search over a Graph, advanced one settled vertex at a time, with the engine's
/// DenseNodeTable (reset in O(1) by a generation stamp) and IndexedDaryHeap (decrease-key).
/// The common part of ShortestPathTree, BidirectionalDijkstra and RouteTable; BestFirstSearch
/// hides its open list and parents, which these need.
///
/// Memory: 32 bytes per vertex of the largest graph searched + 16 per frontier entry. After
/// the first search on a graph of a given size, start() allocates nothing, and neither does
/// settle_next() once the heap has grown to its largest size. Not copyable or movable (the
/// heap writes positions into the node table through a pointer).
class DijkstraFrontier {
 public:
  DijkstraFrontier() : open_(positions_) { positions_.table = &table_; }
  DijkstraFrontier(const DijkstraFrontier&) = delete;
  DijkstraFrontier& operator=(const DijkstraFrontier&) = delete;

  /// Starts a search of `graph` from `source` (a vertex of it); the previous search is
  /// discarded. `graph` must stay alive while this search is used.
  void start(const Graph& graph, VertexId source) {
    WAYMARK_ASSERT(graph.contains(source));
    graph_ = &graph;
    table_.reset(graph);
    open_.clear();
    settled_ = 0;
    scanned_ = 0;
    const search::SlotLookup s = table_.find_or_insert(graph, source);
    table_[s.slot].g = 0;
    open_.push(s.slot, 0, 0);
  }

  /// Sizes the node table for `graph` and touches it, so a first search pays no page faults.
  void reserve(const Graph& graph) { table_.reserve(graph); }

  /// True when nothing is left to settle: every vertex reachable from the source is settled.
  [[nodiscard]] bool exhausted() const { return open_.empty(); }
  /// The smallest tentative distance on the frontier (infinite when exhausted). Every vertex
  /// whose true distance is below it is settled.
  [[nodiscard]] Cost min_key() const { return open_.empty() ? infinite_cost : open_.top().key(); }
  [[nodiscard]] std::size_t frontier_size() const { return open_.size(); }

  /// Settles the frontier vertex u of smallest distance, relaxes its arcs, and calls
  /// `on_arc(u, distance(u), head, weight)` for each of them after relaxing it. Returns u.
  /// Requires !exhausted().
  template <class OnArc>
  VertexId settle_next(OnArc&& on_arc) {
    const std::uint32_t slot = open_.pop().slot();
    table_[slot].heap_pos = search::NodeRecord::not_open;
    const Cost g = table_[slot].g;
    const VertexId u{slot};
    ++settled_;
    graph_->for_each_successor(u, [&](VertexId v, Cost w) {
      ++scanned_;
      const search::SlotLookup s = table_.find_or_insert(*graph_, v);
      search::NodeRecord& r = table_[s.slot];
      const Cost new_g = g + w;
      if (s.fresh) {
        r.g = new_g;
        r.parent = slot;
        open_.push(s.slot, new_g, new_g);
      } else if (new_g < r.g && r.is_open()) {  // settled vertices are final: weights are >= 0
        r.g = new_g;
        r.parent = slot;
        open_.decrease_key(r.heap_pos, new_g, new_g);
      }
      on_arc(u, g, v, w);
    });
    return u;
  }
  VertexId settle_next() {
    return settle_next([](VertexId, Cost, VertexId, Cost) {});
  }

  /// Whether the current search has given v a distance (tentative or final).
  [[nodiscard]] bool reached(VertexId v) const { return table_.find(*graph_, v) != search::no_slot; }
  /// Reached and taken off the frontier: distance(v) is final.
  [[nodiscard]] bool settled(VertexId v) const { return reached(v) && !table_[v.value].is_open(); }
  /// Final once settled, tentative while on the frontier, infinite when not reached.
  [[nodiscard]] Cost distance(VertexId v) const { return reached(v) ? table_[v.value].g : infinite_cost; }
  /// The vertex before v on its best path so far; invalid for the source and unreached vertices.
  [[nodiscard]] VertexId parent(VertexId v) const {
    return reached(v) ? VertexId{table_[v.value].parent} : VertexId::invalid();
  }

  /// Vertices settled and arcs scanned since start().
  [[nodiscard]] std::uint64_t settled_count() const { return settled_; }
  [[nodiscard]] std::uint64_t scanned_arcs() const { return scanned_; }

 private:
  struct PositionSink {
    search::DenseNodeTable<Graph>* table = nullptr;
    void set_position(std::uint32_t slot, std::uint32_t pos) { (*table)[slot].heap_pos = pos; }
  };

  const Graph* graph_ = nullptr;
  search::DenseNodeTable<Graph> table_;
  PositionSink positions_;
  search::IndexedDaryHeap<search::default_heap_arity, PositionSink> open_;
  std::uint64_t settled_ = 0;
  std::uint64_t scanned_ = 0;
};

/// One-to-all Dijkstra: the distance from a source to every vertex and the parent of every
/// vertex on a shortest path (a shortest-path tree), then any number of path read-outs.
/// On `graph.reversed()` it gives distances *to* the source, and parent(v) is v's next hop
/// towards it.
///
/// Reusable: compute() resets in O(1) and allocates nothing after the first call (the scratch
/// is generation-stamped). One object per thread; the graph, which must outlive it, may be
/// shared. Queries never throw. Memory: 32 bytes per vertex + the frontier.
class ShortestPathTree {
 public:
  explicit ShortestPathTree(const Graph& graph) : graph_(&graph) {}
  explicit ShortestPathTree(Graph&&) = delete;  // would dangle

  /// Runs Dijkstra from `source` to exhaustion. Success; Failure (and nothing computed) when
  /// `source` is not a vertex of the graph. O((V + E) log V) for the vertices and arcs
  /// reachable from it.
  Status compute(VertexId source);

  /// Warm-up: sizes and touches the scratch so even the first compute() allocates nothing.
  void reserve() { search_.reserve(*graph_); }

  [[nodiscard]] const Graph& graph() const { return *graph_; }
  /// Success after a computed tree, Failure after a bad source, NotStarted before compute().
  [[nodiscard]] Status status() const { return status_; }
  [[nodiscard]] VertexId source() const { return source_; }
  /// expanded: vertices settled (= reached); generated: arcs scanned; max_open_size; time_s.
  [[nodiscard]] const SearchStats& stats() const { return stats_; }

  /// Whether `v` is reachable from the source (false for ids outside the graph).
  [[nodiscard]] bool reached(VertexId v) const { return has_tree() && graph_->contains(v) && search_.reached(v); }
  /// Shortest distance from the source; infinite when unreachable or not a vertex.
  [[nodiscard]] Cost distance(VertexId v) const { return reached(v) ? search_.distance(v) : infinite_cost; }
  /// The vertex before `v` on a shortest path from the source; invalid for the source itself
  /// and for unreached vertices.
  [[nodiscard]] VertexId parent(VertexId v) const { return reached(v) ? search_.parent(v) : VertexId::invalid(); }

  /// Writes the path from the source to `target` into `out` (source first; just the source
  /// when target == source) with its cost. Failure and an empty `out` when `target` is
  /// unreachable or not a vertex, or no tree was computed. O(path length); allocates only
  /// when `out` has to grow.
  Status path_to(VertexId target, Path<VertexId>& out) const;

 private:
  [[nodiscard]] bool has_tree() const { return status_.succeeded(); }

  const Graph* graph_;
  DijkstraFrontier search_;
  VertexId source_;
  Status status_{};
  SearchStats stats_;
};

/// A graph and its reversed copy, for backward searches. Built once (O(V + E), the reversed
/// copy costs as much memory as the graph), shared read-only by any number of
/// BidirectionalDijkstra objects. Keeps a reference to `forward`, which must outlive it.
class BidirectionalGraph {
 public:
  explicit BidirectionalGraph(const Graph& forward) : forward_(&forward), backward_(forward.reversed()) {}
  explicit BidirectionalGraph(Graph&&) = delete;  // would dangle

  [[nodiscard]] const Graph& forward() const { return *forward_; }
  [[nodiscard]] const Graph& backward() const { return backward_; }

 private:
  const Graph* forward_;
  Graph backward_;
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
/// graph, backward from the target on the reversed graph. Every arc scanned between a vertex
/// of one side and a vertex reached by the other offers a meeting cost; the search stops when
/// min key(forward) + min key(backward) ≥ the best meeting cost, which is then the distance
/// (see docs/graph.md for why this rule, and not "stop when the searches meet", is correct).
///
/// Steppable like every search: begin(source, target), step(budget) (the budget counts
/// settled vertices of both sides), path(), stats() (expanded: both sides; generated: arcs
/// scanned), cancel(). A source or target outside the graph fails at once; an unreachable
/// target fails once either side is exhausted. Zero-weight arcs, parallel arcs and self-loops
/// are fine (a self-loop is never part of a returned path).
///
/// One object per thread; allocates nothing per query after warm-up. Memory: 2 × 32 bytes
/// per vertex + the frontiers.
class BidirectionalDijkstra : public search::SearchCore<VertexId, search::NullObserver> {
 public:
  explicit BidirectionalDijkstra(const BidirectionalGraph& graphs, BidirectionalOptions options = {})
      : search::SearchCore<VertexId, search::NullObserver>(search::NullObserver{}), graphs_(&graphs), options_(options) {}
  BidirectionalDijkstra(const BidirectionalDijkstra&) = delete;
  BidirectionalDijkstra& operator=(const BidirectionalDijkstra&) = delete;

  /// Starts a query; previous results are discarded. source == target succeeds at once with
  /// the one-vertex path.
  void begin(VertexId source, VertexId target);
  /// Settles at most `max_expansions` vertices (both sides). Returns Running while there is
  /// more to do.
  Status step(std::size_t max_expansions = search::unlimited_expansions);
  /// Warm-up: sizes and touches both node tables.
  void reserve();

  [[nodiscard]] const BidirectionalGraph& graphs() const { return *graphs_; }
  /// Vertices settled by each side in the current query.
  [[nodiscard]] std::uint64_t forward_expanded() const { return searched_ ? forward_.settled_count() : 0; }
  [[nodiscard]] std::uint64_t backward_expanded() const { return searched_ ? backward_.settled_count() : 0; }

 private:
  void offer(VertexId forward_end, VertexId backward_end, Cost cost);
  void finish_query();

  const BidirectionalGraph* graphs_;
  BidirectionalOptions options_;
  DijkstraFrontier forward_;
  DijkstraFrontier backward_;
  bool searched_ = false;  ///< the frontiers belong to the current query
  Cost best_ = infinite_cost;
  VertexId meet_forward_;   ///< last vertex of the forward part of the best path
  VertexId meet_backward_;  ///< first vertex of the backward part (an arc joins the two)
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
  static constexpr std::uint32_t file_version = 1;

  /// Builds the table: V Dijkstra searches on graph.reversed(), single-threaded,
  /// O(V · (V + E) log V) time. Throws BuildError when the graph has more than max_vertices
  /// vertices (before allocating anything).
  explicit RouteTable(const Graph& graph);
  explicit RouteTable(Graph&&) = delete;  // would dangle

  /// Reads a table written by save() for `graph`. Throws LoadError (file, line 0, reason) when
  /// the file cannot be read, is not a route table (magic), has another version, was built for
  /// a graph with other vertex or arc counts or other arcs (fingerprint of every arc's head
  /// and weight, in order), is truncated, has trailing data, or fails the checksum or the
  /// entry checks (each entry must name one of its source's arcs).
  [[nodiscard]] static RouteTable load(const std::string& path, const Graph& graph);
  static RouteTable load(const std::string&, Graph&&) = delete;  // would dangle
  /// Writes the table to a binary file (48-byte header, then the entries, native byte order).
  /// Returns false when the file cannot be written.
  bool save(const std::string& path) const;

  [[nodiscard]] const Graph& graph() const { return *graph_; }
  [[nodiscard]] std::size_t memory_bytes() const { return first_arc_.size() * sizeof(std::uint32_t); }

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
      : graph_(&graph), first_arc_(std::move(first_arc)) {}

  template <class Visit>
  bool walk(VertexId source, VertexId target, Visit&& visit) const;

  const Graph* graph_;
  std::vector<std::uint32_t> first_arc_;  ///< [target * V + source]
};

}  // namespace waymark::graph
