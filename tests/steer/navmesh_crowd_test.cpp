// Crowds on a Recast navmesh (issue 14): flat levels made from Moving AI maps, built by Recast
// with the agents' radius; agents plan on the mesh (NavMeshPathService) and meet its outline as
// walls (add_navmesh_walls, walls_eroded). 20 agents in the arena all arrive without touching
// each other; two groups crossing a corridor all arrive; in both, every agent is on the mesh at
// every tick. bench/crowd_detour_bench.cpp runs the same kind of scene against Detour's dtCrowd.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "support/grid_level.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/recast/recast_build.hpp"
#include "waymark/steer/path_service.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::steer::navmesh_crowd_test {
namespace {


/// How far `p` lies from the mesh in plan (0 on it; 1 when no polygon is near).
double off_mesh(const navmesh::NavMesh& mesh, Vec2 p) {
  const auto near = mesh.nearest_poly({p.x, 0, p.y}, {1, 2, 1});
  return near ? distance(navmesh::plan(near->point), p) : 1.0;
}

/// A Recast navmesh of `map`'s floor for agents of radius `radius` (default 0.35; height 2,
/// climb 0.5).
navmesh::NavMesh build_mesh(const grid::GridMap& map, double radius = 0.35) {
  recast::RecastParams rp;
  rp.cell_size = 0.125;  // erosion ceil(0.35 / 0.125) = 3 voxels: a one-cell gap keeps 2
  rp.agent_radius = radius;
  rp.agent_height = 2;
  rp.agent_max_climb = 0.5;
  return recast::to_nav_mesh(recast::build_recast_meshes(test::level_geometry(map, rp.cell_size / 2), rp));
}

struct Outcome {
  std::size_t off_ticks = 0;  ///< agent-ticks off the mesh
  std::string first_off;      ///< the first of them
  std::string late;           ///< the agents that did not arrive, where they are and where they go
};

/// Runs agents from `starts` to `goals` on `nav` (NavMeshPathService, the mesh's outline as
/// walls, walls_eroded) until all arrive or `max_steps` steps of 50 ms, checking after every
/// step that each agent is on the mesh.
Outcome run_crowd(const navmesh::NavMesh& nav, const std::vector<Vec2>& starts, const std::vector<Vec2>& goals,
                  std::uint64_t max_steps, std::unique_ptr<Simulation>& out) {
  SimulationParams params;
  params.queue.max_requests = starts.size();
  out = std::make_unique<Simulation>(nav, params);  // one call: paths, the outline as walls, walls_eroded
  Simulation& sim = *out;
  EXPECT_TRUE(sim.params().walls_eroded);
  EXPECT_GT(sim.obstacles().size(), 0u);
  for (std::size_t i = 0; i < starts.size(); ++i) sim.add_agent(AgentParams{}, starts[i], goals[i]);
  int rounds = 0;
  while (sim.plan_pending() > 0 && ++rounds < 100) continue;
  EXPECT_EQ(sim.waiting_for_paths(), 0u);

  Outcome o;
  std::ostringstream first_off;
  while (!sim.all_arrived() && sim.stats().ticks < max_steps) {
    sim.step(0.05);
    for (std::size_t i = 0; i < sim.size(); ++i) {
      const Vec2 p = sim.state(AgentId{static_cast<std::uint32_t>(i)}).position;
      const double off = off_mesh(nav, p);
      if (off <= 1e-6) continue;
      if (o.off_ticks++ == 0) first_off << "agent " << i << " at tick " << sim.stats().ticks << ": " << off << " off the mesh";
    }
  }
  o.first_off = first_off.str();
  std::ostringstream late;
  for (std::size_t i = 0; i < sim.size(); ++i) {
    const AgentId id{static_cast<std::uint32_t>(i)};
    if (sim.arrived(id)) continue;
    const Vec2 p = sim.state(id).position, g = sim.goal(id);
    late << " agent " << i << " at (" << p.x << ", " << p.y << "), goal (" << g.x << ", " << g.y << ");";
  }
  o.late = late.str();
  return o;
}

/// The free cell centres of `map` that lie on `nav` (within 1e-6 in plan), with their island.
struct MeshCells {
  std::vector<Vec2> centres;
  std::vector<std::uint32_t> islands;
};
MeshCells cells_on_mesh(const grid::GridMap& map, const navmesh::NavMesh& nav) {
  MeshCells cells;
  for (std::uint32_t c = 0; c < map.cell_count(); ++c) {
    if (!map.passable(CellId{c})) continue;
    const Vec2 centre = map.cell_center(CellId{c});
    const auto near = nav.nearest_poly({centre.x, 0, centre.y}, {0.05, 2, 0.05});
    if (!near || distance(navmesh::plan(near->point), centre) > 1e-6) continue;
    cells.centres.push_back(centre);
    cells.islands.push_back(nav.island(near->poly));
  }
  return cells;
}

void shuffle(std::vector<std::size_t>& v, Random& random) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[random.next() % i]);
}

