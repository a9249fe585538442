// Obstacles that carve a tiled navmesh: dropped on a path and removed again (the tiles then
// equal the first build, bit for bit), only the touched tiles rebuilt, a budget per update, a
// corridor closed and opened, refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "support/navmesh_support.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/tiled_nav_planner.hpp"
#include "waymark/recast/carving.hpp"

namespace waymark::recast::carving_test {
namespace {

using navmesh::BoxObstacle;
using navmesh::CylinderObstacle;
using navmesh::NavTile;
using navmesh::TileCoord;
using navmesh::TiledNavPlanner;

TriangleMesh load(const char* name) { return io::load_obj(std::string(WAYMARK_DATA_DIR "/meshes/") + name); }

/// Every tile of the world, copied.
std::map<TileCoord, NavTile> tiles_of(const CarvedNavMesh& carved) {
  std::map<TileCoord, NavTile> out;
  const TileLayout& l = carved.input().layout();
  for (std::size_t i = 0; i < l.tile_count(); ++i) {
    if (const NavTile* t = carved.world().tile(l.coord(i))) out.emplace(t->coord, *t);
  }
  return out;
}

bool same_tile(const NavTile& a, const NavTile& b) {
  return a.data.vertices == b.data.vertices && a.data.corners == b.data.corners && a.data.neighbors == b.data.neighbors &&
         a.data.poly_begin == b.data.poly_begin && a.data.detail == b.data.detail && a.min == b.min && a.max == b.max;
}

/// The least plan distance from `p` to the polyline.
double plan_distance(const std::vector<Vec3>& corners, Vec3 p) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 1; i < corners.size(); ++i) {
    const Segment2 s{navmesh::plan(corners[i - 1]), navmesh::plan(corners[i])};
    best = std::min(best, s.distance_to(navmesh::plan(p)));
  }
  return best;
}

TEST(Carving, AnObstacleOnThePathIsWalkedAroundAndRemovingItRestoresTheFirstBuild) {
  CarvedNavMesh carved(load("dungeon.obj"), {.tile_size = 32});
  const auto first = tiles_of(carved);
  TiledNavPlanner planner(carved.world());
  // The longest of RecastDemo-style pairs across the level: seeded polygon centres.
  const auto pairs = test::centroid_pairs(planner.snapshot()->mesh, 40);
  std::pair<Vec3, Vec3> query;
  double longest = 0;
  for (const auto& [from, to] : pairs) {
    const auto r = planner.plan(from, to);
    if (r.status.succeeded() && r.path.cost > longest) {
      longest = r.path.cost;
      query = {from, to};
    }
  }
  ASSERT_GT(longest, 20.0);
  const auto before = planner.plan(query.first, query.second);
  // A barrel on the middle of the path's longest straight stretch.
  std::size_t at = 1;
  for (std::size_t i = 1; i < before.path.nodes.size(); ++i) {
    if (distance(before.path.nodes[i - 1], before.path.nodes[i]) > distance(before.path.nodes[at - 1], before.path.nodes[at])) at = i;
  }
  const Vec3 middle = (before.path.nodes[at - 1] + before.path.nodes[at]) * 0.5;
  const double radius = 1.5;
  const auto id = carved.add_obstacle(CylinderObstacle{middle - Vec3{0, 0.5, 0}, radius, 2});
  ASSERT_TRUE(id.has_value());
  const std::size_t touched = carved.pending_tiles();
  EXPECT_GE(touched, 1u);
  EXPECT_LE(touched, 4u);  // 1.5 + 0.6 + a border of 1.5 reaches at most one tile line each way
  EXPECT_FALSE(planner.stale());  // nothing changes before update()
  const CarveUpdate u = carved.update();
  EXPECT_EQ(u.rebuilt, touched);
  EXPECT_TRUE(u.up_to_date());
  EXPECT_TRUE(planner.stale());
  planner.sync();
  const auto around = planner.plan(query.first, query.second);
  ASSERT_TRUE(around.status.succeeded());
  EXPECT_GT(around.path.cost, before.path.cost);
  // The path keeps an agent's radius off the barrel, less what Recast's voxels and contour
  // simplification (edge_max_error 1.3 cells) may give away.
  const RecastParams& p = carved.input().params().recast;
  EXPECT_GE(plan_distance(around.path.nodes, middle), radius + p.agent_radius - (p.edge_max_error + 1) * p.cell_size);
  EXPECT_LT(plan_distance(before.path.nodes, middle), 1e-6);
  // Tiles the barrel did not touch are the first build's.
  std::size_t changed = 0;
  for (const auto& [coord, tile] : tiles_of(carved)) changed += !same_tile(tile, first.at(coord));
  EXPECT_GE(changed, 1u);
  EXPECT_LE(changed, touched);

  ASSERT_TRUE(carved.remove_obstacle(*id));
  EXPECT_FALSE(carved.remove_obstacle(*id));
  EXPECT_TRUE(carved.update().up_to_date());
  const auto restored = tiles_of(carved);
  ASSERT_EQ(restored.size(), first.size());
  for (const auto& [coord, tile] : restored) EXPECT_TRUE(same_tile(tile, first.at(coord))) << coord.x << "," << coord.z;
  planner.sync();
  const auto again = planner.plan(query.first, query.second);
  EXPECT_EQ(again.path.nodes, before.path.nodes);
}

