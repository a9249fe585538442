#pragma once
/// @file GraphPlanner: any of the graph searches on a Graph, chosen at run time (CLI,
/// benchmarks), with the preprocessing each one needs built, loaded or shared.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "waymark/core/enum_names.hpp"
#include "waymark/core/path.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/graph/contraction.hpp"
#include "waymark/graph/graph.hpp"
#include "waymark/graph/heuristics.hpp"
#include "waymark/graph/landmarks.hpp"
#include "waymark/graph/shortest_paths.hpp"
#include "waymark/search/best_first.hpp"

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
  std::string load_from;
  LandmarkParams landmarks{};  ///< alt, when building
  ChParams hierarchy{};        ///< ch, when building
};

/// Why `algorithm` cannot run on `graph` (astar without positions, a route table for a graph
/// too large), or nullopt when it can.
[[nodiscard]] std::optional<std::string> graph_planner_unsupported(const Graph& graph, Algorithm algorithm);

/// Owns one reusable query object of the chosen kind, and the preprocessing it needs (built
/// in the constructor, or loaded), over one graph. Reuse it for many queries; after the
/// constructor (the warm-up) a query allocates only while its open lists and path grow past
/// their largest size so far. One planner per thread. Construction throws BuildError for a
/// combination graph_planner_unsupported() rejects and LoadError for a bad preprocessing file;
/// queries never throw.
class GraphPlanner {
 public:
  GraphPlanner(const Graph& graph, const GraphPlannerOptions& options);
  GraphPlanner(const GraphPlanner&) = delete;
  GraphPlanner& operator=(const GraphPlanner&) = delete;

  /// One query to completion: Success with path(), or Failure (unreachable, or an id outside
  /// the graph).
  Status plan(VertexId source, VertexId target);

  [[nodiscard]] const Path<VertexId>& path() const { return path_; }
  /// Vertices settled by the last query (both directions for bidirectional searches; 0 for
  /// table, which does not search), and its time.
  [[nodiscard]] std::uint64_t expanded() const { return expanded_; }
  [[nodiscard]] double time_s() const { return time_s_; }

  [[nodiscard]] Algorithm algorithm() const { return algorithm_; }
  /// Seconds spent building (or loading) the preprocessing, and its memory; 0 without.
  [[nodiscard]] double preprocess_s() const { return preprocess_s_; }
  [[nodiscard]] std::size_t preprocess_bytes() const;
  /// Writes the preprocessing (alt, ch, table) to a file load_from accepts. False when there
  /// is none or the file cannot be written.
  bool save_preprocessing(const std::string& path) const;

 private:
  struct TableQuery {
    const RouteTable* table;
  };
  using Dijkstra1 = search::Dijkstra<Graph>;
  using EuclideanAStar = search::AStar<Graph, EuclideanHeuristic>;
  using LandmarkAStar = search::AStar<Graph, LandmarkHeuristic>;

  const Graph* graph_;
  Algorithm algorithm_;
  // Preprocessing, built or loaded by the constructor when the algorithm needs it.
  std::unique_ptr<BidirectionalGraph> both_ways_;
  std::unique_ptr<Landmarks> landmarks_;
  std::unique_ptr<ContractionHierarchy> hierarchy_;
  std::unique_ptr<RouteTable> table_;
  std::variant<std::monostate, std::unique_ptr<Dijkstra1>, std::unique_ptr<BidirectionalDijkstra>,
               std::unique_ptr<EuclideanAStar>, std::unique_ptr<LandmarkAStar>, std::unique_ptr<ChQuery>, TableQuery>
      query_;
  Path<VertexId> path_;
  std::uint64_t expanded_ = 0;
  double time_s_ = 0;
  double preprocess_s_ = 0;
};

}  // namespace waymark::graph
