// Scene file events (io/scene.hpp, steer::SceneEvent): every kind read back, each malformed
// event refused with its JSON path and line, the tick order, and the checks against the map.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "support/error_text.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/io/scene.hpp"

namespace waymark::io::scene_events_test {
namespace {

using steer::ObstacleSpec;
using steer::SceneEvent;
using steer::SceneLimits;
using steer::SceneSpec;
using Kind = SceneEvent::Kind;

/// Three agents, one obstacle, and these events (the inside of the list).
std::string scene_with_events(const std::string& events) {
  return R"({"map": "m.map", "dt": 0.05, "max_steps": 500, "seed": 1,
  "agents": [{"start": [1.5, 1.5], "goal": [8.5, 1.5]}, {"start": [1.5, 3.5], "goal": [8.5, 3.5]},
             {"start": [1.5, 5.5], "goal": [8.5, 5.5]}],
  "obstacles": [{"circle": {"centre": [5, 8], "radius": 0.5}}],
  "events": [)" +
         events + "]}";
}

SceneSpec parse(const std::string& text) { return parse_scene(text, "s.json", {}); }

std::string event_error(const std::string& events) {
  return test::error_text<LoadError>([&] { (void)parse(scene_with_events(events)); });
}

TEST(SceneEvents, EveryKindReadBack) {
  const SceneSpec s = parse(scene_with_events(R"(
    {"tick": 0, "block": [3, 0, 3, 4]},
    {"tick": 90, "add_obstacle": {"box": {"min": [6, 6], "max": [7, 7]}, "layer": 2}},
    {"tick": 120, "agent": 1, "goal": [2.5, 7.5]},
    {"tick": 120, "agent": 0, "stop": true},
    {"tick": 150, "agent": 0, "resume": true},
    {"tick": 160, "agent": 2, "warp": [4.25, 6.5]},
    {"tick": 200, "agent": 2, "remove": true},
    {"tick": 300, "remove_obstacle": 1},
    {"tick": 300, "remove_obstacle": 0},
    {"tick": 400, "open": [3, 1, 3, 1]})"));
  ASSERT_EQ(s.events.size(), 10u);
  const std::vector<Kind> kinds{Kind::block, Kind::add_obstacle, Kind::goal,            Kind::stop,            Kind::resume,
                                Kind::warp,  Kind::remove,       Kind::remove_obstacle, Kind::remove_obstacle, Kind::open};
  const std::vector<std::uint64_t> ticks{0, 90, 120, 120, 150, 160, 200, 300, 300, 400};
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    EXPECT_EQ(s.events[i].kind, kinds[i]) << i;
    EXPECT_EQ(s.events[i].tick, ticks[i]) << i;
  }
  const SceneEvent& block = s.events[0];
  EXPECT_EQ(std::vector<int>({block.x0, block.y0, block.x1, block.y1}), std::vector<int>({3, 0, 3, 4}));
  EXPECT_FALSE(block.orders_agent());
  EXPECT_EQ(s.events[1].obstacle.kind, ObstacleSpec::Kind::box);
  EXPECT_EQ(s.events[1].obstacle.points, (std::vector<Vec2>{{6, 6}, {7, 7}}));
  EXPECT_EQ(s.events[1].obstacle.layer, 2);
  EXPECT_EQ(s.events[2].index, 1u);
  EXPECT_EQ(s.events[2].point, (Vec2{2.5, 7.5}));
  EXPECT_TRUE(s.events[2].orders_agent());
  EXPECT_EQ(s.events[3].index, 0u);
  EXPECT_EQ(s.events[4].index, 0u);
  EXPECT_EQ(s.events[5].point, (Vec2{4.25, 6.5}));
  EXPECT_EQ(s.events[6].index, 2u);
  EXPECT_EQ(s.events[7].index, 1u) << "the added box: after the scene's one obstacle";
  EXPECT_EQ(s.events[8].index, 0u);
  const SceneEvent& open = s.events[9];
  EXPECT_EQ(std::vector<int>({open.x0, open.y0, open.x1, open.y1}), std::vector<int>({3, 1, 3, 1}));
  EXPECT_TRUE(parse(scene_with_events("")).events.empty());
  EXPECT_EQ(steer::to_string(Kind::remove_obstacle), "remove_obstacle");
}

TEST(SceneEvents, MalformedEventsAreNamed) {
  EXPECT_EQ(event_error(R"({"tick": 1, "block": [5, 0, 3, 4]})"), "s.json:5: events[0].block: x1 = 3 must be ≥ x0 = 5");
  EXPECT_EQ(event_error(R"({"tick": 1, "block": [0, 0, 0, 0]}, {"tick": 2, "open": [0, 4, 0, 3]})"),
            "s.json:5: events[1].open: y1 = 3 must be ≥ y0 = 4");
  EXPECT_EQ(event_error(R"({"tick": 1, "block": [0, 0, 1]})"),
            "s.json:5: events[0].block: expected cells [x0, y0, x1, y1], got a list of 3 values");
  EXPECT_EQ(event_error(R"({"tick": 1, "block": "door"})"),
            "s.json:5: events[0].block: expected cells [x0, y0, x1, y1], got the string 'door'");
  EXPECT_EQ(event_error(R"({"tick": 1, "block": [0, -1, 1, 1]})"),
            "s.json:5: events[0].block[1]: must be an integer from 0 to 2147483646, got -1");
  EXPECT_EQ(event_error(R"({"tick": 1, "block": [0, 0, 2147483647, 1]})"),
            "s.json:5: events[0].block[2]: must be an integer from 0 to 2147483646, got 2147483647");
  EXPECT_EQ(event_error(R"({"tick": 1, "open": [0, 0.5, 1, 1]})"),
            "s.json:5: events[0].open[1]: must be an integer (digits only, no fraction or exponent), got 0.5");
  EXPECT_EQ(event_error(R"({"block": [0, 0, 1, 1]})"), "s.json:5: events[0]: missing key \"tick\"");
  EXPECT_EQ(event_error(R"({"tick": -1, "block": [0, 0, 1, 1]})"),
            "s.json:5: events[0].tick: must be an integer from 0 to 100000000, got -1");
  EXPECT_EQ(event_error(R"({"tick": 100000001, "block": [0, 0, 1, 1]})"),
            "s.json:5: events[0].tick: must be an integer from 0 to 100000000, got 100000001");
  EXPECT_EQ(event_error(R"({"tick": 3})"),
            "s.json:5: events[0]: expected one action: block, open, goal, warp, stop, resume, remove, add_obstacle or "
            "remove_obstacle");
  EXPECT_EQ(event_error(R"({"tick": 3, "block": [0, 0, 1, 1], "agent": 0, "goal": [1, 1]})"),
            "s.json:5: events[0]: holds two actions, block and goal (one action per event)");
  EXPECT_EQ(event_error(R"({"tick": 3, "agent": 0, "gaol": [1, 1]})"),
            "s.json:5: events[0]: unknown key 'gaol' (expected tick, agent, block, open, goal, warp, stop, resume, "
            "remove, add_obstacle or remove_obstacle)");
  EXPECT_EQ(event_error("[]"), "s.json:5: events[0]: expected an event object, got a list");
  EXPECT_EQ(test::error_text<LoadError>([] {
              (void)parse(R"({"map": "m", "dt": 0.05, "max_steps": 1, "seed": 1, "agents": [{"start": [1, 1], "goal": [1, 1]}],
                              "events": {}})");
            }),
            "s.json:2: events: expected a list of events, got an object");
}

TEST(SceneEvents, OrdersNameAnAgentOfTheScene) {
  EXPECT_EQ(event_error(R"({"tick": 1, "goal": [1, 1]})"), "s.json:5: events[0]: missing key \"agent\"");
  EXPECT_EQ(event_error(R"({"tick": 1, "agent": 3, "goal": [1, 1]})"),
            "s.json:5: events[0].agent: there is no agent 3 (the scene's 3 agents are numbered from 0 in the order listed)");
  EXPECT_EQ(event_error(R"({"tick": 1, "agent": -1, "stop": true})"),
            "s.json:5: events[0].agent: must be an integer from 0 to 18446744073709551615, got -1");
  EXPECT_EQ(event_error(R"({"tick": 1, "agent": 0, "block": [0, 0, 0, 0]})"),
            "s.json:5: events[0].agent: not used by block (only goal, warp, stop, resume and remove name an agent)");
  EXPECT_EQ(event_error(R"({"tick": 1, "agent": 0, "remove": false})"),
            "s.json:5: events[0].remove: must be true (leave the event out instead)");
  EXPECT_EQ(event_error(R"({"tick": 1, "agent": 0, "stop": 1})"), "s.json:5: events[0].stop: expected true, got 1");
  EXPECT_EQ(event_error(R"({"tick": 1, "agent": 0, "warp": [1, 1e7]})"),
            "s.json:5: events[0].warp[1]: must lie within ±1000000 (SceneLimits::max_abs_coordinate), got 1e7");
  EXPECT_EQ(event_error(R"({"tick": 1, "agent": 1, "remove": true},
                           {"tick": 2, "agent": 0, "stop": true},
                           {"tick": 2, "agent": 1, "goal": [1, 1]})"),
            "s.json:7: events[2].agent: agent 1 was removed by events[0]");
  EXPECT_EQ(event_error(R"({"tick": 1, "agent": 1, "remove": true}, {"tick": 2, "agent": 1, "remove": true})"),
            "s.json:5: events[1].agent: agent 1 was removed by events[0]");
}

TEST(SceneEvents, ObstaclesAddedAndRemoved) {
  EXPECT_EQ(event_error(R"({"tick": 1, "add_obstacle": {"circle": {"centre": [1, 1], "radius": -1}}})"),
            "s.json:5: events[0].add_obstacle.circle.radius: must be a finite number > 0 and ≤ 1000000, got -1");
  EXPECT_EQ(event_error(R"({"tick": 1, "add_obstacle": {"layer": 1}})"),
            "s.json:5: events[0].add_obstacle: expected one shape: circle, box, oriented_box, polygon or segment");
  EXPECT_EQ(event_error(R"({"tick": 1, "remove_obstacle": 1})"),
            "s.json:5: events[0].remove_obstacle: must be an integer from 0 to 0 (the scene's 1 obstacles, then the 0 "
            "added by earlier events), got 1");
  EXPECT_EQ(event_error(R"({"tick": 1, "remove_obstacle": 0}, {"tick": 1, "remove_obstacle": 0})"),
            "s.json:5: events[1].remove_obstacle: obstacle 0 was removed by events[0]");
  EXPECT_EQ(event_error(R"({"tick": 1, "remove_obstacle": "crate"})"),
            "s.json:5: events[0].remove_obstacle: expected an integer, got the string 'crate'");
  // An obstacle added later in the list cannot be removed before it is added.
  EXPECT_EQ(event_error(R"({"tick": 1, "remove_obstacle": 1}, {"tick": 1, "add_obstacle": {"segment": [[0, 0], [1, 0]]}})"),
            "s.json:5: events[0].remove_obstacle: must be an integer from 0 to 0 (the scene's 1 obstacles, then the 0 "
            "added by earlier events), got 1");
  const std::string none = R"({"map": "m", "dt": 0.05, "max_steps": 1, "seed": 1, "agents": [{"start": [1, 1], "goal": [1, 1]}],
    "events": [{"tick": 0, "remove_obstacle": 0}]})";
  EXPECT_EQ(test::error_text<LoadError>([&] { (void)parse(none); }),
            "s.json:2: events[0].remove_obstacle: there is no obstacle to remove (the scene has none and no earlier "
            "event adds one)");
}

