#pragma once
// Graphs as plain edge lists (kept apart from waymark::Graph so the CSR build is checked too),
// seeded random ones, Boost Graph's Dijkstra as the reference, and the path check.

#include <gtest/gtest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "waymark/core/path.hpp"
#include "waymark/graph/graph.hpp"

namespace waymark::test {
using namespace graph;

/// Distances are compared to the reference with this relative tolerance (the summation
/// orders differ), never below an absolute 1e-9.
inline constexpr double relative_cost_eps = 1e-9;
inline double cost_tolerance(double expected) { return relative_cost_eps * std::max(1.0, expected); }

struct RawEdge {
  std::uint32_t from;
  std::uint32_t to;
  double weight;
  bool undirected;  ///< also to → from
};

/// A graph as a file or a generator describes it.
struct EdgeList {
  std::size_t vertices = 0;
  std::vector<RawEdge> edges;
  std::vector<Vec3> positions;  ///< empty: no coordinates
  Coordinates coordinates = Coordinates::none;

  [[nodiscard]] std::size_t arc_count() const {
    std::size_t n = 0;
    for (const RawEdge& e : edges) n += e.undirected ? 2 : 1;
    return n;
  }
};

inline Graph build_graph(const EdgeList& list) {
  GraphBuilder b(list.vertices);
  for (const RawEdge& e : list.edges) {
    if (e.undirected) {
      b.add_undirected_edge(VertexId{e.from}, VertexId{e.to}, e.weight);
    } else {
      b.add_edge(VertexId{e.from}, VertexId{e.to}, e.weight);
    }
  }
  if (list.coordinates != Coordinates::none) b.set_positions(list.positions, list.coordinates);
  return b.build();
}

/// Shortest distances from `source` by boost::dijkstra_shortest_paths; infinite: unreachable.
class BoostReference {
 public:
  explicit BoostReference(const EdgeList& list) : graph_(list.vertices) {
    for (const RawEdge& e : list.edges) {
      boost::add_edge(e.from, e.to, e.weight, graph_);
      if (e.undirected) boost::add_edge(e.to, e.from, e.weight, graph_);
    }
  }

  [[nodiscard]] std::vector<Cost> distances(std::uint32_t source) const {
    std::vector<Cost> dist(boost::num_vertices(graph_));
    boost::dijkstra_shortest_paths(
        graph_, source,
        boost::distance_map(boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, graph_)))
            .distance_inf(infinite_cost));
    return dist;
  }

 private:
  using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                           boost::property<boost::edge_weight_t, double>>;
  BoostGraph graph_;
};

/// Calls check(start, goal, Boost's distance) for `sources` random starts × `targets` random
/// goals (seeded); returns how many pairs were reachable.
template <class Check>
std::size_t for_random_pairs(const EdgeList& list, int sources, int targets, unsigned seed, Check check) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::uint32_t> vertex(0, static_cast<std::uint32_t>(list.vertices - 1));
  const BoostReference boost_ref(list);
  std::size_t reachable = 0;
  for (int s = 0; s < sources; ++s) {
    const VertexId start{vertex(rng)};
    const std::vector<Cost> dist = boost_ref.distances(start.value);
    for (int t = 0; t < targets; ++t) {
      const VertexId goal{vertex(rng)};
      reachable += dist[goal.value] == infinite_cost ? 0 : 1;
      check(start, goal, dist[goal.value]);
    }
  }
  return reachable;
}

/// What sample_pairs() visited.
struct PairCounts {
  std::size_t pairs = 0;
  std::size_t unreachable = 0;
};

/// The pairs the random-graph tests check: `sources` random starts, and from each every vertex
/// as a goal when the graph has at most `max_targets` vertices, else `max_targets` random
/// goals. Calls on_source(start, Boost's distances from it), then check(start, goal, Boost's
/// distance) for every pair.
template <class OnSource, class Check>
PairCounts sample_pairs(const EdgeList& list, const BoostReference& boost_ref, std::mt19937& rng, int sources,
                        std::size_t max_targets, OnSource on_source, Check check) {
  PairCounts counts;
  std::uniform_int_distribution<std::uint32_t> vertex(0, static_cast<std::uint32_t>(list.vertices - 1));
  for (int s = 0; s < sources; ++s) {
    const VertexId start{vertex(rng)};
    const std::vector<Cost> dist = boost_ref.distances(start.value);
    on_source(start, dist);
    const std::size_t targets = std::min(max_targets, list.vertices);
    for (std::size_t t = 0; t < targets; ++t) {
      const VertexId goal{list.vertices <= max_targets ? static_cast<std::uint32_t>(t) : vertex(rng)};
      ++counts.pairs;
      counts.unreachable += dist[goal.value] == infinite_cost ? 1 : 0;
      check(start, goal, dist[goal.value]);
    }
  }
  return counts;
}

/// The cheapest arc weight for every (from, to) pair of an edge list.
class CheapestArcs {
 public:
  explicit CheapestArcs(const EdgeList& list) {
    for (const RawEdge& e : list.edges) {
      note(e.from, e.to, e.weight);
      if (e.undirected) note(e.to, e.from, e.weight);
    }
  }

