// Road-graph benchmark: every waymark graph algorithm against Boost Graph's Dijkstra on the
// same random queries, with every distance checked against Boost's. One JSON object per graph
// on stdout (bench/graph_bench.sh turns them into bench/results/graph.md).
//
//   waymark_bench_graph rome99|oldenburg|generated [--queries N] [--seed S] [--side N]
//
// Boost runs dijkstra_shortest_paths from the source and stops when the target is examined
// (a visitor throws), with its distance/predecessor vectors allocated once, outside the
// timing; it is the reference for every distance and the "peer" column of the table.
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/graph/generate.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "waymark/io/graph_loaders.hpp"

namespace {

using waymark::Cost;
using waymark::graph::Graph;
using waymark::graph::Algorithm;
using waymark::VertexId;

using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                         boost::property<boost::edge_weight_t, double>>;
using BoostVertex = boost::graph_traits<BoostGraph>::vertex_descriptor;

constexpr double microseconds_per_second = 1e6;
/// Distances equal Boost's when within this relative difference (sums in another order).
constexpr double relative_tolerance = 1e-9;
constexpr std::size_t default_queries = 10'000;
constexpr std::uint32_t default_side = 1000;

struct TargetReached {};

/// Stops Dijkstra when the target leaves the queue; counts examined vertices.
class StopAtTarget : public boost::default_dijkstra_visitor {
 public:
  StopAtTarget(BoostVertex target, std::uint64_t& examined) : target_(target), examined_(&examined) {}
  void examine_vertex(BoostVertex u, const BoostGraph&) {
    if (u == target_) throw TargetReached{};
    ++*examined_;
  }

 private:
  BoostVertex target_;
  std::uint64_t* examined_;
};

struct Query {
  VertexId from;
  VertexId to;
};

/// Boost's distances for every query, and its timing.
struct Reference {
  std::vector<Cost> distance;
  double time_s = 0;
  std::uint64_t examined = 0;
};

Reference run_boost(const Graph& g, const std::vector<Query>& queries) {
  BoostGraph bg(g.node_count());
  for (std::uint32_t u = 0; u < g.node_count(); ++u) {
    g.for_each_successor(VertexId{u}, [&](VertexId v, Cost w) { boost::add_edge(u, v.value, w, bg); });
  }
  std::vector<double> dist(g.node_count());
  std::vector<BoostVertex> pred(g.node_count());
  Reference ref;
  for (const Query& q : queries) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
      boost::dijkstra_shortest_paths(
          bg, q.from.value,
          boost::distance_map(boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, bg)))
              .predecessor_map(boost::make_iterator_property_map(pred.begin(), boost::get(boost::vertex_index, bg)))
              .distance_inf(waymark::infinite_cost)
              .visitor(StopAtTarget(q.to.value, ref.examined)));
    } catch (const TargetReached&) {
    }
    ref.time_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ref.distance.push_back(dist[q.to.value]);
  }
  return ref;
}

bool same_distance(Cost found, Cost expected) {
  if (std::isinf(expected)) return std::isinf(found);
  return std::abs(found - expected) <= relative_tolerance * std::max(1.0, expected);
}