TEST(SceneEvents, TicksInOrderAndCounted) {
  EXPECT_EQ(event_error(R"({"tick": 120, "block": [0, 0, 0, 0]},
                           {"tick": 100, "open": [0, 0, 0, 0]})"),
            "s.json:6: events[1].tick: 100 comes before the tick 120 of events[0] (list the events in tick order)");
  std::string many;
  for (std::size_t i = 0; i <= SceneLimits::max_events; ++i) many += std::string(i == 0 ? "" : ",") + R"({"tick":0,"open":[0,0,0,0]})";
  EXPECT_EQ(event_error(many), "s.json:5: events: more than 100000 events (SceneLimits::max_events)");
  many.erase(many.rfind(",{"));
  EXPECT_EQ(parse(scene_with_events(many)).events.size(), SceneLimits::max_events);
}

// ---------------------------------------------------------------- against the map

std::string map_error(const std::string& events) {
  // 10 x 8 cells; (4, 0) to (4, 6) blocked: a wall with a gap at the top row.
  grid::GridMap map(10, 8);
  map.set_passable(grid::CellRect{4, 0, 5, 7}, false);
  return test::error_text<LoadError>([&] { check_scene_against_map(parse(scene_with_events(events)), map, "s.json"); });
}

TEST(SceneEvents, MapCheckCoversEvents) {
  EXPECT_EQ(map_error(R"({"tick": 1, "block": [4, 7, 4, 7]}, {"tick": 9, "agent": 0, "goal": [8.5, 7.5]},
                         {"tick": 9, "agent": 1, "warp": [0.5, 0.5]}, {"tick": 9, "remove_obstacle": 0})"),
            "") << "a goal in a cell an earlier event blocked is accepted";
  EXPECT_EQ(map_error(R"({"tick": 1, "block": [4, 7, 10, 7]})"),
            "s.json: events[0].block: cells (4, 7) to (10, 7) reach outside the 10x8 map (x from 0 to 10, y from 0 to 8)");
  EXPECT_EQ(map_error(R"({"tick": 1, "open": [0, 0, 0, 8]})"),
            "s.json: events[0].open: cells (0, 0) to (0, 8) reach outside the 10x8 map (x from 0 to 10, y from 0 to 8)");
  EXPECT_EQ(map_error(R"({"tick": 1, "open": [0, 0, 0, 0]}, {"tick": 1, "agent": 2, "goal": [4.5, 3.5]})"),
            "s.json: events[1].goal (4.5, 3.5) lies in blocked cell (4, 3)");
  EXPECT_EQ(map_error(R"({"tick": 1, "agent": 2, "warp": [12, 3.5]})"),
            "s.json: events[0].warp (12, 3.5) is outside the 10x8 map (x from 0 to 10, y from 0 to 8)");
  // A SceneSpec built in code is checked as the reader checks a file.
  grid::GridMap map(10, 8);
  SceneSpec scene = parse(scene_with_events(""));
  SceneEvent order;
  order.kind = Kind::stop;
  order.index = 3;
  scene.events.push_back(order);
  EXPECT_EQ(test::error_text<LoadError>([&] { check_scene_against_map(scene, map, "s.json"); }),
            "s.json: events[0].agent: there is no agent 3 (the scene has 3 agents)");
  SceneEvent removal;
  removal.kind = Kind::remove_obstacle;
  removal.index = 1;
  scene.events = {removal};
  EXPECT_EQ(test::error_text<LoadError>([&] { check_scene_against_map(scene, map, "s.json"); }),
            "s.json: events[0].remove_obstacle: there is no obstacle 1 (1 obstacles by then)");
}

