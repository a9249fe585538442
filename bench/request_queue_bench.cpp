// PathRequestQueue overhead (issue 13): the same searches run straight and through the queue
// with a frame budget; update() with nothing to do and with 100 requests in flight; dense
// against sparse node tables; the queue's memory for 8 requests on a 1024² map.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/request_queue.hpp"

namespace {

using namespace waymark;

const std::string data_dir = WAYMARK_DATA_DIR;

struct Fixture {
  grid::GridMap map = io::load_movingai_map(data_dir + "/maps/den520d.map");
  grid::GridPlanner planner{map, {.algorithm = grid::Algorithm::astar}};
  const grid::GridPlanner& world = planner;  // the planner is the search source
  std::vector<std::pair<CellId, CellId>> queries;  ///< 100 of den520d's scenario queries, spread over its buckets

  Fixture() {
    const io::Scenario scen = io::load_movingai_scenario(data_dir + "/maps/den520d.map.scen");
    const std::size_t stride = scen.queries.size() / 100;
    for (std::size_t i = 0; i < scen.queries.size() && queries.size() < 100; i += stride) {
      const io::ScenarioQuery& q = scen.queries[i];
      queries.emplace_back(map.cell(q.start.x, q.start.y), map.cell(q.goal.x, q.goal.y));
    }
  }
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

search::NodeTableKind table_of(std::int64_t arg) {
  return arg == 0 ? search::NodeTableKind::dense : search::NodeTableKind::sparse;
}

// The 100 searches one after another on one handle: the reference.
void BM_Straight(benchmark::State& state) {
  Fixture& f = fixture();
  search::SearchHandle<CellId> handle = f.planner.make_search({.table = table_of(state.range(0))});
  std::uint64_t expanded = 0;
  for (auto _ : state) {
    for (const auto& [s, g] : f.queries) {
      handle.run(s, g);
      expanded += handle.stats().expanded;
    }
  }
  state.counters["expansions/s"] = benchmark::Counter(static_cast<double>(expanded), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Straight)->ArgName("sparse")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The same 100 searches submitted at once and run by update() with a frame budget of B
// expansions (turns of B/4), P searches in the pool, until all are done; then released. With
// P = 1 the searches run one after another as straight ones do: the difference is the queue's
// own cost. With P = 8 they interleave, and their node tables share the caches.
void BM_ViaQueue(benchmark::State& state) {
  Fixture& f = fixture();
  const auto frame_budget = static_cast<std::uint64_t>(state.range(1));
  search::PathRequestQueue<CellId> queue({.max_requests = 128,
                                          .max_searches = static_cast<std::size_t>(state.range(2)),
                                          .turn = search::Budget::of_expansions(std::max<std::uint64_t>(1, frame_budget / 4))});
  std::vector<search::RequestId> ids;
  ids.reserve(f.queries.size());
  std::uint64_t frames = 0;
  for (auto _ : state) {
    ids.clear();
    for (const auto& [s, g] : f.queries) ids.push_back(queue.submit(f.world, s, g, {.table = table_of(state.range(0))}));
    while (queue.in_flight() > 0) {
      queue.update(search::Budget::of_expansions(frame_budget));
      ++frames;
    }
    for (const search::RequestId id : ids) queue.release(id);
  }
  state.counters["frames"] = benchmark::Counter(static_cast<double>(frames), benchmark::Counter::kAvgIterations);
  state.counters["ns/update"] = benchmark::Counter(static_cast<double>(frames), benchmark::Counter::kIsRate |
                                                                                   benchmark::Counter::kInvert);
}
BENCHMARK(BM_ViaQueue)
    ->ArgNames({"sparse", "budget", "pool"})
    ->Args({0, 100, 1})
    ->Args({0, 1000, 1})
    ->Args({0, 100, 8})
    ->Args({0, 1000, 8})
    ->Args({0, 10000, 8})
    ->Args({1, 1000, 1})
    ->Args({1, 1000, 8})
    ->Unit(benchmark::kMillisecond);

// update() with nothing in flight.
void BM_UpdateEmpty(benchmark::State& state) {
  search::PathRequestQueue<CellId> queue;
  for (auto _ : state) benchmark::DoNotOptimize(queue.update(search::Budget::of_expansions(1000)));
}
BENCHMARK(BM_UpdateEmpty);

// update() with 100 requests in flight (each finished one replaced), a budget of 100
// expansions per frame in turns of 10, all 100 holding a search: the time per update and per
// expansion spent in it.
void BM_Update100InFlight(benchmark::State& state) {
  Fixture& f = fixture();
  search::PathRequestQueue<CellId> queue({.max_requests = 128, .max_searches = 100, .turn = search::Budget::of_expansions(10)});
  std::vector<search::RequestId> ids;
  std::size_t next = 0;
  for (std::size_t i = 0; i < 100; ++i, ++next) {
    ids.push_back(queue.submit(f.world, f.queries[i].first, f.queries[i].second, {.table = search::NodeTableKind::sparse}));
  }
  for (int warm = 0; warm < 1000; ++warm) queue.update(search::Budget::of_expansions(100));
  std::uint64_t updates = 0;
  for (auto _ : state) {
    queue.update(search::Budget::of_expansions(100));
    ++updates;
    state.PauseTiming();
    for (search::RequestId& id : ids) {
      const search::RequestState s = queue.state(id);
      if (s == search::RequestState::queued || s == search::RequestState::running) continue;
      queue.release(id);
      const auto& q = f.queries[next++ % f.queries.size()];
      id = queue.submit(f.world, q.first, q.second, {.table = search::NodeTableKind::sparse});
    }
    state.ResumeTiming();
  }
  state.counters["in_flight"] = static_cast<double>(queue.in_flight());
  state.counters["ns/expansion"] = benchmark::Counter(static_cast<double>(updates) * 100,
                                                      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Update100InFlight);

// The queue's memory with 8 requests in flight on an open 1024² map. Arg 0/1: endpoints 100-300
// cells apart, dense tables (forced) against sparse ones (the default above 2^18 nodes). Arg
// 2/3: every goal walled in (unreachable), sparse tables with the queue's default page budget
// (RequestQueueOptions::max_table_bytes) and without one (0: each search fills the map).
void BM_QueueMemory1024(benchmark::State& state) {
  static const grid::GridMap open_map(1024, 1024);
  static const grid::GridMap boxed = [] {
    grid::GridMap m(1024, 1024);
    for (int k = 0; k < 8; ++k) {  // a closed box around each goal (x0 + 10, 1000)
      const int x0 = 20 + 120 * k;
      m.set_passable({x0, 990, x0 + 21, 991}, false);
      m.set_passable({x0, 1010, x0 + 21, 1011}, false);
      m.set_passable({x0, 990, x0 + 1, 1011}, false);
      m.set_passable({x0 + 20, 990, x0 + 21, 1011}, false);
    }
    return m;
  }();
  const int variant = static_cast<int>(state.range(0));
  const grid::GridMap& map = variant >= 2 ? boxed : open_map;
  const grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
  const grid::GridPlanner& world = planner;  // the planner is the search source
  std::size_t bytes = 0;
  std::uint64_t expanded = 0;
  for (auto _ : state) {
    search::RequestQueueOptions options{.max_searches = 8, .turn = search::Budget::of_expansions(50)};
    if (variant == 0) options.sparse_above_nodes = map.cell_count();
    if (variant == 1) options.sparse_above_nodes = 0;
    if (variant == 3) options.max_table_bytes = 0;
    search::PathRequestQueue<CellId> queue(options);
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> pos(0, 700);
    std::uniform_int_distribution<int> far(100, 300);
    std::vector<search::RequestId> ids;
    for (int i = 0; i < 8; ++i) {
      const int x = pos(rng);
      const int y = pos(rng);
      const CellId goal = variant >= 2 ? map.cell(30 + 120 * i, 1000) : map.cell(x + far(rng), y + far(rng) / 2);
      ids.push_back(queue.submit(world, map.cell(x, y), goal));
    }
    queue.update(search::Budget::of_expansions(8 * 50));  // all 8 hold a search
    while (queue.in_flight() > 0) queue.update(search::Budget::of_expansions(1000));
    bytes = queue.memory_bytes();
    expanded = 0;
    search::SearchResult<CellId> got;
    for (const search::RequestId id : ids) {
      queue.copy_result(id, got);
      expanded += got.stats.expanded;
    }
  }
  state.counters["MiB"] = static_cast<double>(bytes) / (1024.0 * 1024.0);
  state.counters["expanded"] = static_cast<double>(expanded);
}
BENCHMARK(BM_QueueMemory1024)->ArgName("variant")->DenseRange(0, 3)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
