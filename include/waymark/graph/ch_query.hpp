#pragma once
/// @file ChQuery: shortest paths on a contraction hierarchy, steppable like every search and
/// reporting its events.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/core/path.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/graph/contraction.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/search/events.hpp"
#include "waymark/search/generation_array.hpp"
#include "waymark/search/goal.hpp"
#include "waymark/search/indexed_heap.hpp"
#include "waymark/search/search_core.hpp"

namespace waymark::graph {

struct ChQueryOptions {
  /// Skip relaxing a settled vertex that a higher vertex reaches more cheaply (stall-on-demand).
  bool stall_on_demand = true;
  /// Unpack the shortcuts into original vertices (path()); off: distance() only.
  bool unpack_path = true;
};

/// What the last query did, beyond SearchStats.
struct ChQueryStats {
  std::uint64_t settled_forward = 0;   ///< vertices taken from the forward (upward) queue
  std::uint64_t settled_backward = 0;  ///< vertices taken from the backward queue
  std::uint64_t stalled = 0;           ///< settled vertices not relaxed (stall-on-demand)
  std::uint64_t relaxed = 0;           ///< arcs looked at
  [[nodiscard]] std::uint64_t settled() const { return settled_forward + settled_backward; }
};

namespace ch_detail {
inline constexpr std::uint32_t unset = 0xFFFFFFFFu;
/// ChQuery's per-vertex scratch for both directions, valid while stamp is the query's generation.
struct QueryRecord {
  Cost dist[2] = {infinite_cost, infinite_cost};
  std::uint32_t parent[2] = {unset, unset};    ///< rank of the previous vertex in each direction's tree
  std::uint32_t arc[2] = {unset, unset};       ///< arc index used to reach it (upward / downward)
  std::uint32_t heap_pos[2] = {unset, unset};  ///< position in each direction's queue
  std::uint32_t stamp = 0;
};
}  // namespace ch_detail

/// Shortest paths on a ContractionHierarchy: bidirectional Dijkstra on the upward graph from
/// the source and the reversed downward graph from the target; each direction stops once its
/// smallest key is no less than the best distance found. The path is unpacked iteratively
/// through the shortcuts' middles, O(path length).
///
/// Steppable: begin(source, target) — or several sources with initial costs and a goal that
/// is a node list — then step(budget), whose expansions count settled vertices of both
/// directions; query() does both. Events (with their direction) go to the sink given at
/// construction; none are made without one. A query on a stale hierarchy (its graph edited
/// since it was built) fails with stale_world.
///
/// Owns its scratch (generation-stamped, 48 bytes per vertex, allocated on the first query or
/// by reserve()); after warm-up a query allocates nothing. Holds a reference to the hierarchy,
/// which must outlive it. Not thread-safe: one per thread. Never throws or prints.
class ChQuery {
 public:
  using Node = VertexId;

  explicit ChQuery(const ContractionHierarchy& ch, ChQueryOptions options = {},
                   search::EventSink<VertexId>* events = nullptr);
  explicit ChQuery(const ContractionHierarchy&&, ChQueryOptions = {}, search::EventSink<VertexId>* = nullptr) = delete;  // would dangle
  ChQuery(const ChQuery&) = delete;
  ChQuery& operator=(const ChQuery&) = delete;

  /// Allocates and touches the scratch now, so the first query is as fast as the others.
  void reserve();

  /// Starts a query source → target (vertex ids of the original graph).
  void begin(VertexId source, VertexId target);
  /// Starts a query from several sources to the nearest of a goal's nodes (Kind::node or
  /// any_of; a predicate or no goal is an invalid_query).
  void begin(std::span<const search::Source<VertexId>> sources, const search::Goal<VertexId>& goal);
  /// Settles vertices within the budget: Success, Failure (unreachable, an id outside the
  /// graph, cancelled, stale), or Running while there is more to do.
  Status step(const search::Budget& budget = {});
  Status step(std::size_t max_expansions) { return step(search::Budget::of_expansions(max_expansions)); }
  /// The next step() fails, flagged cancelled.
  void cancel() { cancelled_ = true; }
  /// begin() then step() to the end.
  Status query(VertexId source, VertexId target) {
    begin(source, target);
    return step();
  }

  [[nodiscard]] Status status() const { return status_; }
  /// The last query's distance; infinite_cost after a failure.
  [[nodiscard]] Cost distance() const { return distance_; }
  /// The last query's path in original vertices (empty after a failure or without unpacking).
  [[nodiscard]] const Path<VertexId>& path() const { return path_; }
  /// expanded: vertices settled (both directions); generated and scanned: arcs relaxed;
  /// max_open_size: both queues; time_s.
  [[nodiscard]] const SearchStats& stats() const { return stats_; }
  /// Settled per direction, stalled and relaxed.
  [[nodiscard]] const ChQueryStats& ch_stats() const { return ch_stats_; }

 private:
  static constexpr int forward = 0;
  static constexpr int backward = 1;

  using Record = ch_detail::QueryRecord;
  static constexpr std::uint32_t not_open = ch_detail::unset;

  template <int Dir>
  struct Positions {
    ChQuery* query = nullptr;
    void set_position(std::uint32_t slot, std::uint32_t pos) { query->records_[slot].heap_pos[Dir] = pos; }
  };

  void fail(StatusDetail why);
  void finish();
  template <int Dir>
  void push_source(VertexId v, Cost cost);
  template <int Dir>
  void settle_one();
  void unpack(std::uint32_t meet);
  void emit_arc(bool upward_arc, std::uint32_t index, std::uint32_t to_rank);
  void report(search::EventKind kind, int dir, std::uint32_t rank, Cost g, std::uint32_t parent_rank = not_open);

  const ContractionHierarchy* ch_;
  ChQueryOptions options_;
  search::EventSink<VertexId>* events_;
  search::GenerationArray<Record> records_;
  Positions<forward> forward_positions_;
  Positions<backward> backward_positions_;
  search::IndexedDaryHeap<4, Positions<forward>> forward_queue_;
  search::IndexedDaryHeap<4, Positions<backward>> backward_queue_;
  Cost best_ = infinite_cost;
  std::uint32_t meet_ = not_open;
  /// Unpacking: (arc index, is upward, head rank) still to expand, and the top-level arcs.
  struct Pending {
    std::uint32_t index;
    std::uint32_t head;
    bool upward;
  };
  std::vector<Pending> stack_;
  std::vector<Pending> top_level_;
  Status status_;
  bool cancelled_ = false;
  Cost distance_ = infinite_cost;
  Path<VertexId> path_;
  SearchStats stats_;
  ChQueryStats ch_stats_;
};

}  // namespace waymark::graph
