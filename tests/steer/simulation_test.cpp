// The simulation: the shipped scenes end with every agent arrived and no collisions; a run is
// deterministic; agents plan, follow and stay clear of walls; the CLI's simulate command, its
// summary, its trace and its errors.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "waymark/io/movingai.hpp"
#include "waymark/io/scene.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::steer::simulation_test {
namespace {

const std::string scenes_dir = std::string(WAYMARK_DATA_DIR) + "/../scenes";

std::unique_ptr<Simulation> load(const std::string& name) {
  const std::string path = scenes_dir + "/" + name;
  const SceneSpec spec = io::load_scene(path);
  grid::GridMap map = io::load_movingai_map(spec.map);
  io::check_scene_against_map(spec, map, path);
  return make_simulation(spec, std::move(map));
}

void run(Simulation& sim, double dt, std::uint64_t max_steps) {
  while (!sim.all_arrived() && sim.stats().ticks < max_steps) sim.step(dt);
}

class ShippedScene : public ::testing::TestWithParam<const char*> {};

TEST_P(ShippedScene, EveryAgentArrivesWithoutCollisions) {
  const std::string name = GetParam();
  const SceneSpec spec = io::load_scene(scenes_dir + "/" + name);
  const std::unique_ptr<Simulation> sim = load(name);
  run(*sim, spec.dt, spec.max_steps);
  const SimulationStats& s = sim->stats();
  EXPECT_EQ(s.arrived, sim->size()) << name << " after " << s.ticks << " ticks";
  EXPECT_EQ(s.collisions, 0u) << name;
  EXPECT_GE(s.min_clearance, -0.01 * 0.35) << name;
  EXPECT_LT(s.ticks, spec.max_steps) << name;
  for (std::size_t i = 0; i < sim->size(); ++i) {
    const AgentId id{static_cast<std::uint32_t>(i)};
    EXPECT_LE(distance(sim->state(id).position, sim->goal(id)), sim->params(id).radius * 1.5) << name << " agent " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Scenes, ShippedScene,
                         ::testing::Values("wall_ahead.json", "corridor.json", "circle_swap.json", "path_loop.json",
                                           "dao_50.json", "mixed_sizes.json"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                           std::string n = param.param;
                           n = n.substr(0, n.find('.'));
                           std::erase(n, '_');
                           return n;
                         });

TEST(Simulation, TheSameSceneRunsTheSameTwice) {
  const std::unique_ptr<Simulation> a = load("circle_swap.json");
  const std::unique_ptr<Simulation> b = load("circle_swap.json");
  for (int t = 0; t < 300; ++t) {
    a->step(0.05);
    b->step(0.05);
    for (std::size_t i = 0; i < a->size(); ++i) {
      const AgentId id{static_cast<std::uint32_t>(i)};
      ASSERT_EQ(a->state(id).position, b->state(id).position) << "tick " << t << " agent " << i;
      ASSERT_EQ(a->state(id).velocity, b->state(id).velocity) << "tick " << t << " agent " << i;
    }
  }
}

TEST(Simulation, LoopingFollowersGoRoundTheirLaps) {
  const std::unique_ptr<Simulation> sim = load("path_loop.json");
  std::vector<std::size_t> visits(sim->size(), 0);
  std::vector<std::size_t> last(sim->size(), 0);
  while (!sim->all_arrived() && sim->stats().ticks < 4000) {
    sim->step(0.05);
    for (std::size_t i = 0; i < sim->size(); ++i) {
      const std::size_t now = sim->follower(AgentId{static_cast<std::uint32_t>(i)}).current();
      if (now != last[i]) {
        EXPECT_EQ(now, (last[i] + 1) % 4) << "agent " << i << " skipped a waypoint";
        last[i] = now;
        ++visits[i];
      }
    }
  }
  for (std::size_t i = 0; i < sim->size(); ++i) EXPECT_EQ(visits[i], 7u) << i;  // two laps of four, from the first
  EXPECT_TRUE(sim->all_arrived());
}

TEST(Simulation, AgentsPlanAroundWallsAndNeverEnterThem) {
  grid::GridMap map(30, 20);
  map.set_passable(grid::CellRect{10, 0, 12, 16}, false);
  map.set_passable(grid::CellRect{18, 4, 20, 20}, false);
  Simulation sim(map, {});
  AgentParams p;
  p.max_speed = 6;  // fast: a third of a cell per tick
  sim.add_agent(p, {2.5, 2.5}, {27.5, 17.5});
  sim.add_agent(p, {27.5, 2.5}, {2.5, 17.5});
  while (!sim.all_arrived() && sim.stats().ticks < 3000) {
    sim.step(0.05);
    for (std::size_t i = 0; i < sim.size(); ++i) {
      const Vec2 c = sim.state(AgentId{static_cast<std::uint32_t>(i)}).position;
      ASSERT_TRUE(map.passable(static_cast<int>(c.x), static_cast<int>(c.y))) << c.x << "," << c.y;
    }
  }
  EXPECT_TRUE(sim.all_arrived());
  EXPECT_EQ(sim.stats().collisions, 0u);
  EXPECT_GE(sim.stats().plans, 2u);
}

// A warm start spends an unlimited budget to the end: the queue gives each running search one
// turn of 256 expansions per update, and plan_pending() once made one update per call, so a
// caller looping until nobody waits scanned every agent once per turn (20,000 agents on
// den520d: 59 s before the first tick, 8 s now).
TEST(Simulation, OneWarmStartCallPlansEveryPathAskedFor) {
  // A serpentine: walls across every other row, the gap at alternate ends; the way from the
  // top row to the bottom one runs the whole width 20 times (about 1,200 expansions of A*).
  grid::GridMap map(60, 41);
  for (int y = 1; y < 41; y += 2) map.set_passable(grid::CellRect{y % 4 == 1 ? 0 : 1, y, y % 4 == 1 ? 59 : 60, y + 1}, false);
  Simulation sim(map, {});
  for (int i = 0; i < 12; ++i) sim.add_agent({}, {2.5 + 4 * i, 0.5}, {57.5 - 4 * i, 40.5});
  EXPECT_EQ(sim.plan_pending(), 0u);
  for (std::size_t i = 0; i < sim.size(); ++i) EXPECT_GT(sim.path(AgentId{static_cast<std::uint32_t>(i)}).size(), 20u) << i;
  // A budget of expansions still gets one update: not every path is planned by one call.
  Simulation limited(map, {});
  for (int i = 0; i < 12; ++i) limited.add_agent({}, {2.5 + 4 * i, 0.5}, {57.5 - 4 * i, 40.5});
  EXPECT_GT(limited.plan_pending(search::Budget::of_expansions(1000)), 0u);
}

TEST(Simulation, AnUnreachableGoalIsReportedAndTheAgentStays) {
  grid::GridMap map(20, 10);
  map.set_passable(grid::CellRect{10, 0, 11, 10}, false);
  Simulation sim(map, {});
  sim.add_agent({}, {3.5, 3.5}, {15.5, 3.5});
  for (int t = 0; t < 100; ++t) sim.step(0.05);
  EXPECT_FALSE(sim.all_arrived());
  EXPECT_GE(sim.stats().failed_plans, 1u);
  EXPECT_LT(distance(sim.state(AgentId{0}).position, Vec2{3.5, 3.5}), 1e-9);
}

// Three agents overlapping at once (one pair nearly coincident): pushing them apart moves
// none further than the overlap it had (the pushes once used distances from before earlier
// pushes of the same pass and threw agents across the map), and leaves them nearly apart
// after one tick (their followers pull each back to its overlapping start).
TEST(Simulation, OverlappingAgentsPartByNoMoreThanTheirOverlap) {
  SimulationParams params;
  params.agent_avoidance = false;
  params.separation_passes = 4;
  Simulation sim(grid::GridMap(40, 20), params);
  const std::vector<Vec2> starts{{20, 10}, {20, 9.5}, {20 + 1e-6, 10}};
  for (const Vec2 p : starts) sim.add_follower({}, p, std::vector<Vec2>{p}, false);
  sim.step(0.05);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const Vec2 now = sim.state(AgentId{static_cast<std::uint32_t>(i)}).position;
    EXPECT_LT(distance(now, starts[i]), 0.7 + 1e-9) << i;  // at most both radii
    for (std::size_t j = i + 1; j < starts.size(); ++j) {
      EXPECT_GE(distance(now, sim.state(AgentId{static_cast<std::uint32_t>(j)}).position), 0.7 - 0.05) << i << "," << j;
    }
  }
  params.preferred_jitter = std::numeric_limits<double>::infinity();
  EXPECT_THROW(Simulation(grid::GridMap(4, 4), params), std::invalid_argument);
  EXPECT_THROW(sim.add_agent({}, {std::nan(""), 1}, {2, 2}), std::invalid_argument);
}

TEST(Simulation, RefusesBadParameters) {
  Simulation sim(grid::GridMap(5, 5), {});
  AgentParams p;
  p.radius = -1;
  EXPECT_THROW(sim.add_agent(p, {1.5, 1.5}, {3.5, 3.5}), std::invalid_argument);
  p = {};
  p.max_speed = std::nan("");
  EXPECT_THROW(sim.add_agent(p, {1.5, 1.5}, {3.5, 3.5}), std::invalid_argument);
  EXPECT_FALSE(sim.step(0));  // per-frame calls refuse, never throw
  EXPECT_FALSE(sim.step(std::nan("")));
}

#ifdef WAYMARK_CLI
/// Runs the CLI; returns its exit code and stdout.
/// A scratch path of this test's own (ctest runs tests, and the sanitizer builds, side by side).
std::string scratch(const std::string& name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "waymark_" + test->name() + "_" + std::to_string(getpid()) + "_" + name;
}

std::pair<int, std::string> cli(const std::string& args) {
  const std::string out = scratch("out.txt");
  const int rc = std::system((std::string(WAYMARK_CLI) + " " + args + " > " + out + " 2> " + out + ".err").c_str());
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  return {WEXITSTATUS(rc), text.str()};
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(SimulateCommand, PrintsTheSummaryAndATraceThatRepeats) {
  const std::string trace1 = scratch("trace1.jsonl"), trace2 = scratch("trace2.jsonl");
  const auto [rc, out] = cli("simulate --scene " + scenes_dir + "/circle_swap.json --json --trace " + trace1);
  ASSERT_EQ(rc, 0) << out;
  const nlohmann::json summary = nlohmann::json::parse(out);
  EXPECT_EQ(summary["agents"], 8);
  EXPECT_EQ(summary["arrived"], 8);
  EXPECT_EQ(summary["collisions"], 0);
  EXPECT_GT(summary["ticks"].get<int>(), 10);
  EXPECT_GE(summary["min_clearance"].get<double>(), 0.0 - 0.0035);
  EXPECT_GT(summary["mean_tick_us"].get<double>(), 0.0);
  ASSERT_EQ(cli("simulate --scene " + scenes_dir + "/circle_swap.json --trace " + trace2).first, 0);
  const std::string t = read(trace1);
  EXPECT_EQ(t, read(trace2));
  // A header and one line per tick, the start included.
  EXPECT_EQ(static_cast<std::size_t>(std::count(t.begin(), t.end(), '\n')), summary["ticks"].get<std::size_t>() + 2);
}

TEST(SimulateCommand, StepsCutTheRunShort) {
  const auto [rc, out] = cli("simulate --scene " + scenes_dir + "/circle_swap.json --steps 5 --json");
  EXPECT_EQ(rc, 1);
  EXPECT_EQ(nlohmann::json::parse(out)["ticks"], 5);
  EXPECT_EQ(cli("simulate --scene " + scenes_dir + "/circle_swap.json --steps 0").first, 2);
  EXPECT_EQ(cli("simulate --scene " + scenes_dir + "/circle_swap.json --steps -3").first, 2);
}

// A run that would go on for hours (an agent circling its waypoints forever, 10^8 ticks) stops
// at --time-limit: exit 1, "stopped": "time-limit", the ticks done.
TEST(SimulateCommand, ATimeLimitStopsTheRun) {
  const std::string dir = scratch("limit/");
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(scenes_dir + "/maps/open24.map", dir + "open24.map",
                             std::filesystem::copy_options::overwrite_existing);
  std::ofstream(dir + "forever.json") << R"({"map":"open24.map","dt":0.05,"max_steps":100000000,"seed":1,"agents":[
      {"start":[3.5,3.5],"waypoints":[[20.5,3.5],[20.5,20.5],[3.5,20.5],[3.5,3.5]],"loop":true}]})";
  const auto [rc, out] = cli("simulate --scene " + dir + "forever.json --time-limit 0.5 --json");
  EXPECT_EQ(rc, 1) << out;
  const nlohmann::json summary = nlohmann::json::parse(out, nullptr, false);
  ASSERT_TRUE(summary.is_object()) << out;
  EXPECT_EQ(summary["stopped"], "time-limit");
  EXPECT_GT(summary["ticks"].get<std::uint64_t>(), 0u);
  EXPECT_LT(summary["ticks"].get<std::uint64_t>(), 100000000u);
  EXPECT_EQ(cli("simulate --scene " + dir + "forever.json --time-limit -1").first, 2);
  EXPECT_EQ(cli("simulate --scene " + dir + "forever.json --time-limit 1e9").first, 2);
}

