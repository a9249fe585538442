// After warm-up, tracker updates and coarse-then-fine queries allocate nothing
// (support/allocation_counter.hpp counts every heap allocation).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "support/allocation_counter.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/regions/coarse_fine.hpp"
#include "waymark/regions/labeling.hpp"
#include "waymark/regions/seed_index.hpp"
#include "waymark/regions/tracker.hpp"

namespace waymark::regions::regions_allocation_test {
namespace {

TEST(RegionsAllocation, TrackerUpdatesAllocateNothingAfterWarmUp) {
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> coord(0, 100), radius(5, 25);
  std::vector<SeedArea> seeds(40);
  for (SeedArea& s : seeds) s = {{coord(rng), coord(rng), 0}, radius(rng)};
  const SeedIndex index(seeds);
  RegionTracker tracker(500);
  std::vector<TrackedObject> objects(500);
  std::vector<std::vector<TrackedObject>> frames(20, objects);
  for (auto& frame : frames) {
    for (std::uint32_t i = 0; i < frame.size(); ++i) frame[i] = {i, {coord(rng), coord(rng), 0}};
  }
  std::vector<RegionEvent> events;
  test::expect_no_allocation_after_warm_up([&] {
    std::size_t changes = 0;
    for (const auto& frame : frames) {
      tracker.update(frame, [&](Vec3 p) { return index.region_at(p); }, events);
      changes += events.size();
    }
    return changes;
  });
}

TEST(RegionsAllocation, CoarseFineQueriesAllocateNothingAfterWarmUp) {
  const grid::GridMap map = io::load_movingai_map(WAYMARK_DATA_DIR "/maps/arena.map");
  const std::vector<grid::CellCoord> seeds{{8, 8}, {23, 7}, {40, 8}, {8, 24}, {24, 24}, {40, 24}, {8, 40}, {24, 40}, {40, 40}};
  for (const Metric metric : {Metric::geodesic, Metric::euclidean}) {
    const Regions r = label_grid(map, seeds, {.metric = metric});
    CoarseFinePlanner planner(map, r, {.corridor_margin = 1});
    std::mt19937 rng(8);
    std::vector<std::pair<CellId, CellId>> pairs;
    std::uniform_int_distribution<std::uint32_t> any(0, static_cast<std::uint32_t>(map.cell_count() - 1));
    while (pairs.size() < 60) {
      const CellId a{any(rng)}, b{any(rng)};
      if (map.passable(a) && map.passable(b)) pairs.emplace_back(a, b);
    }
    test::expect_no_allocation_after_warm_up([&] {
      std::size_t solved = 0;
      for (const auto& [a, b] : pairs) solved += planner.plan(a, b).succeeded() ? 1 : 0;
      return solved;
    });
  }
}

}  // namespace
}  // namespace waymark::regions::regions_allocation_test
