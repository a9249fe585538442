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

// ---- Every agent's state ends, with a reason (issue 41). Each run has --time-limit, so that a
// regression fails instead of hanging.

// Tick-0 events that close every start — a block over the whole map, a circle over all of it —
// leave no agent a free cell: each is unreachable (start_closed) at once and the run ends
// before its first tick, settled. (The warm-up once waited for their paths for ever, at 0 ticks.)
TEST(CliSimulateEvents, TickZeroEventsClosingEveryStartEndAtOnce) {
  for (const std::string events : {R"({"tick": 0, "block": [0, 0, 13, 8]})",
                                   R"({"tick": 0, "add_obstacle": {"circle": {"centre": [7, 4.5], "radius": 20}}})"}) {
    const std::string trace = temp_file("events_closed.jsonl", "");
    const CliRun r = run("simulate --scene " + door_scene("events_closed.json", three_agents, events) +
                         " --json --time-limit 5 --trace " + trace);
    EXPECT_EQ(r.exit_code, 1) << r.out;
    const nlohmann::json s = summary(r);
    EXPECT_EQ(s.value("stopped", ""), "settled") << r.out;
    EXPECT_EQ(s["ticks"], 0);
    EXPECT_EQ(s.value("refused_plans", -1), 3);
    EXPECT_EQ(s.value("reasons", nlohmann::json()), (nlohmann::json{{"start_closed", 3}})) << r.out;
    const std::vector<nlohmann::json> lines = test::read_trace(trace);
    ASSERT_EQ(lines.size(), 2u);
    ASSERT_TRUE(lines[0].contains("reason_codes") && lines[1].contains("reason"));
    EXPECT_EQ(lines[0]["status_codes"][3], "unreachable");
    EXPECT_EQ(lines[0]["reason_codes"].size(), 9u);
    EXPECT_EQ(lines[0]["reason_codes"][3], "start_closed");
    EXPECT_EQ(lines[1]["status"], "333");
    EXPECT_EQ(lines[1]["reason"], "333");
  }
}

// Two agents sent to one goal cell: the first arrives on it, the second stops within
// crowded_stop_distance and counts as arrived (crowded_goal). It once went round the first
// for ever, "moving", and the run lasted max_steps.
TEST(CliSimulateEvents, TwoAgentsSentToOneGoalBothArrive) {
  const std::string scene = door_scene("events_one_goal.json",
                                       R"({"start": [2.5, 1.5], "goal": [3.5, 4.5]}, {"start": [2.5, 7.5], "goal": [3.5, 4.5]})", "");
  const CliRun r = run("simulate --scene " + scene + " --json --time-limit 20");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json s = summary(r);
  EXPECT_EQ(s["arrived"], 2);
  EXPECT_LT(s["ticks"].get<int>(), 300);
  EXPECT_EQ(s["collisions"], 0);
  EXPECT_EQ(s.value("reasons", nlohmann::json()), (nlohmann::json{{"crowded_goal", 1}})) << r.out;
}

// A warp into a cell an earlier event closed puts the agent at the nearest free cell (it once
// stayed inside, colliding every tick, and never arrived); into a scene obstacle, or a goal
// inside one, is bad input, as an agent's goal inside one is.
TEST(CliSimulateEvents, AWarpIntoAClosedCellIsPushedOutAndOneIntoAnObstacleRefused) {
  const Simulated r = simulate("events_warp_closed", R"({"tick": 2, "block": [8, 1, 10, 7]}, {"tick": 4, "agent": 0, "warp": [9.5, 4.5]},
                                                       {"tick": 30, "open": [8, 1, 10, 7]})");
  expect_counts(r, 3, 0);
  EXPECT_EQ(r.summary["collisions"], 0) << r.cli.out;
  ASSERT_GT(r.trace.size(), 6u);
  const Vec2 put = position(r.trace[5], 0);  // after step 5, the warp applied before it
  EXPECT_FALSE(put.x >= 8 && put.x < 11 && put.y >= 1 && put.y < 8) << put.x << ", " << put.y;
  const std::string obstacle = R"(, "obstacles": [{"box": {"min": [9, 3], "max": [11, 6]}}]})";
  for (const std::string& order : {std::string(R"("warp": [10, 4.5])"), std::string(R"("goal": [10, 4.5])")}) {
    std::string text = R"({"map": ")" + door_map() + R"(", "dt": 0.05, "max_steps": 3000, "seed": 3, "agents": [)" +
                       three_agents + R"(], "events": [{"tick": 5, "agent": 1, )" + order + "}]" + obstacle;
    const CliRun bad = run("simulate --time-limit 5 --scene " + temp_file("events_in_obstacle.json", text));
    EXPECT_EQ(bad.exit_code, 2) << bad.out;
    EXPECT_NE(bad.out.find("events[0]." + order.substr(1, 4) + " (10, 4.5) lies inside an obstacle at tick 5"), std::string::npos)
        << bad.out;
  }
}

// A last event far past every agent's arrival is said up front (the run then idles until it);
// events near the agents' arrival say nothing.
TEST(CliSimulateEvents, ALastEventFarPastEveryArrivalIsWarnedAboutUpFront) {
  const Simulated late = simulate("events_late", R"({"tick": 2900, "agent": 0, "stop": true})");
  EXPECT_EQ(late.cli.exit_code, 0) << late.cli.out;
  EXPECT_NE(late.cli.out.find("waymark: warning: "), std::string::npos) << late.cli.out;
  EXPECT_NE(late.cli.out.find("the last event, at tick 2900, lies far past tick "), std::string::npos) << late.cli.out;
  EXPECT_NE(late.cli.out.find("the run idles until tick 2900"), std::string::npos) << late.cli.out;
  EXPECT_EQ(late.summary["ticks"], 2901) << "the step after the event";
  const Simulated near = simulate("events_near", R"({"tick": 40, "agent": 0, "stop": true})");
  EXPECT_EQ(near.cli.out.find("warning"), std::string::npos) << near.cli.out;
}

}  // namespace
}  // namespace waymark::apps_cli_simulate_test
