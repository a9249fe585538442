// After warm-up a query allocates nothing: global operator new is replaced by a counting one.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "support/random_grid.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"

namespace {
std::atomic<std::size_t> allocations{0};
}

void* operator new(std::size_t n) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace waymark {
namespace {

TEST(Allocation, CountingHookSeesAllocations) {
  const std::size_t before = allocations.load();
  // Direct calls: the compiler may elide new-expressions, but not calls to operator new.
  void* a = ::operator new(64);
  void* b = ::operator new(128);
  ::operator delete(a);
  ::operator delete(b);
  EXPECT_EQ(allocations.load() - before, 2u);
}

TEST(Allocation, NoAllocationPerQueryAfterWarmUp) {
  const GridMap large = load_movingai_map(test::data_dir + "/maps/den520d.map");
  const GridMap small = load_movingai_map(test::data_dir + "/maps/arena.map");  // IDA*: re-expands a lot
  for (Algorithm a : {Algorithm::astar, Algorithm::wastar, Algorithm::dijkstra, Algorithm::greedy, Algorithm::bfs,
                      Algorithm::dfs, Algorithm::ida, Algorithm::jps, Algorithm::jps_plus}) {
    SCOPED_TRACE(to_string(a));
    const GridMap& map = a == Algorithm::ida ? small : large;
    std::mt19937 rng(9);
    std::vector<std::pair<CellId, CellId>> queries;
    for (int i = 0; i < 30; ++i) queries.emplace_back(test::random_passable(map, rng), test::random_passable(map, rng));
    GridPlanner planner(map, GridPlannerOptions{.algorithm = a});
    for (const auto& [s, g] : queries) planner.plan(s, g);  // warm-up
    const std::size_t before = allocations.load();
    std::size_t solved = 0;
    for (const auto& [s, g] : queries) solved += planner.plan(s, g).succeeded() ? 1 : 0;
    EXPECT_EQ(allocations.load() - before, 0u);
    EXPECT_GT(solved, 0u);
  }
}

}  // namespace
}  // namespace waymark
