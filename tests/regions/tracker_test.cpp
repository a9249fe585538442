// RegionTracker: exact enter/exit sequences for scripted movements, with overlapping seed
// areas (nearest seed wins), plain nearest-seed regions and labelled grids.
#include <gtest/gtest.h>

#include <vector>

#include "support/error_text.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/regions/labeling.hpp"
#include "waymark/regions/seed_index.hpp"
#include "waymark/regions/tracker.hpp"

namespace waymark::regions::tracker_test {
namespace {

using Kind = RegionEvent::Kind;

RegionEvent enter(std::uint32_t object, RegionId r) { return {Kind::enter, object, r}; }
RegionEvent exit(std::uint32_t object, RegionId r) { return {Kind::exit, object, r}; }

TEST(RegionTracker, OverlappingAreasResolveToTheNearestSeed) {
  // Two areas of radius 3 around (0,0) and (4,0), overlapping over x in [1, 3]; a third,
  // far away, of radius 1.
  const std::vector<SeedArea> seeds{{{0, 0, 0}, 3}, {{4, 0, 0}, 3}, {{20, 0, 0}, 1}};
  const SeedIndex index(seeds);
  const auto resolve = [&](Vec3 p) { return index.region_at(p); };
  RegionTracker tracker(2);
  std::vector<RegionEvent> events;

  // Object 0 walks along the x axis from -5 to 21; object 1 stays at (0,0) after its first update.
  const std::vector<double> xs{-5, -2, 1.5, 2.5, 3, 6, 8, 19.5, 21.5};
  const std::vector<std::vector<RegionEvent>> expected{
      {enter(1, 0)},                 // x = -5: outside every area; object 1 enters region 0
      {enter(0, 0)},                 // -2: inside area 0 only
      {},                            // 1.5: in both, nearer seed 0
      {exit(0, 0), enter(0, 1)},     // 2.5: in both, nearer seed 1
      {},                            // 3: still nearer seed 1
      {},                            // 6: area 1 only
      {exit(0, 1)},                  // 8: outside every area
      {enter(0, 2)},                 // 19.5: area 2
      {exit(0, 2)},                  // 21.5: outside again
  };
  for (std::size_t step = 0; step < xs.size(); ++step) {
    std::vector<TrackedObject> objects{{0, {xs[step], 0, 0}}};
    if (step == 0) objects.push_back({1, {0, 0, 0}});
    EXPECT_EQ(tracker.update(objects, resolve, events), 0u);
    EXPECT_EQ(events, expected[step]) << "step " << step << " x = " << xs[step];
  }
  EXPECT_EQ(tracker.region_of(0), no_region);
  EXPECT_EQ(tracker.region_of(1), 0u);
  // An unknown id is ignored and counted; forget() exits the object's region.
  const std::vector<TrackedObject> unknown{{7, {0, 0, 0}}};
  EXPECT_EQ(tracker.update(unknown, resolve, events), 1u);
  EXPECT_TRUE(events.empty());
  tracker.forget(1, events);
  EXPECT_EQ(events, (std::vector<RegionEvent>{exit(1, 0)}));
  EXPECT_EQ(tracker.region_of(1), no_region);
  events.clear();
  tracker.forget(1, events);
  EXPECT_TRUE(events.empty());
}

TEST(RegionTracker, UnboundedSeedsAndGridRegionsReportEveryCrossingInOrder) {
  const std::vector<SeedArea> seeds{{{0, 0, 0}}, {{10, 0, 0}}, {{0, 10, 0}}};
  const SeedIndex index(seeds);
  RegionTracker tracker(3);
  std::vector<RegionEvent> events;
  const auto resolve = [&](Vec3 p) { return index.region_at(p); };
  tracker.update(std::vector<TrackedObject>{{2, {1, 1, 0}}, {0, {9, 0, 0}}, {1, {0, 9, 0}}}, resolve, events);
  EXPECT_EQ(events, (std::vector<RegionEvent>{enter(2, 0), enter(0, 1), enter(1, 2)}));
  tracker.update(std::vector<TrackedObject>{{0, {4, 0, 0}}, {1, {0, 6, 0}}, {2, {8, 1, 0}}}, resolve, events);
  EXPECT_EQ(events, (std::vector<RegionEvent>{exit(0, 1), enter(0, 0), exit(2, 0), enter(2, 1)}));

  // Grid regions: a 6x1 corridor with seeds at both ends; cells 0-2 region 0, 3-5 region 1.
  const grid::GridMap map(6, 1);
  const Regions r = label_grid(map, std::vector<grid::CellCoord>{{0, 0}, {5, 0}});
  RegionTracker on_grid(1);
  const auto cell_region = [&](Vec3 p) { return region_at_cell(map, r, p); };
  std::vector<RegionEvent> all;
  for (const double x : {0.5, 2.9, 3.1, 5.5, 7.0, 1.0}) {
    on_grid.update(std::vector<TrackedObject>{{0, {x, 0.5, 0}}}, cell_region, events);
    all.insert(all.end(), events.begin(), events.end());
  }
  EXPECT_EQ(all, (std::vector<RegionEvent>{enter(0, 0), exit(0, 0), enter(0, 1), exit(0, 1), enter(0, 0)}));
  EXPECT_NE(test::error_text<BuildError>([] { RegionTracker t(max_tracked_objects + 1); }), "");
}

}  // namespace
}  // namespace waymark::regions::tracker_test
