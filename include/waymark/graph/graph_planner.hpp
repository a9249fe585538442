#pragma once
/// @file GraphPlanner: the graph searches on a Graph, any chosen per call, with the
/// preprocessing each one needs built, loaded or shared; the planner is the search source
/// request queues take.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "waymark/core/enum_names.hpp"
#include "waymark/core/path.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/graph/ch_query.hpp"
#include "waymark/graph/contraction.hpp"
#include "waymark/graph/graph.hpp"
#include "waymark/graph/heuristics.hpp"
#include "waymark/graph/landmarks.hpp"
#include "waymark/graph/shortest_paths.hpp"
#include "waymark/search/handle.hpp"
#include "waymark/search/search_core.hpp"
#include "waymark/search/planner.hpp"

namespace waymark::graph {

/// The graph searches. alt, ch and table need preprocessing; astar needs vertex positions.
enum class Algorithm : std::uint8_t { dijkstra, bidijkstra, astar, alt, ch, table };

inline constexpr EnumNames<Algorithm, 6> algorithm_names{{
    {Algorithm::dijkstra, "dijkstra"},
    {Algorithm::bidijkstra, "bidijkstra"},
    {Algorithm::astar, "astar"},
    {Algorithm::alt, "alt"},
    {Algorithm::ch, "ch"},
    {Algorithm::table, "table"},
}};
[[nodiscard]] constexpr std::string_view to_string(Algorithm a) { return name_of(algorithm_names, a); }
[[nodiscard]] constexpr std::optional<Algorithm> parse_algorithm(std::string_view name) {
  return value_of(algorithm_names, name);
}
/// Whether the algorithm keeps a preprocessed structure that can be saved and loaded.
[[nodiscard]] constexpr bool has_preprocessing(Algorithm a) {
  return a == Algorithm::alt || a == Algorithm::ch || a == Algorithm::table;
}

struct GraphPlannerOptions {
  /// The search make_search() and plan() hand out when not told another one; any other can
  /// be chosen per call (make_search(Algorithm, ...), plan(..., Algorithm)).
  Algorithm algorithm = Algorithm::dijkstra;
  /// Other algorithms whose preprocessing (alt, ch, table) the constructor builds too, so
  /// they can be chosen per call: {Algorithm::alt, Algorithm::ch} on a planner of dijkstra
  /// answers all three. (bidijkstra and astar need no preprocessing: their shared data is
  /// made when first asked for.) A call for alt, ch or table without it is refused
  /// (invalid_query | unsupported).
  std::vector<Algorithm> prepare{};
  /// `algorithm`'s preprocessing (alt / ch / table): a file written by save_preprocessing()
  /// to load instead of building.
  std::string load_from{};
  /// The same read from this stream instead (load_from, if set, names it in errors). It is
  /// read in the constructor only.
  std::istream* load_stream = nullptr;
  LandmarkParams landmarks{};          ///< alt, when building
  ChParams hierarchy{};                ///< ch, when building
  BidirectionalOptions bidirectional{};  ///< bidijkstra
  /// What every search handed out gets unless it is given other options: node limit and
  /// partial results (dijkstra, astar, alt), event sink (all).
  search::QueryOptions<VertexId> query{};
};

/// Why `algorithm` cannot run on `graph` (astar without positions, a route table for a graph
/// too large), or nullopt when it can.
[[nodiscard]] std::optional<std::string> graph_planner_unsupported(const Graph& graph, Algorithm algorithm);

/// The graph searches over one graph, any chosen per call, with the preprocessing each one
/// needs built in the constructor, or loaded; the planner is itself the search source a
/// request queue takes (search::SearchSource<VertexId>).
///
/// The planner holds what the searches share and only read (the reversed graph, the
/// heuristic's scale, landmarks, the hierarchy, the route table) and no query state:
/// make_search() hands out search handles, each with its own scratch (one per thread), and
/// plan() runs one query on a search made for it. After warm-up a handle's queries allocate
/// only while its open lists and path grow past their largest size so far. Construction
/// throws BuildError for a default algorithm graph_planner_unsupported() rejects and
/// LoadError for a bad preprocessing file; queries never throw.
///
/// After the graph's weights are edited the planner is stale (stale()): its searches fail
/// with stale_world until sync() brings the shared data up to date — incrementally for the
/// reversed graph and the Euclidean scale, by building the preprocessing again for alt, ch
/// and table.
class GraphPlanner final : public search::PlannerBase<GraphPlanner, VertexId, Algorithm> {
 public:
  using PlannerBase::make_search;
  using PlannerBase::plan;
  using PlannerBase::unsupported;