/// Two 8 × 8 rooms joined by a corridor 3 units wide and 6 long, floor only (y = 0).
TriangleMesh two_rooms() {
  TriangleMesh m;
  const auto quad = [&](double x0, double z0, double x1, double z1) {
    const auto base = static_cast<std::uint32_t>(m.vertices.size());
    m.vertices.insert(m.vertices.end(), {{x0, 0, z0}, {x1, 0, z0}, {x1, 0, z1}, {x0, 0, z1}});
    m.triangles.push_back({base, base + 2, base + 1});
    m.triangles.push_back({base, base + 3, base + 2});
  };
  quad(0, 0, 8, 8);
  quad(8, 2.5, 14, 5.5);
  quad(14, 0, 22, 8);
  return m;
}

TEST(Carving, ACrateAcrossTheCorridorCutsTheRoomsApartUntilRemoved) {
  CarvedNavMesh carved(two_rooms(), {.tile_size = 16});
  TiledNavPlanner planner(carved.world());
  const Vec3 a{4, 0, 4}, b{18, 0, 4};
  ASSERT_TRUE(planner.plan(a, b).status.succeeded());
  const auto crate = carved.add_obstacle(BoxObstacle{{10.5, -0.5, 1}, {11.5, 1.5, 7}});
  ASSERT_TRUE(crate.has_value());
  carved.update();
  planner.sync();
  EXPECT_EQ(planner.plan(a, b).status.reason(), FailureReason::unreachable);
  // Grown by the agent radius, a 1-unit crate closes a gap the 1.2-unit-wide agent would
  // need 0.6 beside it for: one across half the corridor leaves the other half open.
  ASSERT_TRUE(carved.remove_obstacle(*crate));
  ASSERT_TRUE(carved.add_obstacle(BoxObstacle{{10.5, -0.5, 1}, {11.5, 1.5, 3.6}}).has_value());
  carved.update();
  planner.sync();
  const auto beside = planner.plan(a, b);
  ASSERT_TRUE(beside.status.succeeded());
  EXPECT_GT(beside.path.cost, distance(a, b));
}

/// Drops a 16 x 16 box, as tall as the level, on the middle of `carved`'s level: many tiles wait.
bool drop_central_box(CarvedNavMesh& carved) {
  const Aabb3 box = carved.world().snapshot()->mesh.bounds();
  const Vec3 c = box.center();
  return carved.add_obstacle(BoxObstacle{{c.x - 8, box.min.y - 1, c.z - 8}, {c.x + 8, box.max.y + 1, c.z + 8}}).has_value();
}

TEST(Carving, AnUpdateRebuildsNoMoreTilesThanItsBudget) {
  CarvedNavMesh carved(load("dungeon.obj"), {.tile_size = 16});
  ASSERT_TRUE(drop_central_box(carved));
  const std::size_t waiting = carved.pending_tiles();
  ASSERT_GE(waiting, 9u);
  const std::uint64_t v = carved.world().version();
  std::size_t calls = 0;
  for (CarveUpdate u; !u.up_to_date() || calls == 0; ++calls) {
    u = carved.update({.max_tiles = 2});
    EXPECT_LE(u.rebuilt, 2u);
    EXPECT_EQ(u.pending, waiting - std::min(waiting, 2 * (calls + 1)));
  }
  EXPECT_EQ(calls, (waiting + 1) / 2);
  // One version per tile replaced or removed (a tile with no polygon before or after changes nothing).
  EXPECT_GT(carved.world().version(), v);
  EXPECT_LE(carved.world().version(), v + waiting);
}

TEST(Carving, AnUpdateStartsNoTileOnceItsTimeIsUp) {
  CarvedNavMesh carved(load("dungeon.obj"), {.tile_size = 16});
  ASSERT_TRUE(drop_central_box(carved));
  const std::size_t waiting = carved.pending_tiles();
  ASSERT_GE(waiting, 2u);
  // A tile started is finished; none starts after the time is up.
  const CarveUpdate u = carved.update({.max_seconds = 1e-12});
  EXPECT_EQ(u.rebuilt, 1u);
  EXPECT_EQ(u.pending, waiting - 1);
}

TEST(Carving, HoldsNoMoreThanMaxCarvedObstacles) {
  CarvedNavMesh carved(two_rooms(), {.tile_size = 16});
  for (std::size_t i = 0; i < max_carved_obstacles; ++i) {
    ASSERT_TRUE(carved.add_obstacle(CylinderObstacle{{500, 0, 500}, 1, 2}).has_value());  // off the level: cheap
  }
  EXPECT_FALSE(carved.add_obstacle(CylinderObstacle{{4, 0, 4}, 1, 2}).has_value());
  EXPECT_EQ(carved.pending_tiles(), 0u);  // nothing changed
  ASSERT_TRUE(carved.remove_obstacle(1));
  EXPECT_TRUE(carved.add_obstacle(CylinderObstacle{{4, 0, 4}, 1, 2}).has_value());
}

TEST(Carving, RefusesBadObstaclesAndUnknownIds) {
  CarvedNavMesh carved(two_rooms(), {.tile_size = 16});
  EXPECT_FALSE(carved.add_obstacle(CylinderObstacle{{1, 0, 1}, -1, 2}).has_value());
  EXPECT_FALSE(carved.add_obstacle(BoxObstacle{{1, 0, 1}, {0, 1, 2}}).has_value());
  EXPECT_FALSE(carved.remove_obstacle(42));
  EXPECT_EQ(carved.obstacles().size(), 0u);
  // Far outside the level: held, and no tile waits for it.
  const auto far = carved.add_obstacle(CylinderObstacle{{500, 0, 500}, 1, 2});
  ASSERT_TRUE(far.has_value());
  EXPECT_EQ(carved.pending_tiles(), 0u);
  EXPECT_GT(carved.kept_bytes(), 0u);
  EXPECT_GE(carved.kept_tiles(), carved.world().tile_count());  // a tile may have spans and no polygon
}

}  // namespace
}  // namespace waymark::recast::carving_test
