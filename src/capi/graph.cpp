/// The C API's road graphs (waymark.h): graph::Graph loaded from DIMACS or edge lists and
/// graph::GraphPlanner, with every argument checked before the C++ side sees it.

#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "errors.hpp"
#include "handles.hpp"
#include "search_pool.hpp"
#include "waymark/core/enum_names.hpp"
#include "waymark/core/text.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "waymark/graph/shortest_paths.hpp"
#include "waymark/io/graph_loaders.hpp"
#include "waymark/waymark.h"

namespace waymark::capi {
namespace {

using Search = search::SearchHandle<VertexId>;

struct GraphObject final : Object {
  explicit GraphObject(io::LoadedGraph g) : loaded(std::move(g)) {}
  io::LoadedGraph loaded;
};

struct GraphPlannerObject final : Object {
  GraphPlannerObject(std::shared_ptr<GraphObject> g, const graph::GraphPlannerOptions& options)
      : graph(std::move(g)), planner(graph->loaded.graph, options) {}
  std::shared_ptr<GraphObject> graph;
  graph::GraphPlanner planner;
  SearchPool<Search> searches;
  SearchPool<graph::ShortestPathTree> trees;  // wm_graph_cost_matrix's, for planners without a hierarchy

  template <class Body>
  int with_search(Body&& body) {
    return searches.with([&] { return planner.make_search(); }, std::forward<Body>(body));
  }
};



std::string vertex_text(std::uint32_t v) { return "vertex " + number_text(v); }

int vertex_check(const graph::Graph& g, std::uint32_t v) {
  if (v >= g.node_count()) {
    return fail(WM_OUT_OF_BOUNDS, vertex_text(v) + " is not in the graph (" + number_text(g.node_count()) + " vertices)");
  }
  return WM_OK;
}

}  // namespace
}  // namespace waymark::capi

using namespace waymark;        // NOLINT: the C entry points below
using namespace waymark::capi;  // NOLINT

