// Agents in a simulation on a navmesh travel the off-mesh links of their paths: a ledge whose
// only way down is a drop-down link. The agent walks to the link, is on_link (the game reads
// which link and how far) for the link's length at its speed, lands and walks on to its goal;
// the same run twice gives the same state hashes; up the one-way link there is no path.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "support/link_levels.hpp"
#include "waymark/steer/path_service.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::steer_link_travel_test {
using namespace steer;
namespace {

/// A ledge: an upper floor [0, 10] × [0, 10] at y = 3, and a lower one [11, 21] × [0, 10] at
/// y = 0 beyond a 1-unit gap; a one-way drop from (9.8, 3, 5) to (11.5, 0, 5).
navmesh::NavMesh ledge() {
  navmesh::NavMeshData d;
  test::add_floor(d, 0, 0, 10, 10, 3);
  test::add_floor(d, 11, 0, 10, 10, 0);
  d.climb = 0.5;
  d.links = {{.start = {9.8, 3, 5}, .end = {11.5, 0, 5}, .radius = 0.3, .user_id = 9}};
  return navmesh::NavMesh(std::move(d));
}

struct Outcome {
  std::vector<std::uint64_t> hashes;
  int on_link_ticks = 0;
  bool arrived = false;
  double link_length = 0;
};

Outcome run(const navmesh::NavMesh& mesh, Vec2 start, Vec2 goal, int steps = 400) {
  Simulation sim(mesh);  // paths on the mesh, its outline as walls, walls_eroded
  const AgentId id = sim.add_agent(AgentParams{.radius = 0.3}, start, goal);
  Outcome r;
  double last_progress = -1;
  for (int i = 0; i < steps && !sim.all_arrived(); ++i) {
    sim.step(0.05);
    r.hashes.push_back(sim.state_hash());
    if (sim.status(id) == AgentStatus::unreachable) break;
    if (i == 2 && sim.status(id) == AgentStatus::moving) {
      EXPECT_EQ(sim.path_links(id).size(), 1u);  // the path it follows takes the link
    }
    if (const auto travel = sim.link_travel(id)) {
      EXPECT_EQ(sim.status(id), AgentStatus::on_link);
      EXPECT_EQ(travel->user_id, 9u);
      EXPECT_EQ(travel->link, 0u);
      EXPECT_GT(travel->progress, last_progress);
      last_progress = travel->progress;
      // On the straight line between the link's ends, in plan.
      EXPECT_NEAR(sim.position(id).y, 5, 1e-9);
      EXPECT_GE(sim.position(id).x, 9.8 - 1e-9);
      EXPECT_LE(sim.position(id).x, 11.5 + 1e-9);
      ++r.on_link_ticks;
    }
  }
  r.arrived = sim.arrived(id);
  if (r.arrived) {
    EXPECT_NEAR(distance(sim.position(id), goal), 0, 0.3);
  }
  EXPECT_EQ(sim.stats().collisions, 0u);
  return r;
}

TEST(LinkTravel, AnAgentDropsOffTheLedgeAndWalksOn) {
  const navmesh::NavMesh mesh = ledge();
  const Outcome a = run(mesh, {2, 5}, {18, 5});
  EXPECT_TRUE(a.arrived);
  // The link's 3D length at the agent's max speed (3 units/s): 1.138 s, so it lands in the
  // 23rd tick of 0.05 s and is on the link after each of the 22 before.
  const double seconds = distance(Vec3{9.8, 3, 5}, Vec3{11.5, 0, 5}) / AgentParams{}.max_speed;
  EXPECT_EQ(a.on_link_ticks, static_cast<int>(std::ceil(seconds / 0.05)) - 1);
  const Outcome b = run(mesh, {2, 5}, {18, 5});
  EXPECT_EQ(a.hashes, b.hashes);  // deterministic
}

TEST(LinkTravel, NoWayUpAOneWayLink) {
  const navmesh::NavMesh mesh = ledge();
  Simulation sim(mesh);
  const AgentId id = sim.add_agent(AgentParams{.radius = 0.3}, {18, 5}, {2, 5});
  // The search proves it over a few frames' planning budgets (every vertex of a mesh with two
  // heights may be a bend: docs/navmesh.md).
  for (int i = 0; i < 100 && sim.status(id) == AgentStatus::planning; ++i) sim.step(0.05);
  EXPECT_EQ(sim.status(id), AgentStatus::unreachable);
  EXPECT_EQ(sim.reason(id), AgentReason::no_path);
  EXPECT_FALSE(sim.link_travel(id).has_value());
}

// Ends with no polygon near them are refused by the path service, each by name, and the agent
// is unreachable at its first planning round, without a search (issue 41).
TEST(LinkTravel, EndsOffTheMeshAreUnreachableAtOnce) {
  const navmesh::NavMesh mesh = ledge();
  Simulation sim(mesh);
  const AgentId off_start = sim.add_agent(AgentParams{.radius = 0.3}, {5, 40}, {2, 5});
  const AgentId off_goal = sim.add_agent(AgentParams{.radius = 0.3}, {5, 5}, {-30, 5});
  EXPECT_EQ(sim.plan_pending(), 0u);
  EXPECT_EQ(sim.reason(off_start), AgentReason::start_outside);
  EXPECT_EQ(sim.reason(off_goal), AgentReason::goal_outside);
  EXPECT_EQ(sim.stats().refused_plans, 2u);
  EXPECT_EQ(sim.stats().plans, 0u);
  EXPECT_TRUE(sim.settled());
}

}  // namespace
}  // namespace waymark::steer_link_travel_test
