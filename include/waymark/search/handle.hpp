#pragma once
/// @file SearchHandle: one type-erased, steppable search, whatever its world and algorithm.
/// Every planner hands them out and is a search::SearchSource: grid::GridPlanner,
/// graph::GraphPlanner, puzzle::PuzzleSolver, navmesh::NavPlanner, navmesh::TiledNavPlanner
/// (a tiled world whose tiles change) and visibility::VisibilityPlanner. Request queues,
/// re-planners and the viewer drive only this type. One virtual call per begin()/step(), none
/// per expansion: the search inside is the compile-time engine.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>

#include "waymark/core/path.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/search/events.hpp"
#include "waymark/search/goal.hpp"
#include "waymark/search/priorities.hpp"
#include "waymark/search/search_core.hpp"

namespace waymark::search {

/// Where a search keeps its per-node scratch.
enum class NodeTableKind : std::uint8_t {
  dense,   ///< one record per node of the world, touched up front (fastest; O(nodes) memory)
  sparse,  ///< records only for the nodes a query reaches, in pages; grids' best-first searches
};

/// The event sink of a query that has none: what QueryLimits holds in its place (no bytes).
struct NoEvents {
  friend bool operator==(NoEvents, NoEvents) = default;
};

/// What a search is told per query: its limits, and where its events go. One definition for
/// both forms: QueryLimits (no sink; nothing typed by the world's nodes: what
/// navmesh::NavQueryOptions, visibility::VisibilityQueryOptions and puzzle::PuzzleSolverOptions
/// hold) and QueryOptions<Node> (a sink typed by the world's nodes: what planners hand their
/// searches). limits() and with_events() convert between them.
template <class Sink>
struct BasicQueryOptions {
  /// Weighted A*: the inflation w of f = g + w·h. [Limit: >= 1]
  double weight = WeightedAStarPriority::default_weight;
  /// Most nodes one query may reach; beyond it the query fails with out_of_nodes. 0 = no
  /// limit (dense worlds are then bounded by their size).
  std::size_t max_nodes = 0;
  /// Best-first searches (not BFS, DFS or IDA*): when a started search fails (unreachable,
  /// out of nodes, cancelled, run_within's limits), path() leads from the start to the
  /// expanded node closest to the goal (lowest h, ties lowest g) and the status carries
  /// partial_result. Without a heuristic (Dijkstra) that node is the start.
  bool partial_result = false;
  /// Node scratch. Planners without a sparse table for an algorithm use the dense one
  /// (grids: astar, wastar, dijkstra and greedy have one; see docs/request_queue.md).
  NodeTableKind table = NodeTableKind::dense;
  /// Sparse tables: most bytes of node pages one query may hold; beyond it the query fails with
  /// out_of_nodes (checked per expansion, so one expansion's pages may go past it). 0 = no limit.
  std::size_t max_table_bytes = 0;
  /// QueryOptions<Node>: receives every event of the search; null: none are made (no cost).
  [[no_unique_address]] Sink events{};

  /// The limits alone.
  [[nodiscard]] BasicQueryOptions<NoEvents> limits() const {
    return {weight, max_nodes, partial_result, table, max_table_bytes, NoEvents{}};
  }
  /// These limits with `sink` (QueryOptions<Node> from QueryLimits: limits.with_events(sink)).
  template <class Node>
  [[nodiscard]] BasicQueryOptions<EventSink<Node>*> with_events(EventSink<Node>* sink) const {
    return {weight, max_nodes, partial_result, table, max_table_bytes, sink};
  }

  friend bool operator==(const BasicQueryOptions&, const BasicQueryOptions&) = default;
};

/// A query's limits, apart from anything typed by the world's nodes.
using QueryLimits = BasicQueryOptions<NoEvents>;
/// Options a planner passes to each search it hands out: the limits and an event sink.
template <class Node>
using QueryOptions = BasicQueryOptions<EventSink<Node>*>;

/// What SearchHandle::reserve() sizes a search for up front, so that queries within these
/// sizes allocate nothing even the first time.
struct SearchCapacity {
  std::size_t open_nodes = 0;  ///< entries of the open list
  std::size_t path_nodes = 0;  ///< nodes of the path
};

/// What a handle drives. Planners implement it for their searches (EngineModel below covers
/// the engines); users only see SearchHandle.
template <class Node>
class SearchModel {
 public:
  SearchModel() = default;
  SearchModel(const SearchModel&) = delete;
  SearchModel& operator=(const SearchModel&) = delete;
  virtual ~SearchModel() = default;