nlohmann::ordered_json run_algorithm(const Graph& g, Algorithm a, const std::vector<Query>& queries,
                                     const Reference& ref) {
  nlohmann::ordered_json j{{"algorithm", waymark::graph::to_string(a)}};
  if (const auto why = waymark::graph::graph_planner_unsupported(g, a)) {
    j["skipped"] = *why;
    return j;
  }
  waymark::graph::GraphPlannerOptions options;
  options.algorithm = a;
  const waymark::Stopwatch setup;
  waymark::graph::GraphPlanner planner(g, options);
  waymark::search::SearchHandle<waymark::VertexId> planner_search = planner.make_search();
  const double setup_s = setup.seconds();
  double time_s = 0;
  std::uint64_t expanded = 0, equal = 0;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const waymark::Status st = planner_search.run(queries[i].from, queries[i].to);
    time_s += planner_search.stats().time_s;
    expanded += planner_search.stats().expanded;
    const Cost found = st.succeeded() ? planner_search.path().cost : waymark::infinite_cost;
    equal += same_distance(found, ref.distance[i]) ? 1 : 0;
  }
  const auto n = static_cast<double>(queries.size());
  j["queries"] = queries.size();
  j["equal_to_boost"] = equal;
  j["mean_us"] = time_s * microseconds_per_second / n;
  j["expanded_per_query"] = static_cast<double>(expanded) / n;
  j["preprocess_s"] = planner.preprocess_s();
  j["preprocess_bytes"] = planner.preprocess_bytes();
  j["setup_s"] = setup_s;
  if (waymark::graph::has_preprocessing(a)) {
    // Read back from a file, with every check the loader makes (docs/robustness.md).
    const std::string file = std::filesystem::temp_directory_path() / "waymark_graph_bench.prep";
    planner.save_preprocessing(file);
    options.load_from = file;
    const waymark::Stopwatch load;
    const waymark::graph::GraphPlanner loaded(g, options);
    j["load_s"] = load.seconds();
    std::filesystem::remove(file);
  }
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: waymark_bench_graph rome99|oldenburg|generated [--queries N] [--seed S] [--side N]\n";
    return 2;
  }
  const std::string which = argv[1];
  std::size_t query_count = default_queries;
  std::uint64_t seed = 1;
  std::uint32_t side = default_side;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const auto value = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--queries") query_count = value;
    else if (flag == "--seed") seed = value;
    else if (flag == "--side") side = static_cast<std::uint32_t>(value);
  }
  try {
    const std::string roads = WAYMARK_DATA_DIR "/roads/";
    const waymark::Stopwatch load;
    Graph g;
    if (which == "rome99") {
      g = waymark::io::load_dimacs_graph(roads + "rome99.gr").graph;
    } else if (which == "oldenburg") {
      g = waymark::io::load_node_edge_lists(roads + "OL.cnode.txt", roads + "OL.cedge.txt").graph;
    } else if (which == "generated") {
      waymark::graph::RoadNetworkParams p;
      p.columns = p.rows = side;
      p.seed = seed;
      g = waymark::graph::generate_road_network(p);
    } else {
      std::cerr << "unknown graph '" << which << "'\n";
      return 2;
    }
    const double load_s = load.seconds();
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::uint32_t> vertex(0, static_cast<std::uint32_t>(g.node_count() - 1));
    std::vector<Query> queries(query_count);
    for (Query& q : queries) q = {VertexId{vertex(rng)}, VertexId{vertex(rng)}};

    const Reference ref = run_boost(g, queries);
    std::size_t reachable = 0;
    for (const Cost d : ref.distance) reachable += std::isinf(d) ? 0 : 1;
    nlohmann::ordered_json out{{"graph", which},
                               {"vertices", g.node_count()},
                               {"arcs", g.arc_count()},
                               {"load_s", load_s},
                               {"queries", queries.size()},
                               {"reachable", reachable},
                               {"seed", seed},
                               {"boost_dijkstra",
                                {{"mean_us", ref.time_s * microseconds_per_second / static_cast<double>(queries.size())},
                                 {"expanded_per_query", static_cast<double>(ref.examined) / static_cast<double>(queries.size())}}}};
    nlohmann::ordered_json algorithms = nlohmann::ordered_json::array();
    for (const auto& [a, name] : waymark::graph::algorithm_names) {
      std::cerr << "graph bench: " << which << " " << name << "\n";
      algorithms.push_back(run_algorithm(g, a, queries, ref));
    }
    out["algorithms"] = algorithms;
    std::cout << out.dump() << "\n";
  } catch (const waymark::LoadError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const waymark::BuildError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  return 0;
}
