#pragma once
/// @file GraphPlanner: any of the graph searches on a Graph, chosen at run time (CLI,
/// benchmarks), with the preprocessing each one needs built, loaded or shared.

#include <cstddef>
#include <istream>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

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
  Algorithm algorithm = Algorithm::dijkstra;
  /// alt / ch / table: a file written by save_preprocessing() to load instead of building.
  std::string load_from{};
  /// alt / ch / table: read the preprocessing from this stream instead (load_from, if set,
  /// names it in errors). It is read in the constructor only.
  std::istream* load_stream = nullptr;
  LandmarkParams landmarks{};          ///< alt, when building
  ChParams hierarchy{};                ///< ch, when building
  BidirectionalOptions bidirectional{};  ///< bidijkstra
  /// What every search handed out gets unless make_search() is given other options: node
  /// limit and partial results (dijkstra, astar, alt), event sink (all).
  search::QueryOptions<VertexId> query{};
};

/// Why `algorithm` cannot run on `graph` (astar without positions, a route table for a graph
/// too large), or nullopt when it can.
[[nodiscard]] std::optional<std::string> graph_planner_unsupported(const Graph& graph, Algorithm algorithm);

/// Any of the graph searches over one graph, chosen at run time, with the preprocessing each
/// one needs built in the constructor, or loaded.
///
/// The planner holds what the searches share and only read (the reversed graph, the
/// heuristic's scale, landmarks, the hierarchy, the route table). make_search() hands out
/// search handles, each with its own scratch: one per thread. For one query at a time on one
/// thread, plan() / path() / stats() drive the planner's own handle; after the constructor
/// (the warm-up) a query allocates only while its open lists and path grow past their largest
/// size so far. Construction throws BuildError for a combination graph_planner_unsupported()
/// rejects and LoadError for a bad preprocessing file; queries never throw.
///
/// After the graph's weights are edited the planner is stale (stale()): its searches fail
/// with stale_world until sync() brings the shared data up to date — incrementally for the
/// reversed graph and the Euclidean scale, by building the preprocessing again for alt, ch
/// and table.
class GraphPlanner : public search::PlannerHandle<VertexId> {
 public:
  GraphPlanner(const Graph& graph, const GraphPlannerOptions& options);
  GraphPlanner(Graph&&, const GraphPlannerOptions&) = delete;  // would dangle
  ~GraphPlanner();
  GraphPlanner(const GraphPlanner&) = delete;
  GraphPlanner& operator=(const GraphPlanner&) = delete;

  /// A new search of the planner's algorithm, with options.query; the planner must outlive it.
  /// @warning O(V) time and memory (node records, touched so the first query is fast).
  [[nodiscard]] search::SearchHandle<VertexId> make_search() const { return make_search(options_.query); }
  [[nodiscard]] search::SearchHandle<VertexId> make_search(const search::QueryOptions<VertexId>& query) const;

  // plan(), path(), stats() and search() drive the planner's own handle (PlannerHandle):
  // Success with a path, or Failure (unreachable, an id outside the graph, stale).
  /// Vertices settled by the last query (both directions for bidirectional searches; 0 for
  /// table, which does not search), and its time.
  [[nodiscard]] std::uint64_t expanded() const { return stats().expanded; }
  [[nodiscard]] double time_s() const { return stats().time_s; }

  [[nodiscard]] Algorithm algorithm() const { return options_.algorithm; }
  [[nodiscard]] const Graph& graph() const { return *graph_; }
  /// Seconds spent building (or loading) the preprocessing, and its memory; 0 without.
  [[nodiscard]] double preprocess_s() const { return preprocess_s_; }
  [[nodiscard]] std::size_t preprocess_bytes() const;
  /// Writes the preprocessing (alt, ch, table) to a file load_from accepts.
  /// @throws SaveError when there is none or the file cannot be written.
  void save_preprocessing(const std::string& path) const;

  /// Whether the graph's weights were edited since the shared data was last brought up to date.
  [[nodiscard]] bool stale() const;
  /// Brings the shared data up to date with the graph's edits: O(edits) for bidijkstra and
  /// astar. @warning alt, ch and table build their preprocessing again (the constructor's
  /// cost). Not thread-safe: no search of this planner may run meanwhile.
  void sync();

 private:
  template <class Obs>
  std::unique_ptr<search::SearchModel<VertexId>> make_model(const search::QueryOptions<VertexId>& query,
                                                            Obs observer) const;

  const Graph* graph_;
  GraphPlannerOptions options_;
  // Shared data, built or loaded by the constructor when the algorithm needs it.
  std::unique_ptr<BidirectionalGraph> both_ways_;
  std::unique_ptr<EuclideanHeuristic> euclidean_;
  std::unique_ptr<Landmarks> landmarks_;
  std::unique_ptr<ContractionHierarchy> hierarchy_;
  std::unique_ptr<RouteTable> table_;
  double preprocess_s_ = 0;
};

}  // namespace waymark::graph