  virtual void begin(std::span<const Source<Node>> sources, const Goal<Node>& goal) = 0;
  virtual Status step(const Budget& budget) = 0;
  virtual void cancel() = 0;
  [[nodiscard]] virtual Status status() const = 0;
  [[nodiscard]] virtual const Path<Node>& path() const = 0;
  [[nodiscard]] virtual const SearchStats& stats() const = 0;
  /// Bytes of scratch the search holds now (node records, open list); 0 when not reported.
  [[nodiscard]] virtual std::size_t memory_bytes() const { return 0; }
  /// Warm-up without a query: sizes the open list and path for `capacity` (the node table is
  /// allocated when the search is made: every planner's make_search() does it). The default
  /// does nothing.
  virtual void reserve(const SearchCapacity& capacity) { static_cast<void>(capacity); }
};

/// What a model offers when its world answers a query with more than the path of nodes: a
/// navmesh's NavPath (polygons, off-mesh links taken, the method that answered), a visibility
/// graph's VisibilityPath. SearchHandle::world_result<Result>() reaches it, and a request queue
/// made with that Result keeps a copy per finished request (PathRequestQueue<Node, Result>).
/// Grids, graphs and puzzles have none: their path of nodes is the whole answer.
template <class Result>
class WorldResultSource {
 public:
  /// The world's result of the last query, valid until the next begin(): empty before one has
  /// finished.
  [[nodiscard]] virtual const Result& world_result() const = 0;

 protected:
  WorldResultSource() = default;
  WorldResultSource(const WorldResultSource&) = default;
  WorldResultSource& operator=(const WorldResultSource&) = default;
  ~WorldResultSource() = default;
};

/// A SearchModel around any engine with begin(sources, goal) / step(budget) / cancel() /
/// status() / path() / stats(). Planners derive from it to add work before or after.
template <class Search>
class EngineModel : public SearchModel<typename Search::Node> {
 public:
  using Node = typename Search::Node;

  template <class... Args>
  explicit EngineModel(Args&&... args) : search_(std::forward<Args>(args)...) {}

  void begin(std::span<const Source<Node>> sources, const Goal<Node>& goal) override { search_.begin(sources, goal); }
  Status step(const Budget& budget) override { return search_.step(budget); }
  void cancel() override { search_.cancel(); }
  [[nodiscard]] Status status() const override { return search_.status(); }
  [[nodiscard]] const Path<Node>& path() const override { return search_.path(); }
  [[nodiscard]] const SearchStats& stats() const override { return search_.stats(); }
  [[nodiscard]] std::size_t memory_bytes() const override {
    if constexpr (requires(const Search& s) { s.memory_bytes(); }) {
      return search_.memory_bytes();
    } else {
      return 0;
    }
  }

  // Cold: a warm-up, once per search. Out of line, so its code does not change how the hot
  // paths of the planners' files are inlined (which cost straight grid A* 20% when it was not).
  [[gnu::cold, gnu::noinline]] void reserve(const SearchCapacity& capacity) override {
    if constexpr (requires(Search& s) { s.reserve_open(capacity.open_nodes); }) search_.reserve_open(capacity.open_nodes);
    if constexpr (requires(Search& s) { s.reserve_path(capacity.path_nodes); }) search_.reserve_path(capacity.path_nodes);
  }

  [[nodiscard]] Search& search() { return search_; }
  [[nodiscard]] const Search& search() const { return search_; }

 private:
  Search search_;
};

/// One search, chosen at run time: begin / step(budget) / cancel / status / path / stats.
///
/// Owns its search and that search's scratch, and refers to the world (and the planner's
/// world-side data) it was made for, which must outlive it. After warm-up, begin() and step()
/// allocate nothing. Not thread-safe: one handle per thread or per agent; any number may
/// share one world. Movable, not copyable. A default-constructed handle is empty: begin()
/// fails with invalid_query.
template <class Node>
class SearchHandle {
 public:
  SearchHandle() = default;
  explicit SearchHandle(std::unique_ptr<SearchModel<Node>> model) : model_(std::move(model)) {}

  /// A handle around an engine constructed from `args`.
  template <class Search, class... Args>
  [[nodiscard]] static SearchHandle of(Args&&... args) {
    return SearchHandle(std::make_unique<EngineModel<Search>>(std::forward<Args>(args)...));
  }

  [[nodiscard]] bool empty() const { return !model_; }
  explicit operator bool() const { return !empty(); }

  /// Starts a query from `start` to `goal`; the previous result is discarded (copy it out
  /// first with copy_result() to keep it). Returns the status: Running, or already finished
  /// (a blocked start or goal, a stale world).
  Status begin(const Node& start, const Node& goal) {
    const Source<Node> source{start, 0};
    return begin(std::span<const Source<Node>>(&source, 1), Goal<Node>::at(goal));
  }
  /// Starts a query from several sources (initial costs) to a goal of any kind.
  Status begin(std::span<const Source<Node>> sources, const Goal<Node>& goal) {
    if (!model_) return invalid;
    model_->begin(sources, goal);
    return model_->status();
  }
  /// Advances the search within `budget` (default: to the end). Running while there is more.
  Status step(const Budget& budget = {}) { return model_ ? model_->step(budget) : invalid; }
  Status step(std::size_t max_expansions) { return step(Budget::of_expansions(max_expansions)); }
  /// begin() then step() to the end.
  Status run(const Node& start, const Node& goal) {
    begin(start, goal);
    return step();
  }
  /// The next step() ends the search: Failure, flagged cancelled.
  void cancel() {
    if (model_) model_->cancel();
  }

