// Flow fields (issue 14; docs/steering.md): the time to build one field on den520d (bundled)
// and on the Moving AI dao map orz900d (../shared/data/movingai/dao, skipped when absent) with
// one goal and with 8, and the cost per agent per tick of following one: direction_at, the
// follow_flow steering force and the integration step, for 1,000 and 10,000 agents, with the
// bilinear direction_at and with the cell's own direction.
#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "waymark/io/movingai.hpp"
#include "waymark/steer/flow_field.hpp"

namespace {

using namespace waymark;
using grid::CellCoord;
using grid::GridMap;

const std::string data_dir = WAYMARK_DATA_DIR;
const std::string dao_map = data_dir + "/../../shared/data/movingai/dao/orz900d.map";

/// `count` random cells of the map's largest region (a goal in a closed pocket would make a
/// tiny field): cells reached by a field from a first random cell that reaches at least half
/// of the passable cells.
std::vector<CellCoord> goals_in_main_region(const GridMap& map, std::size_t count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(map.cell_count() - 1));
  steer::FlowField probe(map);
  for (;;) {
    const CellId c{pick(rng)};
    if (!map.passable(c)) continue;
    probe.build(map.coord(c));
    if (2 * probe.stats().expanded >= map.passable_count()) break;
  }
  std::vector<CellCoord> goals;
  while (goals.size() < count) {
    const CellId c{pick(rng)};
    if (!std::isinf(probe.distance(c))) goals.push_back(map.coord(c));
  }
  return goals;
}

struct World {
  GridMap map;
  std::vector<CellCoord> goals;  ///< 8; the first alone for one goal
};

/// 0: den520d; 1: orz900d, or null when the shared data is absent.
const World* world(std::int64_t which) {
  static const std::unique_ptr<World> den = [] {
    GridMap m = io::load_movingai_map(data_dir + "/maps/den520d.map");
    std::vector<CellCoord> g = goals_in_main_region(m, 8, 14);
    return std::make_unique<World>(World{std::move(m), std::move(g)});
  }();
  static const std::unique_ptr<World> dao = []() -> std::unique_ptr<World> {
    if (!std::filesystem::exists(dao_map)) return nullptr;
    GridMap m = io::load_movingai_map(dao_map);
    std::vector<CellCoord> g = goals_in_main_region(m, 8, 14);
    return std::make_unique<World>(World{std::move(m), std::move(g)});
  }();
  return which == 0 ? den.get() : dao.get();
}

// One build() per iteration, on a warmed-up field (the goals alternate between two sets of the
// same size so no build repeats the previous one).
void BM_FlowFieldBuild(benchmark::State& state) {
  const World* w = world(state.range(0));
  if (w == nullptr) {
    state.SkipWithError("orz900d.map not found under ../shared/data/movingai/dao");
    return;
  }
  const std::size_t count = static_cast<std::size_t>(state.range(1));
  std::vector<CellCoord> first(w->goals.begin(), w->goals.begin() + static_cast<std::ptrdiff_t>(count));
  std::vector<CellCoord> second(w->goals.rbegin(), w->goals.rbegin() + static_cast<std::ptrdiff_t>(count));
  steer::FlowField field(w->map);
  field.build(first);
  field.build(second);
  bool flip = false;
  std::uint64_t reached = 0;
  for (auto _ : state) {
    const Status s = field.build(flip ? first : second);
    benchmark::DoNotOptimize(s);
    flip = !flip;
    reached = field.stats().expanded;
  }
  state.counters["cells"] = static_cast<double>(w->map.cell_count());
  state.counters["reached"] = static_cast<double>(reached);
  state.SetLabel(state.range(0) == 0 ? "den520d" : "orz900d");
}
BENCHMARK(BM_FlowFieldBuild)
    ->ArgNames({"map", "goals"})
    ->Args({0, 1})
    ->Args({0, 8})
    ->Args({1, 1})
    ->Args({1, 8})
    ->Unit(benchmark::kMillisecond);

// One tick per iteration: every agent reads the field (direction_at), steers (follow_flow) and
// integrates (integrate_velocity + advance). Agents start at random points of reachable cells
// of den520d and go back there every 256 ticks (12.8 s of simulated time), so most of them are
// always under way rather than parked at the goal.
void BM_FlowFollow(benchmark::State& state) {
  const World* w = world(0);
  const std::size_t agents = static_cast<std::size_t>(state.range(0));
  steer::FlowField field(w->map, {.interpolate = state.range(1) != 0});
  field.build(w->goals.front());
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(w->map.cell_count() - 1));
  std::uniform_real_distribution<double> inside(-0.45, 0.45);
  std::vector<steer::AgentState> start;
  while (start.size() < agents) {
    const CellId c{pick(rng)};
    if (std::isinf(field.distance(c))) continue;
    start.push_back({.position = w->map.cell_center(c) + Vec2{inside(rng), inside(rng)}});
  }
  std::vector<steer::AgentState> states = start;
  const steer::AgentParams params;
  constexpr double dt = 0.05;
  constexpr int ticks_per_run = 256;
  int tick = 0;
  for (auto _ : state) {
    if (++tick == ticks_per_run) {
      states = start;
      tick = 0;
    }
    for (steer::AgentState& s : states) {
      s.velocity = steer::integrate_velocity(params, s.velocity, steer::follow_flow(params, s, field), dt);
      steer::advance(s, dt);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(agents));
  state.counters["per_agent"] = benchmark::Counter(static_cast<double>(agents),
                                                   benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_FlowFollow)
    ->ArgNames({"agents", "bilinear"})
    ->Args({1000, 1})
    ->Args({10000, 1})
    ->Args({1000, 0})
    ->Args({10000, 0})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