// A goal or warp inside an obstacle is refused as an agent's goal inside one is: against the
// obstacles there are at the event's tick — the scene's, less those removed before, and those
// earlier events added (it was once checked against the map as loaded only).
TEST(SceneEvents, MapCheckCoversObstaclesAtTheEventsTick) {
  EXPECT_EQ(map_error(R"({"tick": 1, "agent": 0, "goal": [5, 7.8]})"),
            "s.json: events[0].goal (5, 7.8) lies inside an obstacle at tick 1");
  EXPECT_EQ(map_error(R"({"tick": 1, "remove_obstacle": 0}, {"tick": 2, "agent": 0, "goal": [5, 7.8]})"), "")
      << "removed by then";
  const std::string crate = R"({"tick": 3, "add_obstacle": {"box": {"min": [6, 1], "max": [7, 2]}}})";
  EXPECT_EQ(map_error(crate + R"(, {"tick": 3, "agent": 1, "warp": [6.5, 1.5]})"),
            "s.json: events[1].warp (6.5, 1.5) lies inside an obstacle at tick 3");
  EXPECT_EQ(map_error(R"({"tick": 2, "agent": 1, "warp": [6.5, 1.5]}, )" + crate), "") << "the crate comes later";
  EXPECT_EQ(map_error(crate + R"(, {"tick": 4, "remove_obstacle": 1}, {"tick": 5, "agent": 2, "goal": [6.5, 1.5]})"), "");
  EXPECT_EQ(map_error(R"({"tick": 1, "agent": 2, "goal": [6.5, 1.5]})"), "") << "no obstacle there";
}

}  // namespace
}  // namespace waymark::io::scene_events_test
