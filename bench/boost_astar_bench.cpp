// Peer benchmark: Boost Graph Library A* over Moving AI scenarios, as a BGL user would write it.
//
//   waymark_bench_boost_astar FILE.map.scen… [--maps DIR] [--sample-every N]
//
// Each map becomes a compressed_sparse_row_graph of its passable cells, 8-connected without
// corner cutting (cardinal 1, diagonal √2), built once. Each query is one call of the
// documented named-parameter `boost::astar_search`, which initialises every vertex and
// allocates its own rank and colour maps per call; the predecessor and distance vectors are
// allocated once per map and handed to every call, as a user answering many queries would.
// The goal is reached by the usual found-goal exception from the visitor. Only that call is
// timed. Sampling and the optimality test are the ones `waymark scen` uses.
//
// Prints one JSON object: peer, sample_every, queries, solved, optimal, mean_us,
// expanded_total, expanded_per_query, path_steps_total. Expanded counts vertices examined
// (popped) other than the goal, the way waymark counts.
#include <boost/graph/astar_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/scenario/runner.hpp"

namespace {

using waymark::grid::CellCoord;
using waymark::grid::GridMap;

struct EdgeCost {
  double weight = 0;
};
using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, EdgeCost>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

constexpr double cardinal_cost = 1.0;
constexpr double diagonal_cost = std::numbers::sqrt2;
constexpr double microseconds_per_second = 1e6;
constexpr int exit_bad_input = 2;
constexpr Vertex no_vertex = static_cast<Vertex>(-1);

std::size_t cell_index(const GridMap& map, int x, int y) {
  return static_cast<std::size_t>(y) * static_cast<std::size_t>(map.width()) + static_cast<std::size_t>(x);
}

/// Vertex numbers of the passable cells, in row-major order.
struct CellTables {
  std::vector<Vertex> vertex_of;  ///< by cell index y·width + x; no_vertex when blocked
  std::vector<CellCoord> cell_of;  ///< by vertex
};

CellTables number_cells(const GridMap& map) {
  CellTables t;
  t.vertex_of.assign(static_cast<std::size_t>(map.width()) * static_cast<std::size_t>(map.height()), no_vertex);
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      if (!map.passable(x, y)) continue;
      t.vertex_of[cell_index(map, x, y)] = t.cell_of.size();
      t.cell_of.push_back({x, y});
    }
  }
  return t;
}

/// The moves of the benchmark rules, by source vertex.
struct EdgeList {
  std::vector<std::pair<Vertex, Vertex>> edges;
  std::vector<EdgeCost> costs;
};

EdgeList grid_edges(const GridMap& map, const CellTables& cells) {
  EdgeList e;
  for (Vertex v = 0; v < cells.cell_of.size(); ++v) {
    const auto [x, y] = cells.cell_of[v];
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx == 0 && dy == 0) || !map.passable(x + dx, y + dy)) continue;
        const bool diagonal = dx != 0 && dy != 0;
        // No corner cutting: a diagonal needs both cells it passes between.
        if (diagonal && !(map.passable(x + dx, y) && map.passable(x, y + dy))) continue;
        e.edges.emplace_back(v, cells.vertex_of[cell_index(map, x + dx, y + dy)]);
        e.costs.push_back({diagonal ? diagonal_cost : cardinal_cost});
      }
    }
  }
  return e;
}

/// A map, its passable cells as a BGL graph, and the per-query output vectors a user would
/// keep next to the graph.
struct Loaded {
  explicit Loaded(GridMap m)
      : map(std::move(m)),
        cells(number_cells(map)),
        graph(make_graph(map, cells)),
        predecessor(cells.cell_of.size()),
        distance(cells.cell_of.size()) {}

  GridMap map;
  CellTables cells;
  Graph graph;
  std::vector<Vertex> predecessor;
  std::vector<double> distance;

 private:
  static Graph make_graph(const GridMap& map, const CellTables& cells) {
    const EdgeList e = grid_edges(map, cells);
    // The edges are sorted, but the edges_are_sorted constructor trips a false GCC 12
    // -Warray-bounds in Boost's inlined code; the multi-pass one only adds a counting pass.
    return Graph(boost::edges_are_unsorted_multi_pass, e.edges.begin(), e.edges.end(), e.costs.begin(),
                 cells.cell_of.size());
  }
};

/// Octile distance to the goal: exact on an open grid, so admissible and consistent here.
class OctileHeuristic : public boost::astar_heuristic<Graph, double> {
 public:
  OctileHeuristic(const std::vector<CellCoord>& cells, CellCoord goal) : cells_(&cells), goal_(goal) {}
  double operator()(Vertex v) const {
    const CellCoord c = (*cells_)[v];
    const double dx = std::abs(c.x - goal_.x);
    const double dy = std::abs(c.y - goal_.y);
    return std::max(dx, dy) + (diagonal_cost - cardinal_cost) * std::min(dx, dy);
  }

