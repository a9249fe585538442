// After warm-up a query allocates nothing: heap allocations (malloc and relatives, operator
// new) are counted (support/allocation_counter.hpp).
#include <gtest/gtest.h>

#include <cstdlib>

#include "support/allocation_counter.hpp"
#include "support/random_grid.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::search_allocation_test {
using namespace search;
using namespace grid;
using namespace io;
namespace {

TEST(Allocation, CountingHookSeesAllocations) {
  // Every block is stored to a volatile, so the compiler cannot drop an allocation whose
  // result it sees unused (GCC removes malloc/free pairs), and operator new is called directly
  // (new-expressions may be elided).
  [[maybe_unused]] static void* volatile sink = nullptr;  // stores to it are never dropped
  const auto counted = [](const char* what, auto allocate) {
    const std::size_t before = test::allocation_count();
    void* p = allocate();
    sink = p;
    EXPECT_EQ(test::allocation_count() - before, 1u) << what;
    EXPECT_NE(p, nullptr) << what;
    return p;
  };
  void* m = counted("malloc", [] { return std::malloc(64); });
  void* c = counted("calloc", [] { return std::calloc(16, 8); });
  void* r = counted("realloc, growing", [m] { return std::realloc(m, std::size_t{1} << 20); });  // m is r now
  void* n = counted("operator new", [] { return ::operator new(128); });
  std::free(c);
  std::free(r);
  ::operator delete(n);
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
    search::SearchHandle<CellId> planner_search = planner.make_search();
    for (const auto& [s, g] : queries) planner_search.run(s, g);  // warm-up
    const std::size_t before = test::allocation_count();
    std::size_t solved = 0;
    for (const auto& [s, g] : queries) solved += planner_search.run(s, g).succeeded() ? 1 : 0;
    EXPECT_EQ(test::allocation_count() - before, 0u);
    EXPECT_GT(solved, 0u);
  }
}

}  // namespace
}  // namespace waymark::search_allocation_test
