// Any-angle paths: Theta* against A* and A* smoothed by line of sight (8-connected, no corner
// cutting, the scenarios' semantics). Prints one JSON object per query set:
// - Moving AI scenario files: mean path length / Moving AI optimal (the 8-connected optimum),
//   and CPU µs per query (A* smoothed: the search plus the smoothing);
// - with --rectangles, generated maps of disjoint blocked rectangles (tests/support/
//   rectangle_obstacles.hpp, as the smoothing tests use): mean length / the true Euclidean
//   shortest path, from the visibility graph over the same obstacles, and its µs per query.
//
// waymark_bench_any_angle [--sample-every N] [--name NAME] [--rectangles] [FILE.scen...]
//   (maps beside each file)
#include <time.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/rectangle_obstacles.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/grid/path_smoothing.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/scenario/runner.hpp"
#include "waymark/visibility/visibility_graph.hpp"
#include "waymark/visibility/visibility_query.hpp"

namespace {

using namespace waymark;
using namespace waymark::grid;

/// This thread's CPU time, seconds: the build machine is shared, and wall-clock times there
/// swing with the other jobs while CPU time does not (much).
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct Tally {
  double ratio_sum = 0;  ///< Σ cost / optimal
  double time_s = 0;
  std::size_t waypoints = 0;
  std::uint64_t expanded = 0;
  std::uint64_t reopened = 0;

  [[nodiscard]] nlohmann::json json(std::size_t n) const {
    const auto q = static_cast<double>(n == 0 ? 1 : n);
    return {{"mean_ratio", ratio_sum / q}, {"us_per_query", time_s * 1e6 / q}, {"mean_waypoints", static_cast<double>(waypoints) / q},
            {"mean_expanded", static_cast<double>(expanded) / q}, {"mean_reopened", static_cast<double>(reopened) / q}};
  }
};

/// One family of generated rectangle maps.
struct RectangleSet {
  const char* name;
  test::RectangleMapSpec spec;
  int maps;
  int queries_per_map;
};

/// Generated maps of disjoint rectangles (seeded, the same every run): A*, smoothed A* and
/// Theta* against the true Euclidean shortest path (A* over the visibility graph of the same
/// obstacles, cell centres as ends). Prints one JSON object.
void run_rectangle_set(const RectangleSet& set, std::uint32_t seed) {
  constexpr DiagonalRule rule = DiagonalRule::no_corner_cutting;
  std::mt19937 rng(seed);
  Tally astar, smoothed, theta, esp;
  double graph_build_s = 0, smoothing_s = 0;
  std::size_t queries = 0, below_esp = 0, obstacles = 0;
  std::vector<CellId> smooth_out;
  std::vector<CellRect> rects;
  for (int m = 0; m < set.maps; ++m) {
    const GridMap map = test::rectangle_map(rng, set.spec, rects);
    obstacles += rects.size();
    const double b0 = cpu_seconds();
    const visibility::VisibilityGraph graph(test::rectangle_obstacles(map, rects));
    graph_build_s += cpu_seconds() - b0;
    visibility::VisibilityQuery esp_query(graph);
    GridPlanner a_planner(map, {.algorithm = Algorithm::astar, .diagonal = rule});
    search::SearchHandle<CellId> a_planner_search = a_planner.make_search();
    GridPlanner t_planner(map, {.algorithm = Algorithm::theta, .diagonal = rule});
    search::SearchHandle<CellId> t_planner_search = t_planner.make_search();
    std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(map.cell_count() - 1));
    for (int q = 0; q < set.queries_per_map;) {
      const CellId s{pick(rng)}, g{pick(rng)};
      if (!map.passable(s) || !map.passable(g) || s == g) continue;
      ++q;
      const double t0 = cpu_seconds();
      const bool a_ok = a_planner_search.run(s, g).succeeded();
      const double t1 = cpu_seconds();
      const SmoothingResult sm = smooth_path(a_planner.space(), a_planner_search.path().nodes, smooth_out);
      const double t2 = cpu_seconds();
      const bool t_ok = t_planner_search.run(s, g).succeeded();
      const double t3 = cpu_seconds();
      const bool e_ok = esp_query.find_path(map.cell_center(s), map.cell_center(g)).succeeded();
      const double t4 = cpu_seconds();
      if (!a_ok || !t_ok || !e_ok) {
        std::cerr << set.name << ": map " << m << ": no path (astar " << a_ok << ", theta " << t_ok << ", esp " << e_ok
                  << ")\n";
        std::exit(1);
      }
      ++queries;
      const double shortest = esp_query.path().length;
      astar.ratio_sum += a_planner_search.path().cost / shortest;
      astar.time_s += t1 - t0;
      astar.waypoints += a_planner_search.path().nodes.size();
      astar.expanded += a_planner_search.stats().expanded;
      smoothed.ratio_sum += sm.cost / shortest;
      smoothed.time_s += t2 - t0;
      smoothed.waypoints += smooth_out.size();
      smoothed.expanded += a_planner_search.stats().expanded;
      smoothing_s += t2 - t1;
      theta.ratio_sum += t_planner_search.path().cost / shortest;
      theta.time_s += t3 - t2;
      theta.waypoints += t_planner_search.path().nodes.size();
      theta.expanded += t_planner_search.stats().expanded;
      theta.reopened += t_planner_search.stats().reopened;
      esp.ratio_sum += 1;
      esp.time_s += t4 - t3;
      esp.waypoints += esp_query.path().points.size();
      esp.expanded += esp_query.stats().expanded;
      if (t_planner_search.path().cost < shortest * (1 - 1e-9)) ++below_esp;  // would be a bug
    }
  }
  const auto n = static_cast<double>(queries == 0 ? 1 : queries);
  const nlohmann::json j = {
      {"set", set.name},
      {"width", set.spec.width},
      {"height", set.spec.height},
      {"maps", set.maps},
      {"mean_rectangles", static_cast<double>(obstacles) / set.maps},
      {"max_side", set.spec.max_side},
      {"queries", queries},
      {"reference", "true Euclidean shortest path (visibility graph)"},
      {"astar", astar.json(queries)},
      {"astar_smoothed", smoothed.json(queries)},
      {"theta", theta.json(queries)},
      {"visibility", esp.json(queries)},
      {"visibility_graph_build_ms_per_map", graph_build_s * 1e3 / set.maps},
      {"smoothing_only_us_per_query", smoothing_s * 1e6 / n},
      {"theta_below_shortest", below_esp}};
  std::cout << j.dump() << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t sample_every = 1;
  std::string name = "set";
  std::vector<std::string> files;
  bool rectangles = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--sample-every" && i + 1 < argc) {
      sample_every = std::strtoull(argv[++i], nullptr, 10);
      if (sample_every == 0) sample_every = 1;
    } else if (a == "--name" && i + 1 < argc) {
      name = argv[++i];
    } else if (a == "--rectangles") {
      rectangles = true;
    } else {
      files.push_back(a);
    }
  }
  if (rectangles) {
    // Small and large maps, few large rectangles and many small ones; seeded per set.
    const RectangleSet sets[] = {
        {"rectangles-64", {.width = 64, .height = 64, .count = 60, .max_side = 8, .tries = 2000}, 20, 100},
        {"rectangles-128-dense", {.width = 128, .height = 128, .count = 400, .max_side = 5, .tries = 8000}, 10, 100},
        {"rectangles-256", {.width = 256, .height = 256, .count = 300, .max_side = 16, .tries = 8000}, 8, 100},
    };
    std::uint32_t seed = 13;
    for (const RectangleSet& set : sets) run_rectangle_set(set, seed++);
    if (files.empty()) return 0;
  }
  constexpr DiagonalRule rule = DiagonalRule::no_corner_cutting;
  Tally astar, smoothed, theta;
  std::size_t queries = 0, theta_below_smoothed = 0, theta_above_smoothed = 0;
  double smoothing_s = 0;  // smooth_path alone
  std::vector<CellId> smooth_out;
  std::size_t index = 0;  // over all files, so sampling spreads across them
  for (const std::string& file : files) {
    const io::Scenario scen = io::load_movingai_scenario(file);
    std::map<std::string, std::unique_ptr<GridMap>> maps;
    std::unique_ptr<GridPlanner> a_planner, t_planner;
    search::SearchHandle<CellId> a_search, t_search;
    std::string current;
    for (const io::ScenarioQuery& q : scen.queries) {
      if (index++ % sample_every != 0 || q.optimal <= 0) continue;
      const std::string path = scenario::resolve_map_path(file, q.map, "");
      if (path != current) {
        auto& m = maps[path];
        if (!m) m = std::make_unique<GridMap>(io::load_movingai_map(path));
        a_planner = std::make_unique<GridPlanner>(*m, GridPlannerOptions{.algorithm = Algorithm::astar, .diagonal = rule});
        t_planner = std::make_unique<GridPlanner>(*m, GridPlannerOptions{.algorithm = Algorithm::theta, .diagonal = rule});
        a_search = a_planner->make_search();
        t_search = t_planner->make_search();
        current = path;
      }
      const GridMap& map = *maps[current];
      const CellId s = map.cell(q.start.x, q.start.y), g = map.cell(q.goal.x, q.goal.y);
      const double t0 = cpu_seconds();
      const bool a_ok = a_search.run(s, g).succeeded();
      const double t1 = cpu_seconds();
      const SmoothingResult sm = smooth_path(a_planner->space(), a_search.path().nodes, smooth_out);
      const double t2 = cpu_seconds();
      const bool t_ok = t_search.run(s, g).succeeded();
      const double t3 = cpu_seconds();
      const double a_s = t1 - t0, s_s = t2 - t1, t_s = t3 - t2;
      if (!a_ok || !t_ok) {
        std::cerr << file << ":" << q.line << ": no path\n";
        return 1;
      }
      ++queries;
      astar.ratio_sum += a_search.path().cost / q.optimal;
      astar.time_s += a_s;
      astar.waypoints += a_search.path().nodes.size();
      astar.expanded += a_search.stats().expanded;
      astar.reopened += a_search.stats().reopened;
      smoothed.expanded += a_search.stats().expanded;
      smoothed.ratio_sum += sm.cost / q.optimal;
      smoothed.time_s += a_s + s_s;
      smoothing_s += s_s;
      smoothed.waypoints += smooth_out.size();
      theta.ratio_sum += t_search.path().cost / q.optimal;
      theta.time_s += t_s;
      theta.waypoints += t_search.path().nodes.size();
      theta.expanded += t_search.stats().expanded;
      theta.reopened += t_search.stats().reopened;
      if (t_search.path().cost < sm.cost - 1e-9) ++theta_below_smoothed;
      if (t_search.path().cost > sm.cost + 1e-9) ++theta_above_smoothed;
    }
  }
  const nlohmann::json j = {{"set", name},
                            {"files", files.size()},
                            {"sample_every", sample_every},
                            {"queries", queries},
                            {"astar", astar.json(queries)},
                            {"astar_smoothed", smoothed.json(queries)},
                            {"theta", theta.json(queries)},
                            {"smoothing_only_us_per_query", smoothing_s * 1e6 / static_cast<double>(queries == 0 ? 1 : queries)},
                            {"theta_shorter_than_smoothed", theta_below_smoothed},
                            {"theta_longer_than_smoothed", theta_above_smoothed}};
  std::cout << j.dump() << "\n";
  return 0;
}
