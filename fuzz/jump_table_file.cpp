// Fuzz target: JPS+ tables read back (JumpTable::load) for a fixed map. A table the loader
// accepts must answer every query as A* does: a damaged or forged file is refused, never
// trusted.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/grid/jump_table.hpp"
#include "worlds.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  using namespace waymark::grid;
  const GridMap& map = fuzz::table_map();
  std::optional<JumpTable> table;
  try {
    std::istringstream file = fuzz::file_of(data, size);
    table.emplace(JumpTable::load(file, "fuzz.jps", map));
  } catch (const LoadError&) {
    return 0;
  }
  // The cells every accepted table is asked about, and A*'s answers (computed once).
  static const std::vector<CellId> cells = [&] {
    std::vector<CellId> c;
    for (const CellCoord p : {CellCoord{0, 0}, CellCoord{19, 11}, CellCoord{2, 2}, CellCoord{13, 3}, CellCoord{0, 11},
                              CellCoord{19, 0}, CellCoord{12, 7}, CellCoord{9, 10}})
      c.push_back(map.cell(p.x, p.y));
    return c;
  }();
  static const std::vector<double> expected = [&] {
    GridPlanner astar(map, GridPlannerOptions{.algorithm = Algorithm::astar});
    search::SearchHandle<CellId> astar_search = astar.make_search();
    std::vector<double> costs;
    for (const CellId from : cells) {
      for (const CellId to : cells) costs.push_back(astar_search.run(from, to).succeeded() ? astar_search.path().cost : -1);
    }
    return costs;
  }();
  GridPlanner jps(map, GridPlannerOptions{.algorithm = Algorithm::jps_plus, .jump_table = &*table});
  search::SearchHandle<CellId> jps_search = jps.make_search();
  std::size_t i = 0;
  for (const CellId from : cells) {
    for (const CellId to : cells) {
      const double cost = jps_search.run(from, to).succeeded() ? jps_search.path().cost : -1;
      if (!fuzz::same_distance(cost, expected[i++])) fuzz::finding();
    }
  }
  return 0;
}