  [[nodiscard]] Status status() const { return model_ ? model_->status() : Status{}; }
  /// The path after Success (or a partial path, flagged so); empty otherwise. Valid until the
  /// next begin().
  [[nodiscard]] const Path<Node>& path() const { return model_ ? model_->path() : no_path(); }
  [[nodiscard]] const SearchStats& stats() const { return model_ ? model_->stats() : no_stats(); }
  /// Bytes of scratch the search holds now (0 when its kind does not report them).
  [[nodiscard]] std::size_t memory_bytes() const { return model_ ? model_->memory_bytes() : 0; }
  /// Warm-up before the first query: sizes the search's open list and path for `capacity`, so
  /// queries within it allocate nothing (its node table was allocated when it was made).
  /// Searches without such scratch ignore it. Allocates: call it at load time.
  void reserve(const SearchCapacity& capacity) {
    if (model_) model_->reserve(capacity);
  }

  /// Copies status, path and stats into `out`, which survives the next begin(). Reuses
  /// `out`'s capacity: no allocation once it has held as long a path.
  void copy_result(SearchResult<Node>& out) const {
    out.status = status();
    out.path.nodes.assign(path().nodes.begin(), path().nodes.end());
    out.path.cost = path().cost;
    out.stats = stats();
  }
  [[nodiscard]] SearchResult<Node> result() const {
    SearchResult<Node> r;
    copy_result(r);
    return r;
  }

  /// The world's full result of the last query (WorldResultSource): `Result` is
  /// navmesh::NavPath for NavPlanner's and TiledNavPlanner's handles, visibility::VisibilityPath
  /// for VisibilityPlanner's. Null for an empty handle and for a world without one (grids,
  /// graphs, puzzles: path() is the whole answer). Valid until the next begin(); one dynamic
  /// cast per call.
  template <class Result>
  [[nodiscard]] const Result* world_result() const {
    const auto* source = dynamic_cast<const WorldResultSource<Result>*>(model_.get());
    return source == nullptr ? nullptr : &source->world_result();
  }

  /// The model inside, for planners that hand out their own kinds.
  [[nodiscard]] SearchModel<Node>* model() { return model_.get(); }

 private:
  static constexpr Status invalid{SearchState::failure, StatusDetail::invalid_query};
  static const Path<Node>& no_path() {
    static const Path<Node> empty;
    return empty;
  }
  static const SearchStats& no_stats() {
    static const SearchStats none;
    return none;
  }

  std::unique_ptr<SearchModel<Node>> model_;
};

/// A model for a search that cannot run (an algorithm a planner cannot serve on its world): every
/// begin() and step() fails at once with `refusal`, and the path stays empty.
template <class Node>
class RefusingModel final : public SearchModel<Node> {
 public:
  explicit RefusingModel(Status refusal = Status::failure(StatusDetail::invalid_query | StatusDetail::unsupported))
      : refusal_(refusal) {}
  void begin(std::span<const Source<Node>>, const Goal<Node>&) override {}
  Status step(const Budget&) override { return refusal_; }
  void cancel() override {}
  [[nodiscard]] Status status() const override { return refusal_; }
  [[nodiscard]] const Path<Node>& path() const override { return path_; }
  [[nodiscard]] const SearchStats& stats() const override { return stats_; }

 private:
  Status refusal_;
  Path<Node> path_;
  SearchStats stats_;
};

/// Runs `search` from `start` to `goal` to its end and hands back its result: the one-shot
/// plan() of every planner.
template <class Node>
[[nodiscard]] SearchResult<Node> run_once(SearchHandle<Node> search, const Node& start, const Node& goal) {
  search.run(start, goal);
  return search.result();
}

/// Runs one query to its end, or until `limit` is spent: the whole query's expansions, scanned
/// cells and wall time, where Budget is otherwise one step's. A query the limit stops is
/// cancelled, and the returned status is Failure flagged out_of_nodes (expansions or scanned
/// ran out) or time_limit, plus partial_result when the search left a partial path (asked
/// for with QueryOptions::partial_result); the handle's own status() then says cancelled.
template <class Node>
Status run_within(SearchHandle<Node>& search, const Node& start, const Node& goal, const Budget& limit) {
  search.begin(start, goal);
  if (!search.step(limit).running()) return search.status();
  const SearchStats& done = search.stats();
  const bool out_of_nodes = done.expanded >= limit.expansions || done.scanned >= limit.scanned;
  search.cancel();
  const StatusDetail partial = search.step().has(StatusDetail::partial_result) ? StatusDetail::partial_result
                                                                               : StatusDetail::none;
  return Status::failure((out_of_nodes ? StatusDetail::out_of_nodes : StatusDetail::time_limit) | partial);
}

}  // namespace waymark::search
