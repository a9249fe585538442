// Grid A* (and Dijkstra as the uninformed baseline) over every query of a bundled Moving AI
// scenario file. One benchmark iteration = the whole file; counters are per query.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"

namespace {

using namespace waymark;
using namespace waymark::grid;
using namespace waymark::io;

void run_file(benchmark::State& state, const std::string& name, Algorithm algorithm) {
  const std::string dir = WAYMARK_DATA_DIR "/maps/";
  const GridMap map = load_movingai_map(dir + name);
  const Scenario scen = load_movingai_scenario(dir + name + ".scen");
  std::vector<std::pair<CellId, CellId>> queries;
  for (const auto& q : scen.queries) {
    queries.emplace_back(map.cell(q.start.x, q.start.y), map.cell(q.goal.x, q.goal.y));
  }
  GridPlanner planner(map, GridPlannerOptions{.algorithm = algorithm});
  std::uint64_t expanded = 0;
  for (auto _ : state) {
    for (const auto& [s, g] : queries) {
      const Status st = planner.plan(s, g);
      benchmark::DoNotOptimize(st);
      expanded += planner.stats().expanded;
    }
  }
  const auto total_queries = static_cast<double>(queries.size() * state.iterations());
  state.counters["queries"] = static_cast<double>(queries.size());
  // An inverted rate is seconds per query; Google Benchmark prints it with a time unit
  // (e.g. 588us) and stores seconds in the JSON.
  state.counters["time_per_query"] =
      benchmark::Counter(total_queries, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["expanded_per_query"] = static_cast<double>(expanded) / total_queries;
}

void BM_GridAStar(benchmark::State& state, const std::string& map) { run_file(state, map, Algorithm::astar); }
void BM_GridDijkstra(benchmark::State& state, const std::string& map) { run_file(state, map, Algorithm::dijkstra); }

BENCHMARK_CAPTURE(BM_GridAStar, arena, std::string("arena.map"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GridAStar, den520d, std::string("den520d.map"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GridAStar, Boston_0_256, std::string("Boston_0_256.map"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GridDijkstra, den520d, std::string("den520d.map"))->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