TEST(SimulateCommand, BadScenesExitWithTwo) {
  const std::string dir = scratch("dir/");
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(scenes_dir + "/maps/open24.map", dir + "open24.map",
                             std::filesystem::copy_options::overwrite_existing);
  struct Case {
    std::string what;
    std::string text;
    std::string named = "bad_scene.json";  ///< the file the message must name
  };
  const std::vector<Case> cases = {
      {"missing goal", R"({"map":"open24.map","dt":0.05,"max_steps":10,"seed":1,"agents":[{"start":[3.5,3.5]}]})"},
      {"in a wall", R"({"map":"open24.map","dt":0.05,"max_steps":10,"seed":1,"agents":[{"start":[0.5,3.5],"goal":[5.5,5.5]}]})"},
      {"NaN", R"({"map":"open24.map","dt":0.05,"max_steps":10,"seed":1,"agents":[{"start":[NaN,3.5],"goal":[5.5,5.5]}]})"},
      {"huge", R"({"map":"open24.map","dt":0.05,"max_steps":10,"seed":1,"agents":[{"start":[1e999,3.5],"goal":[5.5,5.5]}]})"},
      {"no map", R"({"map":"nothere.map","dt":0.05,"max_steps":10,"seed":1,"agents":[{"start":[3.5,3.5],"goal":[5.5,5.5]}]})",
       "nothere.map"},
      {"syntax", "{\"map\":\"open24.map\",\n\"dt\":0.05,,\n}"},
      {"inside an obstacle",
       R"({"map":"open24.map","dt":0.05,"max_steps":10,"seed":1,"agents":[{"start":[3.5,3.5],"goal":[5.5,5.5]}],
           "obstacles":[{"circle":{"centre":[3.7,3.5],"radius":0.5}}]})"},
  };
  for (const auto& [what, text, named] : cases) {
    const std::string path = dir + "bad_scene.json";
    std::ofstream(path) << text;
    const std::string err_path = scratch("out.txt.err");
    const auto [rc, out] = cli("simulate --scene " + path);
    EXPECT_EQ(rc, 2) << what << ": " << out;
    const std::string err = read(err_path);
    EXPECT_NE(err.find(named), std::string::npos) << what << ": " << err;
  }
}
#endif

}  // namespace
}  // namespace waymark::steer::simulation_test