extern "C" {

int wm_graph_load_dimacs(const char* gr_path, const char* co_path, wm_graph** out) {
  return guarded([&]() -> int {
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    if (gr_path == nullptr) return null_argument("gr_path");
    return hand_out(Kind::graph, std::make_shared<GraphObject>(io::load_dimacs_graph(gr_path, co_path == nullptr ? "" : co_path)), out);
  });
}

int wm_graph_load_edge_lists(const char* nodes_path, const char* edges_path, int directed, wm_graph** out) {
  return guarded([&]() -> int {
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    if (nodes_path == nullptr || edges_path == nullptr) return null_argument("nodes_path or edges_path");
    const auto direction = directed != 0 ? io::EdgeDirection::directed : io::EdgeDirection::undirected;
    return hand_out(Kind::graph, std::make_shared<GraphObject>(io::load_node_edge_lists(nodes_path, edges_path, direction)), out);
  });
}

int wm_graph_retain(wm_graph* g) { return retain_as(g, Kind::graph, "graph"); }
void wm_graph_release(wm_graph* g) { release_as(g, Kind::graph); }

int wm_graph_size(const wm_graph* g, uint32_t* vertices, uint64_t* arcs) {
  const GraphObject* o = find_as<GraphObject>(g, Kind::graph);
  if (o == nullptr) return invalid_handle("graph");
  if (vertices != nullptr) *vertices = static_cast<std::uint32_t>(o->loaded.graph.node_count());
  if (arcs != nullptr) *arcs = o->loaded.graph.arc_count();
  return WM_OK;
}

int wm_graph_first_file_id(const wm_graph* g, int64_t* first) {
  const GraphObject* o = find_as<GraphObject>(g, Kind::graph);
  if (o == nullptr) return invalid_handle("graph");
  if (first == nullptr) return null_argument("first");
  *first = o->loaded.ids.first();
  return WM_OK;
}

int wm_graph_planner_create(const wm_graph* g, const char* algorithm, wm_graph_planner** out) {
  return guarded([&]() -> int {
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    std::shared_ptr<GraphObject> graph = share_as<GraphObject>(g, Kind::graph);
    if (!graph) return invalid_handle("graph");
    if (algorithm == nullptr) return null_argument("algorithm");
    const auto a = graph::parse_algorithm(algorithm);
    if (!a) return fail(WM_ERROR_INVALID_ARGUMENT, "unknown algorithm " + quoted(algorithm) + " (" + choices(graph::algorithm_names) + ")");
    if (const auto why = graph::graph_planner_unsupported(graph->loaded.graph, *a)) return fail(WM_UNSUPPORTED, *why);
    graph::GraphPlannerOptions options;
    options.algorithm = *a;
    return hand_out(Kind::graph_planner, std::make_shared<GraphPlannerObject>(std::move(graph), options), out);
  });
}

int wm_graph_planner_retain(wm_graph_planner* p) { return retain_as(p, Kind::graph_planner, "graph planner"); }
void wm_graph_planner_release(wm_graph_planner* p) { release_as(p, Kind::graph_planner); }

int wm_graph_plan(wm_graph_planner* p, uint32_t source, uint32_t target, double* cost, uint32_t* vertices, int capacity,
                  int* count) {
  if (cost != nullptr) *cost = std::numeric_limits<double>::infinity();
  if (count != nullptr) *count = 0;
  return guarded([&]() -> int {
    GraphPlannerObject* o = find_as<GraphPlannerObject>(p, Kind::graph_planner);
    if (o == nullptr) return invalid_handle("graph planner");
    if (capacity < 0) return fail(WM_ERROR_INVALID_ARGUMENT, "capacity is negative");
    if (vertices == nullptr && capacity > 0) return null_argument("vertices (with a capacity above 0)");
    const graph::Graph& g = o->graph->loaded.graph;
    if (const int rc = vertex_check(g, source); rc != WM_OK) return rc;
    if (const int rc = vertex_check(g, target); rc != WM_OK) return rc;
    return o->with_search([&](Search& search) -> int {
      const Status st = search.run(VertexId{source}, VertexId{target});
      const int rc = result_of(st);
      if (rc != WM_OK) {
        return fail(rc, "no path from " + vertex_text(source) + " to " + vertex_text(target) + ": " + std::string(reason_name(st)));
      }
      const auto& nodes = search.path().nodes;
      if (cost != nullptr) *cost = search.path().cost;
      if (count != nullptr) *count = static_cast<int>(std::min<std::size_t>(nodes.size(), std::numeric_limits<int>::max()));
      if (vertices == nullptr) return WM_OK;
      const std::size_t fits = std::min(nodes.size(), static_cast<std::size_t>(capacity));
      for (std::size_t i = 0; i < fits; ++i) vertices[i] = nodes[i].value;
      if (fits < nodes.size()) {
        return fail(WM_BUFFER_TOO_SMALL, "the path has " + number_text(nodes.size()) + " vertices, the buffer room for " + number_text(fits));
      }
      return WM_OK;
    });
  });
}

int wm_graph_cost_matrix(wm_graph_planner* p, const uint32_t* sources, int source_count, const uint32_t* targets,
                         int target_count, double* costs) {
  return guarded([&]() -> int {
    GraphPlannerObject* o = find_as<GraphPlannerObject>(p, Kind::graph_planner);
    if (o == nullptr) return invalid_handle("graph planner");
    if (source_count < 0 || target_count < 0) return fail(WM_ERROR_INVALID_ARGUMENT, "a negative count");
    const std::uint64_t entries = static_cast<std::uint64_t>(source_count) * static_cast<std::uint64_t>(target_count);
    if (entries > WM_MAX_COST_MATRIX) {
      return fail(WM_ERROR_LIMIT, number_text(entries) + " entries: the limit is WM_MAX_COST_MATRIX, " + number_text(WM_MAX_COST_MATRIX));
    }
    if (entries == 0) return WM_OK;
    if (sources == nullptr || targets == nullptr || costs == nullptr) return null_argument("sources, targets or costs");
    const graph::Graph& g = o->graph->loaded.graph;
    for (int i = 0; i < source_count; ++i) {
      if (const int rc = vertex_check(g, sources[i]); rc != WM_OK) return rc;
    }
    for (int j = 0; j < target_count; ++j) {
      if (const int rc = vertex_check(g, targets[j]); rc != WM_OK) return rc;
    }
    // One shortest-path tree per source answers its whole row at the cost of one Dijkstra
    // point query (which settles as much of the graph before it meets a far target); a
    // contraction hierarchy answers each entry in microseconds, so it keeps its point queries.
    // The same costs either way (every algorithm is exact).
    if (target_count > 1 && o->planner.options().algorithm != graph::Algorithm::ch) {
      return o->trees.with([&] { return std::make_unique<graph::ShortestPathTree>(g); }, [&](graph::ShortestPathTree& tree) -> int {
        for (int i = 0; i < source_count; ++i) {
          const Status st = tree.compute(VertexId{sources[i]});
          if (!st.succeeded()) return fail(result_of(st), "no costs from " + vertex_text(sources[i]) + ": " + std::string(reason_name(st)));
          for (int j = 0; j < target_count; ++j) costs[static_cast<std::size_t>(i) * target_count + j] = tree.distance(VertexId{targets[j]});
        }
        return WM_OK;
      });
    }
    return o->with_search([&](Search& search) -> int {
      for (int i = 0; i < source_count; ++i) {
        for (int j = 0; j < target_count; ++j) {
          const Status st = search.run(VertexId{sources[i]}, VertexId{targets[j]});
          if (st.succeeded()) {
            costs[static_cast<std::size_t>(i) * target_count + j] = search.path().cost;
          } else if (st.reason() == FailureReason::unreachable) {
            costs[static_cast<std::size_t>(i) * target_count + j] = std::numeric_limits<double>::infinity();
          } else {
            return fail(result_of(st), "no cost from " + vertex_text(sources[i]) + " to " + vertex_text(targets[j]) + ": " +
                                            std::string(reason_name(st)));
          }
        }
      }
      return WM_OK;
    });
  });
}

}  // extern "C"
