// The engine on a space that is not a map: integers with moves +1, -1 (cost 1) and ×2
// (cost 1.5), searched through the hashed node table.
#include <gtest/gtest.h>

#include <cstdlib>
#include <queue>
#include <random>
#include <vector>

#include "support/sanitized.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/ida_star.hpp"
#include "waymark/search/traversal.hpp"

namespace waymark::search_implicit_space_test {
using namespace search;
namespace {

constexpr std::int64_t limit = 2000;  // nodes live in [0, limit]
constexpr Cost double_cost = 1.5;

struct NumberSpace {
  using node_type = std::int64_t;
  template <class F>
  void for_each_successor(node_type n, F&& f) const {
    if (n + 1 <= limit) f(n + 1, 1.0);
    if (n - 1 >= 0) f(n - 1, 1.0);
    if (n > 0 && 2 * n <= limit) f(2 * n, double_cost);
  }
};
static_assert(SearchSpace<NumberSpace>);
static_assert(!DenseSearchSpace<NumberSpace>);

// Consistent: one move changes |goal - n| by at most limit/2, so h by at most 0.5 <= cost.
struct WeakHeuristic {
  Cost operator()(std::int64_t n, std::int64_t goal) const {
    return static_cast<Cost>(std::llabs(goal - n)) / static_cast<Cost>(limit);
  }
};

// Reference: textbook Dijkstra over an explicit array.
std::vector<Cost> reference_distances(std::int64_t start) {
  std::vector<Cost> dist(limit + 1, infinite_cost);
  using Item = std::pair<Cost, std::int64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
  dist[static_cast<std::size_t>(start)] = 0;
  pq.push({0, start});
  const NumberSpace space;
  while (!pq.empty()) {
    const Cost d = pq.top().first;  // named, not a structured binding: clang 14 cannot capture one
    const std::int64_t n = pq.top().second;
    pq.pop();
    if (d > dist[static_cast<std::size_t>(n)]) continue;
    space.for_each_successor(n, [&](std::int64_t m, Cost c) {
      if (d + c < dist[static_cast<std::size_t>(m)]) {
        dist[static_cast<std::size_t>(m)] = d + c;
        pq.push({d + c, m});
      }
    });
  }
  return dist;
}

TEST(ImplicitSpace, AStarDijkstraAndIdaMatchReference) {
  const NumberSpace space;
  AStar<NumberSpace, WeakHeuristic> astar(space);
  Dijkstra<NumberSpace> dijkstra(space);
  // IDA* runs one iteration per distinct f value below the optimum: with the weak
  // heuristic's tiny fractions that is thousands, so it gets h = 0 (f = g: a few dozen).
  IdaStar<NumberSpace, ZeroHeuristic> ida(space, {}, {}, IdaStarOptions{.transposition_table = true});
  // IDA* is nearly all of this test's time (4 s in release, 17 s under ASan): every query in
  // release, every fourth under ASan (support/sanitized.hpp).
  constexpr int ida_every = test::full_or_sanitized(1, 4);
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::int64_t> pick(0, 300);
  for (int i = 0; i < 40; ++i) {
    const std::int64_t s = pick(rng), g = pick(rng);
    const Cost expected = reference_distances(s)[static_cast<std::size_t>(g)];
    astar.begin(s, g);
    ASSERT_TRUE(astar.step().succeeded());
    EXPECT_NEAR(astar.path().cost, expected, 1e-9) << s << " -> " << g;
    dijkstra.begin(s, g);
    ASSERT_TRUE(dijkstra.step().succeeded());
    EXPECT_NEAR(dijkstra.path().cost, expected, 1e-9);
    if (i % ida_every != 0) continue;
    ida.begin(s, g);
    ASSERT_TRUE(ida.step().succeeded());
    EXPECT_NEAR(ida.path().cost, expected, 1e-9);
    EXPECT_EQ(ida.path().nodes.front(), s);
    EXPECT_EQ(ida.path().nodes.back(), g);
  }
}

TEST(ImplicitSpace, IdaWithoutTranspositionTableOnShortQueries) {
  const NumberSpace space;
  IdaStar<NumberSpace, ZeroHeuristic> ida(space, {}, {}, IdaStarOptions{.transposition_table = false});
  for (std::int64_t g : {0, 3, 8, 9, 17}) {
    ida.begin(1, g);
    ASSERT_TRUE(ida.step().succeeded());
    EXPECT_NEAR(ida.path().cost, reference_distances(1)[static_cast<std::size_t>(g)], 1e-9) << g;
  }
}

TEST(ImplicitSpace, NodeLimitEndsWithOutOfNodesAndPartialPath) {
  const NumberSpace space;
  AStar<NumberSpace, WeakHeuristic> astar(space, {}, {}, {},
                                          BestFirstOptions{.max_nodes = 50, .partial_result = true});
  astar.begin(0, 1900);
  const Status s = astar.step();
  EXPECT_TRUE(s.failed());
  EXPECT_TRUE(s.has(StatusDetail::out_of_nodes));
  EXPECT_TRUE(s.has(StatusDetail::partial_result));
  ASSERT_FALSE(astar.path().empty());
  EXPECT_EQ(astar.path().nodes.front(), 0);
}

TEST(ImplicitSpace, BreadthFirstCountsMoves) {
  const NumberSpace space;
  BreadthFirstSearch<NumberSpace> bfs(space);
  bfs.begin(1, 16);  // 1 -> 2 -> 4 -> 8 -> 16; 2 is first reached by +1, the others by ×2
  ASSERT_TRUE(bfs.step().succeeded());
  EXPECT_EQ(bfs.path().nodes, (std::vector<std::int64_t>{1, 2, 4, 8, 16}));
  EXPECT_DOUBLE_EQ(bfs.path().cost, 1 + 3 * double_cost);
}

}  // namespace
}  // namespace waymark::search_implicit_space_test
