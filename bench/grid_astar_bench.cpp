// Grid A* (and Dijkstra as the uninformed baseline) over every query of a bundled Moving AI
// scenario file. One benchmark iteration = the whole file; counters are per query.
//
// Also: what the one-shot GridPlanner::plan() costs against a kept handle (BM_OneShot, per
// algorithm: the same queries through plan() and through one handle), what observing a search costs (BM_Observer: the compile-time engine with the no-op
// observer, a counting one, an event observer without and with a sink), and what spreading a
// search over frames costs (BM_Stepped: the planner's handle stepped with a budget per call).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/events.hpp"

namespace {

using namespace waymark;
using namespace waymark::grid;
using namespace waymark::io;

using Queries = std::vector<std::pair<CellId, CellId>>;

Queries queries_of(const GridMap& map, const std::string& scen_path) {
  const Scenario scen = load_movingai_scenario(scen_path);
  Queries queries;
  for (const auto& q : scen.queries) queries.emplace_back(map.cell(q.start.x, q.start.y), map.cell(q.goal.x, q.goal.y));
  return queries;
}

void report(benchmark::State& state, const Queries& queries, std::uint64_t expanded) {
  const auto total_queries = static_cast<double>(queries.size() * state.iterations());
  state.counters["queries"] = static_cast<double>(queries.size());
  // An inverted rate is seconds per query; Google Benchmark prints it with a time unit
  // (e.g. 588us) and stores seconds in the JSON.
  state.counters["time_per_query"] =
      benchmark::Counter(total_queries, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["expanded_per_query"] = static_cast<double>(expanded) / total_queries;
}

void run_file(benchmark::State& state, const std::string& name, Algorithm algorithm) {
  const std::string dir = WAYMARK_DATA_DIR "/maps/";
  const GridMap map = load_movingai_map(dir + name);
  const Queries queries = queries_of(map, dir + name + ".scen");
  GridPlanner planner(map, GridPlannerOptions{.algorithm = algorithm});
  search::SearchHandle<CellId> planner_search = planner.make_search();
  std::uint64_t expanded = 0;
  for (auto _ : state) {
    for (const auto& [s, g] : queries) {
      const Status st = planner_search.run(s, g);
      benchmark::DoNotOptimize(st);
      expanded += planner_search.stats().expanded;
    }
  }
  report(state, queries, expanded);
}

/// A* on den520d through the compile-time engine with observer Obs (made by `make`).
template <class Obs, class Make>
void run_observed(benchmark::State& state, Make make) {
  const std::string dir = WAYMARK_DATA_DIR "/maps/";
  const GridMap map = load_movingai_map(dir + "den520d.map");
  const Queries queries = queries_of(map, dir + "den520d.map.scen");
  const GridSpace space(map, DiagonalRule::no_corner_cutting);
  constexpr double steps_per_quantum = 0x1p-20;  // the planner's key rounding on uniform maps
  search::AStar<GridSpace, OctileHeuristic, Obs> astar(space, OctileHeuristic(map),
                                                       search::AStarPriority{search::KeyQuantizer{steps_per_quantum}}, make());
  astar.reserve();
  std::uint64_t expanded = 0;
  for (auto _ : state) {
    for (const auto& [s, g] : queries) {
      benchmark::DoNotOptimize(search::solve(astar, s, g));
      expanded += astar.stats().expanded;
    }
  }
  report(state, queries, expanded);
}

/// Counts events and keeps nothing: the cost of a sink call per event.
class CountingSink final : public search::EventSink<CellId> {
 public:
  void on_event(const search::Event<CellId>&) override { benchmark::DoNotOptimize(++events_); }

 private:
  std::uint64_t events_ = 0;
};

void BM_Observer_none(benchmark::State& state) {
  run_observed<search::NullObserver>(state, [] { return search::NullObserver{}; });
}
void BM_Observer_counting(benchmark::State& state) {
  run_observed<search::CountingObserver>(state, [] { return search::CountingObserver{}; });
}
void BM_Observer_events_without_sink(benchmark::State& state) {
  run_observed<search::EventObserver<CellId>>(state, [] { return search::EventObserver<CellId>(nullptr); });
}
void BM_Observer_events_to_sink(benchmark::State& state) {
  static CountingSink sink;
  run_observed<search::EventObserver<CellId>>(state, [] { return search::EventObserver<CellId>(&sink); });
}

/// The planner's handle on den520d, stepped `state.range(0)` expansions at a time (0: one shot).
void BM_Stepped(benchmark::State& state) {
  const std::string dir = WAYMARK_DATA_DIR "/maps/";
  const GridMap map = load_movingai_map(dir + "den520d.map");
  const Queries queries = queries_of(map, dir + "den520d.map.scen");
  const GridPlanner planner(map, GridPlannerOptions{.algorithm = Algorithm::astar});
  search::SearchHandle<CellId> handle = planner.make_search();
  const auto per_step = static_cast<std::uint64_t>(state.range(0));
  const search::Budget budget = per_step == 0 ? search::Budget{} : search::Budget::of_expansions(per_step);
  std::uint64_t expanded = 0;
  for (auto _ : state) {
    for (const auto& [s, g] : queries) {
      handle.begin(s, g);
      while (handle.step(budget).running()) {
      }
      expanded += handle.stats().expanded;
    }
  }
  report(state, queries, expanded);
}

/// Every query of `name` through the one-shot plan() (`one_shot`) or through one kept handle.
void run_one_shot(benchmark::State& state, const std::string& name, Algorithm algorithm, bool one_shot) {
  const std::string dir = WAYMARK_DATA_DIR "/maps/";
  const GridMap map = load_movingai_map(dir + name);
  const Queries queries = queries_of(map, dir + name + ".scen");
  const GridPlanner planner(map, GridPlannerOptions{.algorithm = algorithm});
  search::SearchHandle<CellId> handle = planner.make_search();
  std::uint64_t expanded = 0;
  for (auto _ : state) {
    for (const auto& [s, g] : queries) {
      if (one_shot) {
        const search::SearchResult<CellId> r = planner.plan(s, g);
        benchmark::DoNotOptimize(r.path.cost);
        expanded += r.stats.expanded;
      } else {
        benchmark::DoNotOptimize(handle.run(s, g));
        expanded += handle.stats().expanded;
      }
    }
  }
  report(state, queries, expanded);
}

void BM_OneShot(benchmark::State& state, const std::string& map, Algorithm algorithm) {
  run_one_shot(state, map, algorithm, true);
}
void BM_KeptHandle(benchmark::State& state, const std::string& map, Algorithm algorithm) {
  run_one_shot(state, map, algorithm, false);
}

void BM_GridAStar(benchmark::State& state, const std::string& map) { run_file(state, map, Algorithm::astar); }
void BM_GridDijkstra(benchmark::State& state, const std::string& map) { run_file(state, map, Algorithm::dijkstra); }

BENCHMARK_CAPTURE(BM_GridAStar, arena, std::string("arena.map"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GridAStar, den520d, std::string("den520d.map"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GridAStar, Boston_0_256, std::string("Boston_0_256.map"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GridDijkstra, den520d, std::string("den520d.map"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OneShot, astar_den520d, std::string("den520d.map"), Algorithm::astar)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KeptHandle, astar_den520d, std::string("den520d.map"), Algorithm::astar)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OneShot, jps_den520d, std::string("den520d.map"), Algorithm::jps)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KeptHandle, jps_den520d, std::string("den520d.map"), Algorithm::jps)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OneShot, jps_plus_den520d, std::string("den520d.map"), Algorithm::jps_plus)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KeptHandle, jps_plus_den520d, std::string("den520d.map"), Algorithm::jps_plus)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OneShot, jps_arena, std::string("arena.map"), Algorithm::jps)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KeptHandle, jps_arena, std::string("arena.map"), Algorithm::jps)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OneShot, jps_plus_arena, std::string("arena.map"), Algorithm::jps_plus)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KeptHandle, jps_plus_arena, std::string("arena.map"), Algorithm::jps_plus)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OneShot, jps_Boston_0_256, std::string("Boston_0_256.map"), Algorithm::jps)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KeptHandle, jps_Boston_0_256, std::string("Boston_0_256.map"), Algorithm::jps)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OneShot, jps_plus_Boston_0_256, std::string("Boston_0_256.map"), Algorithm::jps_plus)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KeptHandle, jps_plus_Boston_0_256, std::string("Boston_0_256.map"), Algorithm::jps_plus)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Observer_none)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Observer_counting)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Observer_events_without_sink)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Observer_events_to_sink)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Stepped)->Arg(0)->Arg(1000)->Arg(100)->Arg(10)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
