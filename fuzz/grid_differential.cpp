// Differential fuzz target: a fuzzed small grid (size, walls, terrain, diagonal rule, start
// and goal) and an algorithm. A cost-optimal algorithm must find Dijkstra's cost (JPS and JPS+
// wherever they apply); the others must agree on whether a path exists and never beat it.
//
// Input: width, height, rule, terrain switch (bit 0) and algorithm (the other bits), start x,
// y, goal x, y, then one byte per cell (row by row; missing bytes are open cells). One
// algorithm per input keeps an execution cheap; the fuzzer covers the rest.
#include <cstddef>
#include <cstdint>
#include <iterator>

#include "waymark/grid/grid_planner.hpp"
#include "worlds.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  using namespace waymark::grid;
  constexpr std::size_t header = 8;
  constexpr int max_side = 12;
  constexpr std::size_t ida_max_expansions = 2'000;  // IDA* with terrain may need many iterations
  if (size < header) return 0;
  const int width = 1 + data[0] % max_side, height = 1 + data[1] % max_side;
  const auto rule = static_cast<DiagonalRule>(data[2] % 4);
  const bool terrain = (data[3] & 1) != 0;
  constexpr Algorithm others[] = {Algorithm::astar, Algorithm::wastar, Algorithm::greedy, Algorithm::bfs,
                                  Algorithm::dfs,   Algorithm::ida,    Algorithm::jps,    Algorithm::jps_plus};
  const Algorithm a = others[(data[3] >> 1) % std::size(others)];
  GridMap map(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const std::size_t at = header + static_cast<std::size_t>(y * width + x);
      const std::uint8_t b = at < size ? data[at] : 1;
      if (b % 4 == 0) map.set_passable(x, y, false);
      else if (terrain && b % 4 == 3) map.set_cost_multiplier(x, y, 1 + (b >> 2) % 5);
    }
  }
  const CellId start = map.cell(data[4] % width, data[5] % height);
  const CellId goal = map.cell(data[6] % width, data[7] % height);

  GridPlanner dijkstra(map, GridPlannerOptions{.algorithm = Algorithm::dijkstra, .diagonal = rule});

  search::SearchHandle<CellId> dijkstra_search = dijkstra.make_search();
  const bool found = dijkstra_search.run(start, goal).succeeded();
  const double best = found ? dijkstra_search.path().cost : -1;
  GridPlannerOptions options{.algorithm = a, .diagonal = rule};
  if (a == Algorithm::ida) options.query.max_nodes = ida_max_expansions;
  if (planner_unsupported(map, options)) return 0;
  GridPlanner planner(map, options);
  search::SearchHandle<CellId> planner_search = planner.make_search();
  const Status st = planner_search.run(start, goal);
  if (st.has(StatusDetail::out_of_nodes)) return 0;
  if (st.succeeded() != found) fuzz::finding();
  if (!found) return 0;
  const double cost = planner_search.path().cost;
  if (is_cost_optimal(a) ? !fuzz::same_distance(cost, best) : fuzz::shorter(cost, best)) fuzz::finding();
  return 0;
}
