// `waymark simulate` with scene events (docs/steering.md "Events"): a door that closes, an
// agent removed, a new goal, a goal made unreachable, an event off the map; the --json
// summary's fields and the --trace file's positions and status codes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "waymark/core/geometry.hpp"

namespace waymark::apps_cli_simulate_test {
namespace {

using test::CliRun;
using test::run;
using test::temp_file;

/// 14 x 9 cells: a wall at x = 6 with a door at (6, 2) (the short route) and a gap at (6, 6)
/// (the long one).
std::string door_map() {
  std::string rows;
  for (int y = 0; y < 9; ++y) {
    for (int x = 0; x < 14; ++x) {
      const bool border = x == 0 || x == 13 || y == 0 || y == 8;
      const bool wall = x == 6 && y != 2 && y != 6;
      rows += border || wall ? '@' : '.';
    }
    rows += '\n';
  }
  return temp_file("events_door.map", "type octile\nheight 9\nwidth 14\nmap\n" + rows);
}

/// A scene on door_map() with these agents and events (the insides of the lists).
std::string door_scene(const std::string& name, const std::string& agents, const std::string& events) {
  return temp_file(name, R"({"map": ")" + door_map() + R"(", "dt": 0.05, "max_steps": 3000, "seed": 3, "agents": [)" +
                             agents + R"(], "events": [)" + events + "]}");
}

nlohmann::json summary(const CliRun& r) {
  const std::vector<nlohmann::json> lines = test::json_lines(r.out);
  return lines.empty() ? nlohmann::json{} : lines.back();
}

Vec2 position(const nlohmann::json& tick, std::size_t agent) {
  return {tick["p"][agent][0].get<double>(), tick["p"][agent][1].get<double>()};
}

constexpr const char* three_agents =
    R"({"start": [2.5, 1.5], "goal": [11.5, 1.5]}, {"start": [2.5, 3.5], "goal": [11.5, 3.5]},
       {"start": [3.5, 2.5], "goal": [10.5, 2.5]})";

/// `simulate --json --trace` of door_scene(name, three agents, events): its exit code and
/// output, the summary, the trace's lines.
struct Simulated {
  CliRun cli;
  nlohmann::json summary;
  std::vector<nlohmann::json> trace;
};
Simulated simulate(const std::string& name, const std::string& events) {
  const std::string trace = temp_file(name + ".jsonl", "");
  const CliRun r = run("simulate --scene " + door_scene(name + ".json", three_agents, events) + " --json --trace " + trace);
  return {r, summary(r), test::read_trace(trace)};
}

/// The run ended with exit 0 and these counts in its --json summary (of the three agents).
void expect_counts(const Simulated& r, int arrived, int removed) {
  EXPECT_EQ(r.cli.exit_code, 0) << r.cli.out;
  EXPECT_EQ(r.summary["agents"], 3);
  EXPECT_EQ(r.summary["arrived"], arrived);
  EXPECT_EQ(r.summary["removed"], removed);
}

TEST(CliSimulateEvents, DoorClosesAndEveryAgentGoesRound) {
  const Simulated r = simulate("events_door", R"({"tick": 5, "block": [6, 2, 6, 2]})");
  expect_counts(r, 3, 0);
  const std::vector<nlohmann::json>& lines = r.trace;
  ASSERT_GT(lines.size(), 7u);
  EXPECT_EQ(lines[0]["status_codes"].size(), 7u);
  // From the tick the door closed on, no agent's centre is in the door cell [6, 7) x [2, 3);
  // to reach x > 6 every agent went through the gap at (6, 6).
  for (std::size_t t = 7; t < lines.size(); ++t) {
    for (std::size_t i = 0; i < 3; ++i) {
      const Vec2 p = position(lines[t], i);
      EXPECT_FALSE(p.x >= 6 && p.x < 7 && p.y >= 2 && p.y < 3) << "tick " << t - 1 << " agent " << i;
    }
  }
  for (std::size_t i = 0; i < 3; ++i) {
    bool through_gap = false;
    for (std::size_t t = 1; t < lines.size(); ++t) {
      const Vec2 p = position(lines[t], i);
      through_gap = through_gap || (p.x >= 6 && p.x < 7 && p.y >= 6 && p.y < 7);
    }
    EXPECT_TRUE(through_gap) << "agent " << i;
  }
}

TEST(CliSimulateEvents, RemovedAgentCountsNeitherWayAndStaysPut) {
  const Simulated r = simulate("events_removed", R"({"tick": 10, "agent": 1, "remove": true})");
  expect_counts(r, 2, 1);
  const std::vector<nlohmann::json>& lines = r.trace;
  ASSERT_GT(lines.size(), 20u);
  // Line t + 1 is the state after t steps (tick t); the removal came after tick 10's line,
  // before step 11. The agent keeps the position it had then.
  const Vec2 last = position(lines[11], 1);
  EXPECT_NE(lines[11]["status"].get<std::string>()[1], '6');
  EXPECT_NE(position(lines[10], 1), last) << "it was moving until then";
  for (std::size_t t = 12; t < lines.size(); ++t) {
    EXPECT_EQ(position(lines[t], 1), last) << "tick " << t - 1;
    EXPECT_EQ(lines[t]["status"].get<std::string>()[1], '6') << "removed is the 7th code";
  }
  EXPECT_EQ(lines[0]["status_codes"][6], "removed");
}

TEST(CliSimulateEvents, NewGoalIsReached) {
  const Simulated r = simulate("events_goal", R"({"tick": 15, "agent": 0, "goal": [2.5, 7.5]})");
  expect_counts(r, 3, 0);
  const Vec2 end = position(r.trace.back(), 0);
  EXPECT_LT(std::hypot(end.x - 2.5, end.y - 7.5), 0.35) << "within its radius of the new goal";
}

TEST(CliSimulateEvents, GoalInACellClosedEarlierIsUnreachable) {
  const std::string scene = door_scene("events_unreachable.json", R"({"start": [2.5, 1.5], "goal": [4.5, 1.5]})",
                                       R"({"tick": 0, "block": [10, 1, 10, 1]}, {"tick": 0, "agent": 0, "goal": [10.5, 1.5]})");
  const CliRun r = run("simulate --scene " + scene + " --json --steps 200");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const nlohmann::json s = summary(r);
  EXPECT_EQ(s["arrived"], 0);
  EXPECT_EQ(s["removed"], 0);
}

TEST(CliSimulateEvents, EventsOffTheMapAreBadInput) {
  const std::string outside = door_scene("events_outside.json", three_agents, R"({"tick": 1, "block": [6, 2, 14, 2]})");
  CliRun r = run("simulate --scene " + outside);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("events[0].block: cells (6, 2) to (14, 2) reach outside the 14x9 map"), std::string::npos) << r.out;
  const std::string wall = door_scene("events_wall.json", three_agents, R"({"tick": 1, "agent": 2, "warp": [6.5, 4.5]})");
  r = run("simulate --scene " + wall);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("events[0].warp (6.5, 4.5) lies in blocked cell (6, 4)"), std::string::npos) << r.out;
  const std::string order = door_scene("events_order.json", three_agents,
                                       "{\"tick\": 9, \"open\": [6, 2, 6, 2]},\n{\"tick\": 8, \"open\": [6, 2, 6, 2]}");
  r = run("simulate --scene " + order);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find(":3: events[1].tick: 8 comes before the tick 9 of events[0]"), std::string::npos) << r.out;
}

TEST(CliSimulateEvents, NoEventsNoStatusInTheTrace) {
  const Simulated r = simulate("events_none", "");
  ASSERT_EQ(r.cli.exit_code, 0) << r.cli.out;
  const std::vector<nlohmann::json>& lines = r.trace;
  ASSERT_GT(lines.size(), 1u);
  EXPECT_FALSE(lines[0].contains("status_codes"));
  EXPECT_FALSE(lines[1].contains("status"));
}

}  // namespace
}  // namespace waymark::apps_cli_simulate_test
