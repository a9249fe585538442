// After warm-up, visibility queries (linking the start and goal, A*, the path's points)
// allocate nothing: support/allocation_counter.hpp counts every heap allocation.
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "support/allocation_counter.hpp"
#include "support/random_polygons.hpp"
#include "waymark/visibility/visibility_query.hpp"

namespace waymark::visibility::vis_allocation_test {
namespace {

TEST(VisibilityAllocation, NoAllocationPerQueryAfterWarmUp) {
  std::mt19937_64 rng(4);
  const Obstacles world = test::random_obstacles(rng, 30, 40, 1, 4);
  std::uniform_real_distribution<double> pos(0, 40);
  for (const double radius : {0.0, 0.5}) {
    const VisibilityGraph g(world, {.radius = radius});
    std::vector<std::pair<Vec2, Vec2>> pairs;
    while (pairs.size() < 40) {
      const Vec2 a{pos(rng), pos(rng)}, b{pos(rng), pos(rng)};
      if (g.standable(a) && g.standable(b)) pairs.emplace_back(a, b);
    }
    pairs.emplace_back(Vec2{-1, -1}, Vec2{-1, -1});  // start == goal
    pairs.emplace_back(Vec2{NAN, 0}, Vec2{1, 1});    // refused at once
    VisibilityQuery query(g);
    test::expect_no_allocation_after_warm_up([&] {
      std::size_t solved = 0;
      for (const auto& [from, to] : pairs) solved += query.find_path(from, to).succeeded() ? 1 : 0;
      return solved;
    });
  }
}

}  // namespace
}  // namespace waymark::visibility::vis_allocation_test