  GraphPlanner(const Graph& graph, const GraphPlannerOptions& options = {});
  GraphPlanner(const Graph&&, const GraphPlannerOptions& = {}) = delete;  // would dangle
  ~GraphPlanner() override;

  /// What make_search() and plan() use when not told: options.algorithm and options.query.
  [[nodiscard]] Algorithm default_algorithm() const { return options_.algorithm; }
  [[nodiscard]] search::QueryOptions<VertexId> default_query() const { return options_.query; }

  /// A new search of `algorithm` with these query options (options().query for the planner's);
  /// make_search() and make_search(query) use the defaults above. The planner must outlive it.
  /// @warning O(V) time and memory (node records, touched so the first query is fast).
  [[nodiscard]] search::SearchHandle<VertexId> make_search(Algorithm algorithm,
                                                           const search::QueryOptions<VertexId>& query) const;

  // plan(source, target[, algorithm[, query]]): one query to its end on a search made for it
  // (search::PlannerBase): status, path (Success with a path, or Failure: unreachable, an id
  // outside the graph, stale) and stats (vertices settled, both directions for the
  // bidirectional searches; 0 for table). Allocates O(V); for repeated queries keep a handle
  // from make_search().

  /// Why `algorithm` (default: options.algorithm) cannot run on this planner: the graph
  /// lacks what it needs, or its preprocessing was not prepared (GraphPlannerOptions::prepare).
  [[nodiscard]] std::optional<std::string> unsupported(Algorithm algorithm) const;

  [[nodiscard]] Algorithm algorithm() const { return options_.algorithm; }
  [[nodiscard]] const GraphPlannerOptions& options() const { return options_; }
  [[nodiscard]] const Graph& graph() const { return *graph_; }
  /// Seconds spent building (or loading) the preprocessing, and its memory; 0 without.
  [[nodiscard]] double preprocess_s() const { return preprocess_s_; }
  [[nodiscard]] std::size_t preprocess_bytes() const;
  /// Writes options.algorithm's preprocessing (alt, ch, table) to a file load_from accepts.
  /// @throws SaveError when there is none or the file cannot be written.
  void save_preprocessing(const std::string& path) const;

  /// Whether the graph's weights were edited since the shared data was last brought up to date.
  [[nodiscard]] bool stale() const override;
  /// Brings the shared data up to date with the graph's edits: O(edits) for bidijkstra and
  /// astar. @warning alt, ch and table build their preprocessing again (the constructor's
  /// cost). Not thread-safe: nothing else may use the planner meanwhile (no search of it, no
  /// make_search() or plan()). Returns the graph's version and the vertices whose shared data
  /// was recomputed (every vertex of a rebuilt structure; 0 when nothing was stale).
  search::SyncReport sync();

  // search::SearchSource<VertexId>; graph searches have no sparse node table.
  [[nodiscard]] std::uint64_t world_version() const override { return graph_->version(); }
  [[nodiscard]] std::size_t node_count() const override { return graph_->node_count(); }

 private:
  template <class Obs>
  std::unique_ptr<search::SearchModel<VertexId>> make_model(Algorithm algorithm,
                                                            const search::QueryOptions<VertexId>& query,
                                                            Obs observer) const;
  /// Bidirectional Dijkstra's reversed graph and A*'s heuristic, made when first asked for.
  const BidirectionalGraph& both_ways() const;
  const EuclideanHeuristic& euclidean() const;
  void build_preprocessing(Algorithm algorithm, bool load);

  const Graph* graph_;
  GraphPlannerOptions options_;
  // Shared data: the cheap ones made on first use (thread-safe), the preprocessing built or
  // loaded by the constructor.
  mutable std::once_flag both_ways_once_;
  mutable std::once_flag euclidean_once_;
  mutable std::unique_ptr<BidirectionalGraph> both_ways_;
  mutable std::unique_ptr<EuclideanHeuristic> euclidean_;
  // What stale() reads: set once the structure above is built, so a thread asking whether the
  // planner is stale never races one building it.
  mutable std::atomic<const BidirectionalGraph*> both_ways_ready_{nullptr};
  mutable std::atomic<const EuclideanHeuristic*> euclidean_ready_{nullptr};
  std::unique_ptr<Landmarks> landmarks_;
  std::unique_ptr<ContractionHierarchy> hierarchy_;
  std::unique_ptr<RouteTable> table_;
  double preprocess_s_ = 0;
};

static_assert(search::Planner<GraphPlanner>);

}  // namespace waymark::graph