 private:
  const std::vector<CellCoord>* cells_;
  CellCoord goal_;
};

struct FoundGoal {};

/// Counts examined vertices and stops the search at the goal.
class GoalVisitor : public boost::default_astar_visitor {
 public:
  GoalVisitor(Vertex goal, std::uint64_t& expanded) : goal_(goal), expanded_(&expanded) {}
  void examine_vertex(Vertex u, const Graph& /*graph*/) {
    if (u == goal_) throw FoundGoal{};
    ++*expanded_;
  }

 private:
  Vertex goal_;
  std::uint64_t* expanded_;
};

struct Totals {
  std::size_t queries = 0;
  std::size_t solved = 0;
  std::size_t optimal = 0;
  std::uint64_t expanded = 0;
  std::uint64_t path_steps = 0;
  double time_s = 0;
};

/// Runs one scenario file's sampled queries; maps are loaded per file, as `waymark scen` does.
void run_file(const std::string& file, const std::string& maps_dir, std::size_t sample_every, Totals& t) {
  const waymark::io::Scenario scenario = waymark::io::load_movingai_scenario(file);
  std::map<std::string, std::unique_ptr<Loaded>> cache;
  for (std::size_t i = 0; i < scenario.queries.size(); ++i) {
    if (i % sample_every != 0) continue;
    const waymark::io::ScenarioQuery& q = scenario.queries[i];
    const std::string map_path = waymark::scenario::resolve_map_path(file, q.map, maps_dir);
    auto it = cache.find(map_path);
    if (it == cache.end()) {
      if (!std::filesystem::exists(map_path))
        throw waymark::LoadError(file, q.line, "map '" + q.map + "' not found at " + map_path);
      it = cache.emplace(map_path, std::make_unique<Loaded>(waymark::io::load_movingai_map(map_path))).first;
    }
    Loaded& l = *it->second;
    waymark::io::validate_query(scenario, q, l.map, map_path);
    const Vertex start = l.cells.vertex_of[cell_index(l.map, q.start.x, q.start.y)];
    const Vertex goal = l.cells.vertex_of[cell_index(l.map, q.goal.x, q.goal.y)];

    std::uint64_t expanded = 0;
    bool found = false;
    const auto t0 = std::chrono::steady_clock::now();
    try {
      boost::astar_search(
          l.graph, start, OctileHeuristic(l.cells.cell_of, q.goal),
          boost::weight_map(boost::get(&EdgeCost::weight, l.graph))
              .predecessor_map(boost::make_iterator_property_map(l.predecessor.begin(),
                                                                 boost::get(boost::vertex_index, l.graph)))
              .distance_map(boost::make_iterator_property_map(l.distance.begin(),
                                                              boost::get(boost::vertex_index, l.graph)))
              .visitor(GoalVisitor(goal, expanded)));
    } catch (const FoundGoal&) {
      found = true;
    }
    const auto t1 = std::chrono::steady_clock::now();

    ++t.queries;
    t.expanded += expanded;
    t.time_s += std::chrono::duration<double>(t1 - t0).count();
    if (!found) continue;
    ++t.solved;
    if (q.matches_optimal(l.distance[goal])) ++t.optimal;
    for (Vertex v = goal; v != start; v = l.predecessor[v]) ++t.path_steps;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  std::string maps_dir;
  long sample_every = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--maps" && i + 1 < argc) {
      maps_dir = argv[++i];
    } else if (a == "--sample-every" && i + 1 < argc) {
      char* end = nullptr;
      sample_every = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || sample_every < 1) {
        std::cerr << "waymark_bench_boost_astar: --sample-every needs an integer >= 1\n";
        return exit_bad_input;
      }
    } else if (a.starts_with("--")) {
      std::cerr << "usage: waymark_bench_boost_astar FILE.map.scen... [--maps DIR] [--sample-every N]\n";
      return exit_bad_input;
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) {
    std::cerr << "usage: waymark_bench_boost_astar FILE.map.scen... [--maps DIR] [--sample-every N]\n";
    return exit_bad_input;
  }

  Totals t;
  try {
    for (const std::string& f : files) run_file(f, maps_dir, static_cast<std::size_t>(sample_every), t);
  } catch (const std::exception& e) {
    std::cerr << "waymark_bench_boost_astar: " << e.what() << "\n";
    return exit_bad_input;
  }
  const double queries = t.queries == 0 ? 1.0 : static_cast<double>(t.queries);
  const nlohmann::json j = {{"peer", "boost-astar"},
                            {"sample_every", sample_every},
                            {"queries", t.queries},
                            {"solved", t.solved},
                            {"optimal", t.optimal},
                            {"mean_us", t.time_s * microseconds_per_second / queries},
                            {"expanded_total", t.expanded},
                            {"expanded_per_query", static_cast<double>(t.expanded) / queries},
                            {"path_steps_total", t.path_steps}};
  std::cout << j.dump() << "\n";
  return t.optimal == t.queries ? 0 : 1;
}
