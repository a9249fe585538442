// Obstacles that carve a tiled navmesh: dropped on a path and removed again (the tiles then
// equal the first build, bit for bit), only the touched tiles rebuilt, a budget per update, a
// corridor closed and opened, refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "support/error_text.hpp"
#include "support/navmesh_support.hpp"
#include "support/terrain_mesh.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/tiled_nav_planner.hpp"
#include "waymark/recast/carving.hpp"
#include "waymark/recast/recast_build.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::recast::carving_test {
namespace {

using navmesh::BoxObstacle;
using navmesh::CylinderObstacle;
using navmesh::NavTile;
using navmesh::TileCoord;
using navmesh::TiledNavPlanner;

TriangleMesh load(const char* name) { return io::load_obj(std::string(WAYMARK_DATA_DIR "/meshes/") + name); }

// What a CarvedNavMesh or RecastMeshes owns is handed out of an lvalue only (issue 42): of a
// temporary, `TiledNavPlanner planner(CarvedNavMesh(…).world())` and the like dangled, and
// compiled.
template <class T>
concept WorldOf = requires(T&& t) { std::forward<T>(t).world(); };
template <class T>
concept InputOf = requires(T&& t) { std::forward<T>(t).input(); };
template <class T>
concept ObstaclesOf = requires(T&& t) { std::forward<T>(t).obstacles(); };
static_assert(WorldOf<CarvedNavMesh&> && WorldOf<const CarvedNavMesh&> && InputOf<const CarvedNavMesh&> &&
              ObstaclesOf<const CarvedNavMesh&>);
static_assert(!WorldOf<CarvedNavMesh> && !WorldOf<const CarvedNavMesh>, "CarvedNavMesh(…).world() would dangle");
static_assert(!InputOf<CarvedNavMesh> && !ObstaclesOf<CarvedNavMesh>);
template <class T>
concept PolyMeshOf = requires(T&& t) { std::forward<T>(t).poly_mesh(); };
template <class T>
concept DetailMeshOf = requires(T&& t) { std::forward<T>(t).detail_mesh(); };
static_assert(PolyMeshOf<const RecastMeshes&> && DetailMeshOf<const RecastMeshes&>);
static_assert(!PolyMeshOf<RecastMeshes> && !DetailMeshOf<RecastMeshes>, "build_recast_meshes(…).poly_mesh() would dangle");

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

/// The height of test::hilly_terrain's ground (`size` units a side, no pillars) straight under
/// plan point `q`, from the two triangles of its 1-unit square there; nullopt off it.
std::optional<double> surface_height(const TriangleMesh& m, Vec2 q, int size = 60) {
  if (!(q.x >= 0 && q.y >= 0 && q.x < size && q.y < size)) return std::nullopt;
  const std::size_t square = static_cast<std::size_t>(std::floor(q.x)) * size + static_cast<std::size_t>(std::floor(q.y));
  std::optional<double> best;
  for (std::size_t k = 2 * square; k < 2 * square + 2; ++k) {
    const auto& t = m.triangles[k];
    const Vec3 a = m.vertices[t[0]], b = m.vertices[t[1]], c = m.vertices[t[2]];
    const double d = cross(navmesh::plan(b) - navmesh::plan(a), navmesh::plan(c) - navmesh::plan(a));
    if (d == 0) continue;
    const double u = cross(navmesh::plan(b) - q, navmesh::plan(c) - q) / d, v = cross(navmesh::plan(c) - q, navmesh::plan(a) - q) / d;
    if (u < 0 || v < 0 || u + v > 1) continue;
    const double y = u * a.y + v * b.y + (1 - u - v) * c.y;
    if (!best || y > *best) best = y;
  }
  return best;
}

// A barrel (radius 2.5, height 3) on a hillside of an undulating terrain, its foot on the
// ground at its axis, the ground under its disc (grown by the agent radius) between an agent's
// height below its foot and its top: every floor of the disc is carved. The carving took the
// floors from its foot less the climb only, so where the ground fell away downhill by more than
// the climb the disc's rim stayed walkable (floors 2.2 from the axis, paths 2.19, for 3.1).
TEST(Carving, ABarrelOnAHillsideCarvesItsWholeDiscThroughItsHeight) {
  const TriangleMesh hills = test::hilly_terrain(3, 60, 0);
  CarvedNavMesh carved(hills, {.tile_size = 32});
  TiledNavPlanner planner(carved.world());
  const RecastParams& p = carved.input().params().recast;
  const double radius = 2.5, height = 3, reach = radius + p.agent_radius;
  const double slack = (p.edge_max_error + 1) * p.cell_size;  // Recast's voxels and contour simplification
  const auto first = planner.snapshot();
  std::mt19937_64 seeded(5);
  int sites = 0, paths = 0;
  for (int k = 0; k < 4000 && sites < 8; ++k) {
    const auto at = first->mesh.random_point(seeded);
    ASSERT_TRUE(at.has_value());
    const Vec2 axis = navmesh::plan(at->point);
    const std::optional<double> foot = surface_height(hills, axis);
    if (!foot) continue;
    // The ground under the disc: within the band everywhere, and more than a climb below the
    // foot somewhere well inside the disc (where the old carving left floors).
    bool within = true;
    double drop = 0;
    for (int i = 0; i < 32 && within; ++i) {
      const Vec2 dir{std::cos(i * 0.19634954084936207), std::sin(i * 0.19634954084936207)};
      for (const double r : {0.5, 1.0, reach - slack, reach}) {
        const std::optional<double> y = surface_height(hills, axis + dir * r);
        within = within && y && *y > *foot - p.agent_height + 0.3 && *y < *foot + height - 0.3;
        if (y && r <= reach - slack) drop = std::max(drop, *foot - *y);
      }
    }
    if (!within || drop < p.agent_max_climb + 0.3) continue;
    ++sites;
    const auto id = carved.add_obstacle(CylinderObstacle{{axis.x, *foot, axis.y}, radius, height});
    ASSERT_TRUE(id.has_value());
    ASSERT_TRUE(carved.update().up_to_date());
    planner.sync();
    const navmesh::NavMesh& mesh = planner.snapshot()->mesh;
    // No floor left in the disc (less the slack), at any of its heights.
    for (int i = 0; i < 32; ++i) {
      const Vec2 dir{std::cos(i * 0.19634954084936207), std::sin(i * 0.19634954084936207)};
      for (double r = 0; r <= reach - slack; r += 0.2) {
        const Vec2 q = axis + dir * r;
        const auto floor = mesh.poly_at({q.x, *surface_height(hills, q), q.y}, 1.0);
        EXPECT_FALSE(floor.has_value()) << "a floor " << r << " from the axis of the barrel at " << axis.x << "," << axis.y;
      }
    }
    // Paths across the disc go round it.
    for (int i = 0; i < 4; ++i) {
      const Vec2 dir{std::cos(i * 0.785398), std::sin(i * 0.785398)};
      const auto a = first->mesh.poly_at({axis.x + 5 * dir.x, *foot, axis.y + 5 * dir.y}, 4);
      const auto b = first->mesh.poly_at({axis.x - 5 * dir.x, *foot, axis.y - 5 * dir.y}, 4);
      if (!a || !b) continue;
      const auto round = planner.plan(a->point, b->point);
      if (!round.status.succeeded()) continue;
      ++paths;
      EXPECT_GE(plan_distance(round.path.nodes, {axis.x, *foot, axis.y}), reach - slack) << axis.x << "," << axis.y;
    }
    ASSERT_TRUE(carved.remove_obstacle(*id));
    ASSERT_TRUE(carved.update().up_to_date());
    planner.sync();
  }
  EXPECT_GE(sites, 4);
  EXPECT_GE(paths, 8);
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

// A crowd on the carved world (issue 42: NavMeshPathService took a fixed NavMesh only). A crate
// dropped across the corridor while an agent walks to it: the walls change where it fell, the
// agent re-plans and is unreachable (it never passes the crate), and when the crate goes it
// tries again and arrives. One across half the corridor is walked round, never into.
TEST(CarvingCrowd, AgentsReplanWhenACrateCarvesTheirWayAndAgainWhenItGoes) {
  CarvedNavMesh carved(two_rooms(), {.tile_size = 16});
  steer::Simulation sim(carved.world());  // paths on its snapshots, its outline as walls
  EXPECT_TRUE(sim.params().walls_eroded);
  const std::size_t first_walls = sim.obstacles().size();
  ASSERT_GT(first_walls, 4u);
  const steer::AgentId id = sim.add_agent(steer::AgentParams{}, {4, 4}, {18, 4});
  sim.plan_pending();
  ASSERT_FALSE(sim.path(id).empty());
  for (int i = 0; i < 10; ++i) sim.step(0.05);  // half a second: still in the west room
  ASSERT_LT(sim.position(id).x, 8.0);

  const auto crate = carved.add_obstacle(BoxObstacle{{10.5, -0.5, 1}, {11.5, 1.5, 7}});
  ASSERT_TRUE(crate.has_value());
  ASSERT_TRUE(carved.update().up_to_date());
  const std::uint64_t plans = sim.stats().plans;
  double furthest = 0;
  for (int i = 0; i < 200 && sim.status(id) != steer::AgentStatus::unreachable; ++i) {
    sim.step(0.05);
    furthest = std::max(furthest, sim.position(id).x);
  }
  EXPECT_EQ(sim.status(id), steer::AgentStatus::unreachable);
  EXPECT_GT(sim.stats().plans, plans);  // the change re-planned it
  EXPECT_GE(sim.stats().edit_replans, 1u);
  EXPECT_LT(furthest, 10.5);
  EXPECT_GT(sim.obstacles().size(), first_walls);  // the crate's outline came in

  ASSERT_TRUE(carved.remove_obstacle(*crate));
  ASSERT_TRUE(carved.add_obstacle(BoxObstacle{{10.5, -0.5, 1}, {11.5, 1.5, 3.6}}).has_value());  // half the corridor
  ASSERT_TRUE(carved.update().up_to_date());
  bool inside = false;
  for (int i = 0; i < 400 && !sim.arrived(id); ++i) {
    sim.step(0.05);
    const Vec2 p = sim.position(id);
    inside = inside || (p.x > 10.5 && p.x < 11.5 && p.y > 1 && p.y < 3.6);
  }
  EXPECT_TRUE(sim.arrived(id));  // it tried again on the change and went round
  EXPECT_FALSE(inside);
  EXPECT_EQ(sim.stats().collisions, 0u);
  // Refused: classes on a tiled world.
  const navmesh::NavMesh fixed = build_nav_mesh(two_rooms());
  const steer::SizedNavMesh classes[] = {{&fixed, 0.6}};
  EXPECT_THROW(steer::Simulation(carved.world(), {}, {.classes = classes}), BuildError);
}

// Obstacles reaching far beyond the level carve what they cover of it. Recast's marking casts
// (bmin - chf.bmin) / cs to int and works in floats: past about 6.4e8 units the cast wrapped
// and nothing was carved (the CLI answered the open path, exit 0), and a float's step there
// is 64 units.
TEST(Carving, ObstaclesFarBeyondTheLevelCarveWhatTheyCover) {
  CarvedNavMesh carved(two_rooms(), {.tile_size = 16});
  const auto walkable = [&](double x, double z) {
    carved.update();
    const auto snapshot = carved.world().snapshot();
    return carved.world().tile_count() > 0 && snapshot->mesh.poly_at({x, 0, z}, 1).has_value();
  };
  ASSERT_TRUE(walkable(4, 4) && walkable(18, 4));
  const std::vector<navmesh::NavObstacle> everything{
      BoxObstacle{{-1e9, -1, -1e9}, {1e9, 2, 1e9}},
      CylinderObstacle{{0, -1, 0}, 1e12, 3},
      navmesh::PrismObstacle{{{-1e9, -1e9}, {1e9, -1e9}, {1e9, 1e9}, {-1e9, 1e9}}, -1, 2}};
  for (const navmesh::NavObstacle& o : everything) {
    const auto id = carved.add_obstacle(o);
    ASSERT_TRUE(id.has_value());
    EXPECT_FALSE(walkable(4, 4)) << navmesh::shape_name(o);
    EXPECT_FALSE(walkable(18, 4)) << navmesh::shape_name(o);
    ASSERT_TRUE(carved.remove_obstacle(*id));
    EXPECT_TRUE(walkable(4, 4) && walkable(18, 4)) << navmesh::shape_name(o);
  }
  // A disc 1e9 across whose rim passes through the corridor at x = 11: the east room is carved,
  // the west room kept (in floats its rim moved by up to 64 units).
  const auto half = carved.add_obstacle(CylinderObstacle{{11 + 1e9, -1, 4}, 1e9, 3});
  ASSERT_TRUE(half.has_value());
  EXPECT_TRUE(walkable(4, 4));
  EXPECT_FALSE(walkable(18, 4));
  ASSERT_TRUE(carved.remove_obstacle(*half));
  // A box whose far side lies beyond the level on every side but the west: the same.
  ASSERT_TRUE(carved.add_obstacle(BoxObstacle{{11, -1, -1e9}, {1e9, 2, 1e9}}).has_value());
  EXPECT_TRUE(walkable(4, 4));
  EXPECT_FALSE(walkable(18, 4));
}

/// Drops a 16 x 16 box, as tall as the level, on the middle of `carved`'s level: many tiles wait.
bool drop_central_box(CarvedNavMesh& carved) {
  const auto snapshot = carved.world().snapshot();
  const Aabb3 box = snapshot->mesh.bounds();
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

// The first build keeps its TiledParams::deadline, as build_tiles does (it ignored it).
TEST(Carving, TheFirstBuildBeginsNoTileAfterItsDeadline) {
  EXPECT_EQ(test::error_text<BuildError>(
                [&] { CarvedNavMesh late(two_rooms(), {.tile_size = 16, .deadline = std::chrono::steady_clock::now()}); }),
            "the tiled build passed its deadline (a time limit) with 0 of 10 tiles begun: give it more time, a larger cell or "
            "tile size, or a smaller level");
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