void expect_clean(const Outcome& o, const Simulation& sim) {
  const SimulationStats& s = sim.stats();
  EXPECT_EQ(o.off_ticks, 0u) << "agent-ticks off the mesh; the first: " << o.first_off;
  EXPECT_EQ(s.arrived, sim.size()) << "after " << s.ticks << " ticks:" << o.late;
  EXPECT_EQ(s.collisions, 0u);
  EXPECT_EQ(s.failed_plans, 0u);
  EXPECT_GE(s.min_clearance, -0.01 * 0.35);
}

TEST(NavMeshCrowd, TwentyAgentsArriveOnTheMeshWithoutCollisions) {
  const grid::GridMap map = io::load_movingai_map(WAYMARK_DATA_DIR "/maps/arena.map");
  const navmesh::NavMesh nav = build_mesh(map);
  const MeshCells cells = cells_on_mesh(map, nav);
  ASSERT_GT(cells.centres.size(), 1000u);  // nearly all of the arena's free cells
  // A seeded shuffle of the cells: the first 20 start, the next 20 are the goals (the arena's
  // mesh is one island).
  Random random(7);
  std::vector<std::size_t> order(cells.centres.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  shuffle(order, random);
  constexpr std::size_t agents = 20;
  std::vector<Vec2> starts, goals;
  for (std::size_t i = 0; i < agents; ++i) {
    ASSERT_EQ(cells.islands[order[i]], cells.islands[order[agents + i]]);
    starts.push_back(cells.centres[order[i]]);
    goals.push_back(cells.centres[order[agents + i]]);
  }
  std::unique_ptr<Simulation> sim;
  // A minute: the longest path across the arena is about 70 m at 3 m/s.
  const Outcome o = run_crowd(nav, starts, goals, 1200, sim);
  expect_clean(o, *sim);
}

TEST(NavMeshCrowd, TwoGroupsCrossingACorridorStayOnTheMesh) {
  // scenes/maps/corridor.map: two rooms joined by a corridor three cells wide (2.25 m once
  // eroded). 12 agents in each room head for cells of the other, meet in the corridor and
  // press each other against its walls: pushes that part them must not carry anyone across the
  // mesh's outline. Overlaps are not checked here: four agents jammed across the corridor
  // can stay a few per cent of a radius inside each other for a tick or two.
  const grid::GridMap map = io::load_movingai_map(WAYMARK_DATA_DIR "/../scenes/maps/corridor.map");
  const navmesh::NavMesh nav = build_mesh(map);
  const MeshCells cells = cells_on_mesh(map, nav);
  std::vector<std::size_t> left, right;
  for (std::size_t i = 0; i < cells.centres.size(); ++i) {
    if (cells.centres[i].x < 12) left.push_back(i);
    if (cells.centres[i].x > 28) right.push_back(i);
  }
  Random random(11);
  shuffle(left, random);
  shuffle(right, random);
  constexpr std::size_t per_side = 12;
  ASSERT_GE(left.size(), 2 * per_side);
  ASSERT_GE(right.size(), 2 * per_side);
  std::vector<Vec2> starts, goals;
  for (std::size_t i = 0; i < per_side; ++i) {
    starts.push_back(cells.centres[left[i]]);
    goals.push_back(cells.centres[right[per_side + i]]);
    starts.push_back(cells.centres[right[i]]);
    goals.push_back(cells.centres[left[per_side + i]]);
  }
  std::unique_ptr<Simulation> sim;
  const Outcome o = run_crowd(nav, starts, goals, 1200, sim);
  const SimulationStats& s = sim->stats();
  EXPECT_EQ(o.off_ticks, 0u) << "agent-ticks off the mesh; the first: " << o.first_off;
  EXPECT_EQ(s.arrived, sim->size()) << "after " << s.ticks << " ticks:" << o.late;
  EXPECT_EQ(s.failed_plans, 0u);
  RecordProperty("collisions", std::to_string(s.collisions));
}

TEST(NavMeshCrowd, TwoSizesThroughOneGapEachOnTheMeshOfItsRadius) {
  // Two rooms joined by a one-cell gap (x 10, y 4) and, below, an opening four cells wide. A
  // radius-0.35 agent plans on the mesh eroded by 0.35 and takes the gap (3 voxels of 0.125 a
  // side leave it open; 0.4 takes 4 a side and Recast closes it); a radius-0.8 agent on
  // the one eroded by 0.8, which has no polygon in the gap, and goes round below. The walls
  // are the outline of the uneroded floor, which both keep their own radius from.
  std::vector<std::uint8_t> cells;
  const std::vector<std::string> rows = {
      "@@@@@@@@@@@@@@@@@@@@@", "@.........@.........@", "@.........@.........@", "@.........@.........@",
      "@...................@", "@.........@.........@", "@.........@.........@", "@.........@.........@",
      "@.........@.........@", "@.........@.........@", "@...................@", "@...................@",
      "@...................@", "@...................@", "@@@@@@@@@@@@@@@@@@@@@"};
  for (const std::string& row : rows) {
    for (const char c : row) cells.push_back(c == '.' ? 1 : 0);
  }
  const grid::GridMap map(static_cast<int>(rows[0].size()), static_cast<int>(rows.size()), std::move(cells), {});
  const navmesh::NavMesh floor = build_mesh(map, 0.0);
  const navmesh::NavMesh small = build_mesh(map, 0.35);
  const navmesh::NavMesh large = build_mesh(map, 0.8);
  const SizedNavMesh meshes[] = {{&large, 0.8}, {&small, 0.35}};  // any order
  // One call: paths on the classes' meshes, the uneroded floor's outline as walls, which agents
  // meet with their own radius.
  Simulation sim(floor, {}, {.classes = meshes});
  EXPECT_FALSE(sim.params().walls_eroded);
  ObstacleWorld walls;
  EXPECT_EQ(sim.obstacles().size(), add_navmesh_walls(walls, floor));
  const AgentId a = sim.add_agent(AgentParams{.radius = 0.35}, {3.5, 3.5}, {17.5, 3.5});
  const AgentId b = sim.add_agent(AgentParams{.radius = 0.8}, {3.5, 6.5}, {17.5, 6.5});
  EXPECT_EQ(sim.size_class(a), 0u);
  EXPECT_EQ(sim.size_class(b), 1u);
  EXPECT_THROW(sim.add_agent(AgentParams{.radius = 0.9}, {3.5, 6.5}, {17.5, 6.5}), BuildError);
  // The service refuses lists it cannot use.
  const search::RequestQueueOptions queue;
  EXPECT_THROW(NavMeshPathService(std::span<const SizedNavMesh>{}, {}, queue), BuildError);
  const SizedNavMesh null_mesh[] = {{nullptr, 0.5}};
  EXPECT_THROW(NavMeshPathService(null_mesh, {}, queue), BuildError);
  const SizedNavMesh negative[] = {{&small, -0.1}};
  EXPECT_THROW(NavMeshPathService(negative, {}, queue), BuildError);
  sim.plan_pending();
  ASSERT_FALSE(sim.path(a).empty());
  ASSERT_FALSE(sim.path(b).empty());
  double a_lowest = 0, b_lowest = 0;
  for (const Vec2 p : sim.path(a)) a_lowest = std::max(a_lowest, p.y);
  for (const Vec2 p : sim.path(b)) b_lowest = std::max(b_lowest, p.y);
  EXPECT_LT(a_lowest, 9.0);   // through the gap
  EXPECT_GT(b_lowest, 10.0);  // round below
  while (!sim.all_arrived() && sim.stats().ticks < 2000) sim.step(0.05);
  EXPECT_TRUE(sim.all_arrived());
  EXPECT_EQ(sim.stats().collisions, 0u);
}

// The one-call navmesh simulation is the four nouns it stands for (a NavMeshPathService, an
// ObstacleWorld, add_navmesh_walls, walls_eroded): the same agents end at the same places.
TEST(NavMeshCrowd, TheOneCallFormIsTheServiceWallsAndFlagItStandsFor) {
  const grid::GridMap map = io::load_movingai_map(WAYMARK_DATA_DIR "/maps/arena.map");
  const navmesh::NavMesh nav = build_mesh(map);
  const std::vector<Vec2>& on_mesh = cells_on_mesh(map, nav).centres;
  ASSERT_GT(on_mesh.size(), 100u);
  ObstacleWorld walls;
  add_navmesh_walls(walls, nav);
  SimulationParams params;
  params.walls_eroded = true;
  Simulation by_hand(std::make_unique<NavMeshPathService>(nav, navmesh::NavQueryOptions{}, params.queue), std::move(walls), params);
  Simulation one_call(nav, SimulationParams{});
  for (Simulation* sim : {&by_hand, &one_call}) {
    sim->add_agent(AgentParams{}, on_mesh.front(), on_mesh.back());
    sim->add_agent(AgentParams{}, on_mesh.back(), on_mesh[on_mesh.size() / 2]);
    for (int i = 0; i < 2000 && !sim->all_arrived(); ++i) sim->step(0.05);
  }
  EXPECT_EQ(one_call.obstacles().size(), by_hand.obstacles().size());
  for (std::uint32_t k = 0; k < 2; ++k) EXPECT_EQ(one_call.position(AgentId{k}), by_hand.position(AgentId{k}));
  EXPECT_EQ(one_call.stats().plans, by_hand.stats().plans);
  EXPECT_EQ(one_call.stats().ticks, by_hand.stats().ticks);
  EXPECT_EQ(one_call.stats().arrived, 2u);
}

}  // namespace
}  // namespace waymark::steer::navmesh_crowd_test
