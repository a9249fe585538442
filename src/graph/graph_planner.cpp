#include "waymark/graph/graph_planner.hpp"

#include "waymark/core/errors.hpp"
#include "waymark/core/stopwatch.hpp"

namespace waymark::graph {
namespace {

/// Copies a search's path and settled count out of it after a query.
template <class Search>
Status finish(Search& search, Status st, Path<VertexId>& path, std::uint64_t& expanded) {
  path = search.path();
  expanded = search.stats().expanded;
  return st;
}

}  // namespace

std::optional<std::string> graph_planner_unsupported(const Graph& graph, Algorithm algorithm) {
  if (algorithm == Algorithm::astar && !graph.has_positions())
    return "astar needs vertex coordinates (a .co file, or node lists); use dijkstra, bidijkstra, alt or ch";
  if (algorithm == Algorithm::table && graph.node_count() > RouteTable::max_vertices)
    return "route tables are limited to " + std::to_string(RouteTable::max_vertices) + " vertices (V² × 4 bytes); this graph has " +
           std::to_string(graph.node_count());
  return std::nullopt;
}

GraphPlanner::GraphPlanner(const Graph& graph, const GraphPlannerOptions& options)
    : graph_(&graph), algorithm_(options.algorithm) {
  if (const auto why = graph_planner_unsupported(graph, options.algorithm)) throw BuildError(*why);
  const bool load = !options.load_from.empty();
  if (load && !has_preprocessing(options.algorithm))
    throw BuildError(std::string(to_string(options.algorithm)) + " has no preprocessing to load");
  const Stopwatch prep;
  switch (options.algorithm) {
    case Algorithm::dijkstra: query_ = std::make_unique<Dijkstra1>(graph); break;
    case Algorithm::bidijkstra:
      both_ways_ = std::make_unique<BidirectionalGraph>(graph);
      query_ = std::make_unique<BidirectionalDijkstra>(*both_ways_);
      break;
    case Algorithm::astar:
      query_ = std::make_unique<EuclideanAStar>(graph, EuclideanHeuristic::admissible(graph));
      break;
    case Algorithm::alt:
      landmarks_ = std::make_unique<Landmarks>(load ? Landmarks::load(options.load_from, graph)
                                                    : Landmarks(graph, options.landmarks));
      query_ = std::make_unique<LandmarkAStar>(graph, LandmarkHeuristic(*landmarks_));
      break;
    case Algorithm::ch:
      hierarchy_ = std::make_unique<ContractionHierarchy>(load ? ContractionHierarchy::load(options.load_from, graph)
                                                               : ContractionHierarchy::build(graph, options.hierarchy));
      query_ = std::make_unique<ChQuery>(*hierarchy_);
      break;
    case Algorithm::table:
      table_ = std::make_unique<RouteTable>(load ? RouteTable::load(options.load_from, graph) : RouteTable(graph));
      query_ = TableQuery{table_.get()};
      break;
  }
  if (has_preprocessing(options.algorithm)) preprocess_s_ = prep.seconds();
  std::visit(
      [](auto& q) {
        if constexpr (requires { q->reserve(); }) q->reserve();
      },
      query_);
}

Status GraphPlanner::plan(VertexId source, VertexId target) {
  const Stopwatch clock;
  path_.clear();
  const Status st = std::visit(
      [&](auto& q) -> Status {
        using Q = std::decay_t<decltype(q)>;
        if constexpr (std::is_same_v<Q, std::monostate>) {
          return Status{SearchState::failure, StatusDetail::none};
        } else if constexpr (std::is_same_v<Q, TableQuery>) {
          expanded_ = 0;
          return q.table->route(source, target, path_);
        } else if constexpr (std::is_same_v<Q, std::unique_ptr<ChQuery>>) {
          const Status s = q->query(source, target);
          path_ = q->path();
          expanded_ = q->stats().settled();
          return s;
        } else {
          return finish(*q, solve(*q, source, target), path_, expanded_);
        }
      },
      query_);
  time_s_ = clock.seconds();
  return st;
}

std::size_t GraphPlanner::preprocess_bytes() const {
  if (landmarks_) return landmarks_->memory_bytes();
  if (hierarchy_) return hierarchy_->memory_bytes();
  if (table_) return table_->memory_bytes();
  return 0;
}

bool GraphPlanner::save_preprocessing(const std::string& path) const {
  if (landmarks_) return landmarks_->save(path);
  if (table_) return table_->save(path);
  if (hierarchy_) {
    try {
      hierarchy_->save(path);
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }
  return false;
}

}  // namespace waymark::graph
