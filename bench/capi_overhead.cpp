// What crossing into the C API costs a grid query (issue 42; docs/c_api.md "Overhead"): every
// query of a Moving AI scenario run through a kept C++ search handle (the path copied out as
// x, y pairs, as a binding must) and through wm_plan on the same map, both with the same
// algorithm, alternated round by round so that both see the same machine. Prints µs per
// query for each and the difference. bench/binding_overhead.sh adds C# (Mono) beside them.
// Usage: waymark_bench_capi MAP SCEN [ALGORITHM] [ROUNDS]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/waymark.h"

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MAP SCEN [ALGORITHM] [ROUNDS]\n", argv[0]);
    return 2;
  }
  const std::string algorithm = argc > 3 ? argv[3] : "astar";
  const int rounds = argc > 4 ? std::max(1, std::atoi(argv[4])) : 5;
  const waymark::grid::GridMap map = waymark::io::load_movingai_map(argv[1]);
  const waymark::io::Scenario scen = waymark::io::load_movingai_scenario(argv[2]);
  waymark::grid::GridPlannerOptions options;
  options.algorithm = *waymark::grid::parse_algorithm(algorithm);
  const waymark::grid::GridPlanner planner(map, options);
  auto search = planner.make_search();

  wm_grid* grid = nullptr;
  wm_planner* cplanner = nullptr;
  if (wm_grid_load(argv[1], &grid) != WM_OK || wm_planner_create(grid, algorithm.c_str(), &cplanner) != WM_OK) {
    std::fprintf(stderr, "%s\n", wm_last_error());
    return 1;
  }
  std::vector<int> xy(2 * 1 << 16);
  double cpp_s = 0, c_s = 0, checksum_cpp = 0, checksum_c = 0;
  std::size_t mismatches = 0;
  for (int r = 0; r < rounds + 1; ++r) {  // round 0 warms both up
    auto t0 = Clock::now();
    double sum = 0;
    for (const auto& q : scen.queries) {
      search.run(map.cell(q.start.x, q.start.y), map.cell(q.goal.x, q.goal.y));
      const auto& nodes = search.path().nodes;
      const std::size_t n = std::min(nodes.size(), xy.size() / 2);
      for (std::size_t i = 0; i < n; ++i) {
        const auto c = map.coord(nodes[i]);
        xy[2 * i] = c.x;
        xy[2 * i + 1] = c.y;
      }
      sum += search.path().cost;
    }
    if (r > 0) cpp_s += seconds_since(t0), checksum_cpp = sum;
    t0 = Clock::now();
    sum = 0;
    for (const auto& q : scen.queries) {
      double cost = 0;
      int count = 0;
      const int rc = wm_plan(cplanner, q.start.x, q.start.y, q.goal.x, q.goal.y, &cost, xy.data(), static_cast<int>(xy.size() / 2), &count);
      if (rc == WM_OK) sum += cost;
    }
    if (r > 0) c_s += seconds_since(t0), checksum_c = sum;
  }
  if (std::abs(checksum_cpp - checksum_c) > 1e-6 * std::max(1.0, checksum_cpp)) ++mismatches;
  const double n = static_cast<double>(scen.queries.size()) * rounds;
  std::printf("{\"map\": \"%s\", \"algorithm\": \"%s\", \"queries\": %zu, \"rounds\": %d, \"cpp_us\": %.3f, \"c_us\": %.3f, "
              "\"c_overhead_us\": %.3f, \"same_costs\": %s}\n",
              argv[1], algorithm.c_str(), scen.queries.size(), rounds, 1e6 * cpp_s / n, 1e6 * c_s / n,
              1e6 * (c_s - cpp_s) / n, mismatches == 0 ? "true" : "false");
  wm_planner_release(cplanner);
  wm_grid_release(grid);
  return mismatches == 0 ? 0 : 1;
}