  /// From start to goal along arcs of the list, and the cost is the sum of their weights.
  [[nodiscard]] ::testing::AssertionResult is_valid_path(const Path<VertexId>& path, VertexId start,
                                                         VertexId goal) const {
    if (path.nodes.empty()) return ::testing::AssertionFailure() << "empty path";
    if (path.nodes.front() != start) return ::testing::AssertionFailure() << "does not begin at the start";
    if (path.nodes.back() != goal) return ::testing::AssertionFailure() << "does not end at the goal";
    double sum = 0;
    for (std::size_t i = 1; i < path.nodes.size(); ++i) {
      const auto it = weight_.find(key(path.nodes[i - 1].value, path.nodes[i].value));
      if (it == weight_.end())
        return ::testing::AssertionFailure() << "step " << i << " (" << path.nodes[i - 1].value << " -> "
                                             << path.nodes[i].value << ") is not an arc";
      sum += it->second;
    }
    if (std::abs(sum - path.cost) > cost_tolerance(sum))
      return ::testing::AssertionFailure() << "cost " << path.cost << " != sum of arc weights " << sum;
    return ::testing::AssertionSuccess();
  }

 private:
  static std::uint64_t key(std::uint32_t from, std::uint32_t to) { return std::uint64_t{from} << 32 | to; }
  void note(std::uint32_t from, std::uint32_t to, double w) {
    const auto [it, fresh] = weight_.try_emplace(key(from, to), w);
    if (!fresh) it->second = std::min(it->second, w);
  }

  std::unordered_map<std::uint64_t, double> weight_;
};

/// A random graph with every kind of edge case: isolated vertices (a quarter at most never get
/// an edge), one-way and two-way edges, parallel edges, self-loops; with coordinates, weights
/// are the length times 1 to 3 (some exactly the length), without, some are 0 and some are
/// small integers (ties).
inline EdgeList random_edge_list(std::mt19937& rng, Coordinates coordinates) {
  constexpr std::uint32_t max_vertices = 60;
  constexpr double coordinate_extent = 100;
  EdgeList list;
  list.vertices = std::uniform_int_distribution<std::uint32_t>(1, max_vertices)(rng);
  list.coordinates = coordinates;
  std::uniform_real_distribution<double> coord(0, coordinate_extent);
  if (coordinates != Coordinates::none) {
    for (std::size_t v = 0; v < list.vertices; ++v)
      list.positions.push_back({coord(rng), coord(rng), coordinates == Coordinates::xyz ? coord(rng) : 0});
  }
  std::vector<std::uint32_t> connected(list.vertices);
  for (std::uint32_t v = 0; v < list.vertices; ++v) connected[v] = v;
  std::shuffle(connected.begin(), connected.end(), rng);
  connected.resize(list.vertices - std::uniform_int_distribution<std::size_t>(0, list.vertices / 4)(rng));

  std::uniform_real_distribution<double> unit(0, 1);
  std::uniform_int_distribution<std::size_t> pick(0, connected.size() - 1);
  const std::size_t edges = std::uniform_int_distribution<std::size_t>(list.vertices / 2, 4 * list.vertices)(rng);
  for (std::size_t i = 0; i < edges; ++i) {
    RawEdge e{connected[pick(rng)], connected[pick(rng)], 0, unit(rng) < 0.3};
    const double kind = unit(rng);
    if (kind < 0.05) {
      e.to = e.from;  // self-loop
    } else if (kind < 0.15 && !list.edges.empty()) {
      const RawEdge& twin = list.edges[std::uniform_int_distribution<std::size_t>(0, list.edges.size() - 1)(rng)];
      e.from = twin.from;  // parallel to an earlier edge, its own weight
      e.to = twin.to;
    }
    const double roll = unit(rng);
    if (coordinates != Coordinates::none) {
      const double length = distance(list.positions[e.from], list.positions[e.to]);
      e.weight = roll < 0.1 ? length : length * (1 + 2 * unit(rng));
      if (length == 0) e.weight = coordinate_extent * unit(rng);
    } else {
      e.weight = roll < 0.1 ? 0.0 : roll < 0.5 ? std::floor(1 + 10 * unit(rng)) : 20 * unit(rng);
    }
    list.edges.push_back(e);
  }
  return list;
}

/// `a U V W` lines of a DIMACS .gr, read without the library's loader.
inline EdgeList read_dimacs_arcs_plainly(const std::string& path) {
  std::ifstream in(path);
  EdgeList list;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string tag;
    fields >> tag;
    if (tag == "p") {
      std::string sp;
      fields >> sp >> list.vertices;
    } else if (tag == "a") {
      std::uint32_t u = 0, v = 0;
      double w = 0;
      fields >> u >> v >> w;
      list.edges.push_back({u - 1, v - 1, w, false});
    }
  }
  return list;
}

/// `ID X Y` and `EDGE_ID U V LENGTH` lists, read without the library's loader.
inline EdgeList read_node_edge_lists_plainly(const std::string& nodes, const std::string& edges) {
  EdgeList list;
  list.coordinates = Coordinates::xy;
  std::ifstream node_in(nodes);
  std::uint32_t id = 0;
  double x = 0, y = 0;
  while (node_in >> id >> x >> y) {
    if (id >= list.positions.size()) list.positions.resize(id + 1);
    list.positions[id] = {x, y, 0};
  }
  list.vertices = list.positions.size();
  std::ifstream edge_in(edges);
  std::uint32_t edge_id = 0, u = 0, v = 0;
  double length = 0;
  while (edge_in >> edge_id >> u >> v >> length) list.edges.push_back({u, v, length, true});
  return list;
}

}  // namespace waymark::test
