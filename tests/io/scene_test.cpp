// Scene files (io/scene.hpp): every field and default read back, each kind of malformed input
// refused with its JSON path and line, and the check of a scene against its map.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "support/error_text.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/io/scene.hpp"

namespace waymark::io::scene_test {
namespace {

using steer::AgentSpec;
using steer::ObstacleSpec;
using steer::SceneLimits;
using steer::SceneSpec;

SceneSpec parse(const std::string& text, const std::filesystem::path& base_dir = {}) {
  return parse_scene(text, "s.json", base_dir);
}

/// what() of the LoadError parsing `text` throws; "" when it parses.
std::string parse_error(const std::string& text) {
  return test::error_text<LoadError>([&] { (void)parse(text); });
}

/// The line of the LoadError parsing `text` throws (SIZE_MAX when it parses).
std::size_t error_line(const std::string& text) {
  try {
    (void)parse(text);
  } catch (const LoadError& e) {
    return e.line();
  }
  return std::numeric_limits<std::size_t>::max();
}

/// A valid scene with these agents (the inside of the list) and more top-level members.
std::string scene_with(const std::string& agents, const std::string& more = "") {
  return R"({"map": "m.map", "dt": 0.05, "max_steps": 100, "seed": 7, "agents": [)" + agents + "]" + more + "}";
}
constexpr const char* one_agent = R"({"start": [1.5, 2.5], "goal": [3.5, 4.5]})";

std::string error_with_agent(const std::string& agent) { return parse_error(scene_with(agent)); }
std::string error_with_obstacle(const std::string& obstacle) {
  return parse_error(scene_with(one_agent, R"(, "obstacles": [)" + obstacle + "]"));
}

TEST(SceneFile, EveryFieldReadBack) {
  const std::string text = R"({
  "map": "maps/arena.map",
  "dt": 0.02,
  "max_steps": 12345,
  "seed": 18446744073709551615,
  "agents": [
    {"start": [1.5, 2.5], "goal": [30.25, 40], "radius": 0.5, "max_speed": 2.5, "max_force": 7,
     "mass": 3.5, "layer": 31},
    {"start": [-2, 1e2], "waypoints": [[5, 6], [7.5, 8]], "loop": true, "laps": 3, "layer": 0},
    {"start": [0, 0], "goal": [7.5, 8], "waypoints": [[7.5, 8]], "loop": false}
  ],
  "obstacles": [
    {"circle": {"centre": [10, 11], "radius": 1.5}, "layer": 4},
    {"box": {"min": [-1, -2], "max": [3, 4]}},
    {"oriented_box": {"centre": [5, 6], "half_extents": [1, 0.5], "angle": 0.75}},
    {"oriented_box": {"centre": [5, 6], "half_extents": [1, 0.5]}},
    {"polygon": [[0, 0], [4, 0], [2, 3]], "layer": 31},
    {"segment": [[1, 1], [2, -1]]}
  ]
})";
  const SceneSpec s = parse(text, "/scenes");
  EXPECT_EQ(s.map, "/scenes/maps/arena.map");
  EXPECT_EQ(s.dt, 0.02);
  EXPECT_EQ(s.max_steps, 12345u);
  EXPECT_EQ(s.seed, std::numeric_limits<std::uint64_t>::max());
  ASSERT_EQ(s.agents.size(), 3u);
  const AgentSpec& a = s.agents[0];
  EXPECT_EQ(a.start, (Vec2{1.5, 2.5}));
  EXPECT_EQ(a.goal, (Vec2{30.25, 40}));
  EXPECT_EQ(a.radius, 0.5);
  EXPECT_EQ(a.max_speed, 2.5);
  EXPECT_EQ(a.max_force, 7.0);
  EXPECT_EQ(a.mass, 3.5);
  EXPECT_EQ(a.layer, 31);
  EXPECT_TRUE(a.waypoints.empty());
  EXPECT_FALSE(a.loop);
  const AgentSpec& b = s.agents[1];
  EXPECT_EQ(b.start, (Vec2{-2, 100}));
  EXPECT_EQ(b.waypoints, (std::vector<Vec2>{{5, 6}, {7.5, 8}}));
  EXPECT_EQ(b.goal, (Vec2{7.5, 8})) << "the goal defaults to the last waypoint";
  EXPECT_TRUE(b.loop);
  EXPECT_EQ(b.laps, 3u);
  EXPECT_EQ(s.agents[2].laps, 0u) << "laps defaults to 0 (forever, with loop)";
  EXPECT_EQ(s.agents[2].goal, (Vec2{7.5, 8})) << "a goal equal to the last waypoint is accepted";

  ASSERT_EQ(s.obstacles.size(), 6u);
  using Kind = ObstacleSpec::Kind;
  EXPECT_EQ(s.obstacles[0].kind, Kind::circle);
  EXPECT_EQ(s.obstacles[0].points, std::vector<Vec2>{(Vec2{10, 11})});
  EXPECT_EQ(s.obstacles[0].radius, 1.5);
  EXPECT_EQ(s.obstacles[0].layer, 4);
  EXPECT_EQ(s.obstacles[1].kind, Kind::box);
  EXPECT_EQ(s.obstacles[1].points, (std::vector<Vec2>{{-1, -2}, {3, 4}}));
  EXPECT_EQ(s.obstacles[1].layer, 0);
  EXPECT_EQ(s.obstacles[2].kind, Kind::oriented_box);
  EXPECT_EQ(s.obstacles[2].points, (std::vector<Vec2>{{5, 6}, {1, 0.5}}));
  EXPECT_EQ(s.obstacles[2].angle, 0.75);
  EXPECT_EQ(s.obstacles[3].angle, 0.0) << "angle defaults to 0";
  EXPECT_EQ(s.obstacles[4].kind, Kind::polygon);
  EXPECT_EQ(s.obstacles[4].points, (std::vector<Vec2>{{0, 0}, {4, 0}, {2, 3}}));
  EXPECT_EQ(s.obstacles[4].layer, 31);
  EXPECT_EQ(s.obstacles[5].kind, Kind::segment);
  EXPECT_EQ(s.obstacles[5].points, (std::vector<Vec2>{{1, 1}, {2, -1}}));
}

TEST(SceneFile, DefaultsAndMinimalForms) {
  const SceneSpec s = parse("\xef\xbb\xbf" + scene_with(one_agent) + "\r\n");
  const AgentSpec defaults;
  ASSERT_EQ(s.agents.size(), 1u);
  const AgentSpec& a = s.agents[0];
  EXPECT_EQ(a.radius, defaults.radius);
  EXPECT_EQ(a.max_speed, defaults.max_speed);
  EXPECT_EQ(a.max_force, defaults.max_force);
  EXPECT_EQ(a.mass, defaults.mass);
  EXPECT_EQ(a.layer, 0);
  EXPECT_TRUE(a.waypoints.empty());
  EXPECT_FALSE(a.loop);
  EXPECT_EQ(a.laps, 0u);
  EXPECT_TRUE(s.obstacles.empty());
  EXPECT_EQ(s.map, "m.map") << "an empty base_dir keeps the path as written";
  EXPECT_TRUE(parse(scene_with(one_agent, R"(, "obstacles": [])")).obstacles.empty());
  // Limits are inclusive where the format says ≤ / ≥.
  const SceneSpec edges = parse(R"({"map": "m", "dt": 1, "max_steps": 100000000, "seed": 0, "agents": [
    {"start": [-1000000, 1000000], "goal": [0, 0], "radius": 100, "max_speed": 10000, "mass": 0.001}]})");
  EXPECT_EQ(edges.dt, 1.0);
  EXPECT_EQ(edges.max_steps, SceneLimits::max_steps);
  EXPECT_EQ(edges.seed, 0u);
  EXPECT_EQ(edges.agents[0].radius, SceneLimits::max_radius);
  EXPECT_EQ(parse(R"({"map": "m", "dt": 0.0001, "max_steps": 1, "seed": -0, "agents": [{"start": [0, 0], "goal": [0, 0]}]})")
                .dt,
            SceneLimits::min_dt);
}

TEST(SceneFile, EachRequiredFieldMissingIsNamed) {
  const std::vector<std::pair<std::string, std::string>> members{
      {"map", R"("m.map")"}, {"dt", "0.05"}, {"max_steps", "10"}, {"seed", "1"}, {"agents", std::string("[") + one_agent + "]"}};
  for (std::size_t skip = 0; skip < members.size(); ++skip) {
    std::string text = "{";
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i == skip) continue;
      if (text.size() > 1) text += ", ";
      text += "\"" + members[i].first + "\": " + members[i].second;
    }
    text += "}";
    EXPECT_EQ(parse_error(text), "s.json: missing key \"" + members[skip].first + "\"") << text;
  }
  EXPECT_EQ(error_with_agent(R"({"goal": [1, 1]})"), "s.json:1: agents[0]: missing key \"start\"");
  EXPECT_EQ(error_with_agent(R"({"start": [1, 1]})"),
            "s.json:1: agents[0]: missing key \"goal\" (required unless \"waypoints\" are given)");
  EXPECT_EQ(error_with_obstacle(R"({"circle": {"centre": [1, 1]}})"), "s.json:1: obstacles[0].circle: missing key \"radius\"");
  EXPECT_EQ(error_with_obstacle(R"({"box": {"max": [1, 1]}})"), "s.json:1: obstacles[0].box: missing key \"min\"");
  EXPECT_EQ(error_with_obstacle(R"({"oriented_box": {"centre": [1, 1]}})"),
            "s.json:1: obstacles[0].oriented_box: missing key \"half_extents\"");
}

TEST(SceneFile, WrongTypes) {
  EXPECT_EQ(parse_error("[]"), "s.json: expected a JSON object (the scene), got a list");
  EXPECT_EQ(parse_error(R"({"map": 3, "dt": 0.05, "max_steps": 1, "seed": 1, "agents": []})"),
            "s.json:1: map: expected a file path (a string), got 3");
  EXPECT_EQ(parse_error(R"({"map": "m", "dt": "0.05", "max_steps": 1, "seed": 1, "agents": []})"),
            "s.json:1: dt: expected a number, got the string '0.05'");
  EXPECT_EQ(parse_error(R"({"map": "m", "dt": 0.05, "max_steps": 2.5, "seed": 1, "agents": []})"),
            "s.json:1: max_steps: must be an integer (digits only, no fraction or exponent), got 2.5");
  EXPECT_EQ(parse_error(R"({"map": "m", "dt": 0.05, "max_steps": 1e3, "seed": 1, "agents": []})"),
            "s.json:1: max_steps: must be an integer (digits only, no fraction or exponent), got 1e3");
  EXPECT_EQ(parse_error(R"({"map": "m", "dt": 0.05, "max_steps": 1, "seed": -1, "agents": []})"),
            "s.json:1: seed: must be an integer from 0 to 18446744073709551615, got -1");
  EXPECT_EQ(parse_error(R"({"map": "m", "dt": 0.05, "max_steps": 1, "seed": 18446744073709551616, "agents": []})"),
            "s.json:1: seed: must be an integer from 0 to 18446744073709551615, got 18446744073709551616");
  EXPECT_EQ(parse_error(R"({"map": "m", "dt": 0.05, "max_steps": 1, "seed": true, "agents": []})"),
            "s.json:1: seed: expected an integer, got true");
  EXPECT_EQ(parse_error(R"({"map": "m", "dt": 0.05, "max_steps": 1, "seed": 1, "agents": {}})"),
            "s.json:1: agents: expected a list of agents, got an object");
  EXPECT_EQ(parse_error(R"({"map": "m", "dt": 0.05, "max_steps": 1, "seed": 1, "agents": []})"),
            "s.json:1: agents: must hold at least one agent");
  EXPECT_EQ(error_with_agent("[1, 2]"), "s.json:1: agents[0]: expected an agent object, got a list");
  EXPECT_EQ(error_with_agent(R"({"start": [1], "goal": [1, 1]})"),
            "s.json:1: agents[0].start: expected a point [x, y], got a list of 1 values");
  EXPECT_EQ(error_with_agent(R"({"start": {"x": 1}, "goal": [1, 1]})"),
            "s.json:1: agents[0].start: expected a point [x, y], got an object");
  EXPECT_EQ(error_with_agent(R"({"start": [1, null], "goal": [1, 1]})"),
            "s.json:1: agents[0].start[1]: expected a number, got null");
  EXPECT_EQ(error_with_agent(R"({"start": [1, 1], "goal": [1, 1], "loop": 1})"),
            "s.json:1: agents[0].loop: expected true or false, got 1");
  EXPECT_EQ(error_with_agent(R"({"start": [1, 1], "goal": [1, 1], "layer": 1.0})"),
            "s.json:1: agents[0].layer: must be an integer (digits only, no fraction or exponent), got 1.0");
  EXPECT_EQ(error_with_agent(R"({"start": [1, 1], "waypoints": [1, 2]})"),
            "s.json:1: agents[0].waypoints[0]: expected a point [x, y], got 1");
  EXPECT_EQ(error_with_obstacle("[]"), "s.json:1: obstacles[0]: expected an obstacle object, got a list");
  EXPECT_EQ(error_with_obstacle(R"({"circle": [1, 2]})"),
            "s.json:1: obstacles[0].circle: expected a circle {\"centre\": [x, y], \"radius\": r}, got a list");
  EXPECT_EQ(error_with_obstacle(R"({"segment": [[1, 2], [3, 4], [5, 6]]})"),
            "s.json:1: obstacles[0].segment: more than 2 points (a segment has two)");
}

TEST(SceneFile, NaNInfinityAndOverflowAreRefused) {
  const std::string head = "{\n\"map\": \"m\",\n\"dt\": ";
  const std::string tail = ",\n\"max_steps\": 1, \"seed\": 1, \"agents\": []}";
  EXPECT_EQ(parse_error(head + "NaN" + tail), "s.json:3: invalid JSON: NaN is not a JSON number (JSON numbers are finite)");
  EXPECT_EQ(parse_error(head + "nan" + tail), "s.json:3: invalid JSON: nan is not a JSON number (JSON numbers are finite)");
  EXPECT_EQ(parse_error(head + "Infinity" + tail),
            "s.json:3: invalid JSON: Infinity is not a JSON number (JSON numbers are finite)");
  EXPECT_EQ(parse_error(head + "-Infinity" + tail),
            "s.json:3: invalid JSON: -Infinity is not a JSON number (JSON numbers are finite)");
  EXPECT_EQ(parse_error(head + "1e999" + tail), "s.json:3: dt: must be a finite number, got 1e999 (beyond the range of a double)");
  EXPECT_EQ(error_with_agent(R"({"start": [1, -1e999], "goal": [1, 1]})"),
            "s.json:1: agents[0].start[1]: must be a finite number, got -1e999 (beyond the range of a double)");
  EXPECT_EQ(error_with_agent(R"({"start": [1, 1], "goal": [1, 1], "radius": 1e400})"),
            "s.json:1: agents[0].radius: must be a finite number, got 1e400 (beyond the range of a double)");
  EXPECT_EQ(parse_error("1e999"), "s.json:1: must be a finite number, got 1e999 (beyond the range of a double)");
  // Large but finite values are range errors, named with the limit.
  EXPECT_EQ(error_with_agent(R"({"start": [1e300, 1], "goal": [1, 1]})"),
            "s.json:1: agents[0].start[0]: must lie within ±1000000 (SceneLimits::max_abs_coordinate), got 1e300");
}

TEST(SceneFile, RangesAreChecked) {
  const auto agent_error = [](const std::string& field) {
    return error_with_agent(R"({"start": [1, 1], "goal": [1, 1], )" + field + "}");
  };
  EXPECT_EQ(agent_error(R"("radius": -1)"), "s.json:1: agents[0].radius: must be a finite number > 0 and ≤ 100, got -1");
  EXPECT_EQ(agent_error(R"("radius": 0)"), "s.json:1: agents[0].radius: must be a finite number > 0 and ≤ 100, got 0");
  EXPECT_EQ(agent_error(R"("radius": 100.5)"), "s.json:1: agents[0].radius: must be a finite number > 0 and ≤ 100, got 100.5");
  EXPECT_EQ(agent_error(R"("max_speed": 0)"),
            "s.json:1: agents[0].max_speed: must be a finite number > 0 and ≤ 10000, got 0");
  EXPECT_EQ(agent_error(R"("max_force": -3)"),
            "s.json:1: agents[0].max_force: must be a finite number > 0 and ≤ 1000000, got -3");
  EXPECT_EQ(agent_error(R"("mass": 0)"), "s.json:1: agents[0].mass: must be a finite number ≥ 0.001 and ≤ 1000000, got 0");
  EXPECT_EQ(agent_error(R"("layer": 32)"), "s.json:1: agents[0].layer: must be an integer from 0 to 31, got 32");
  EXPECT_EQ(agent_error(R"("layer": -1)"), "s.json:1: agents[0].layer: must be an integer from 0 to 31, got -1");
  EXPECT_EQ(error_with_obstacle(R"({"segment": [[0, 0], [1, 1]], "layer": 32})"),
            "s.json:1: obstacles[0].layer: must be an integer from 0 to 31, got 32");
  const auto top_error = [](const std::string& dt, const std::string& steps) {
    return parse_error(R"({"map": "m", "dt": )" + dt + R"(, "max_steps": )" + steps + R"(, "seed": 1, "agents": [)" +
                       one_agent + "]}");
  };
  EXPECT_EQ(top_error("0", "1"), "s.json:1: dt: must be a finite number ≥ 0.0001 and ≤ 1, got 0");
  EXPECT_EQ(top_error("1.5", "1"), "s.json:1: dt: must be a finite number ≥ 0.0001 and ≤ 1, got 1.5");
  EXPECT_EQ(top_error("0.1", "0"), "s.json:1: max_steps: must be an integer from 1 to 100000000, got 0");
  EXPECT_EQ(top_error("0.1", "100000001"), "s.json:1: max_steps: must be an integer from 1 to 100000000, got 100000001");
  EXPECT_EQ(parse_error(R"({"map": "", "dt": 0.05, "max_steps": 1, "seed": 1, "agents": []})"),
            "s.json:1: map: must not be empty");
  EXPECT_EQ(parse_error(R"({"map": "a\u0000b", "dt": 0.05, "max_steps": 1, "seed": 1, "agents": []})"),
            "s.json:1: map: must not hold control characters, got 'a\\x00b'");
}

TEST(SceneFile, WaypointsGoalAndLoop) {
  EXPECT_EQ(error_with_agent(R"({"start": [1, 1], "goal": [2, 2], "waypoints": [[3, 3]]})"),
            "s.json:1: agents[0].goal: (2, 2) differs from the last waypoint (3, 3): with waypoints the goal is the "
            "last waypoint (leave \"goal\" out)");
  EXPECT_EQ(error_with_agent(R"({"start": [1, 1], "goal": [2, 2], "loop": true})"),
            "s.json:1: agents[0].loop: true needs waypoints to circle");
  EXPECT_EQ(error_with_agent(R"({"start": [1, 1], "waypoints": []})"),
            "s.json:1: agents[0].waypoints: must hold at least 1 point, got 0");
  EXPECT_EQ(error_with_agent(R"({"start": [1, 1], "waypoints": [[2, 2]], "laps": 2})"),
            "s.json:1: agents[0].laps: needs \"loop\": true (the rounds of the waypoints before stopping)");
  EXPECT_EQ(error_with_agent(R"({"start": [1, 1], "waypoints": [[2, 2]], "loop": true, "laps": -1})"),
            "s.json:1: agents[0].laps: must be an integer from 0 to 18446744073709551615, got -1");
}

TEST(SceneFile, ObstacleShapesAreChecked) {
  EXPECT_EQ(error_with_obstacle(R"({"layer": 2})"),
            "s.json:1: obstacles[0]: expected one shape: circle, box, oriented_box, polygon or segment");
  EXPECT_EQ(error_with_obstacle(R"({"circle": {"centre": [0, 0], "radius": 1}, "box": {"min": [0, 0], "max": [1, 1]}})"),
            "s.json:1: obstacles[0]: holds two shapes, circle and box (one shape per obstacle)");
  EXPECT_EQ(error_with_obstacle(R"({"circle": {"centre": [0, 0], "radius": 0}})"),
            "s.json:1: obstacles[0].circle.radius: must be a finite number > 0 and ≤ 1000000, got 0");
  EXPECT_EQ(error_with_obstacle(R"({"box": {"min": [0, 0], "max": [1, 0]}})"),
            "s.json:1: obstacles[0].box: min (0, 0) must lie below max (1, 0) on both axes");
  EXPECT_EQ(error_with_obstacle(R"({"oriented_box": {"centre": [0, 0], "half_extents": [1, -1]}})"),
            "s.json:1: obstacles[0].oriented_box.half_extents: must both be > 0, got (1, -1)");
  EXPECT_EQ(error_with_obstacle(R"({"polygon": [[0, 0], [1, 1]]})"),
            "s.json:1: obstacles[0].polygon: must hold at least 3 points, got 2");
  EXPECT_EQ(error_with_obstacle(R"({"polygon": [[0, 0], [1, 1], [2, 2]]})"),
            "s.json:1: obstacles[0].polygon: has no area (its corners lie on one line)");
  EXPECT_EQ(error_with_obstacle(R"({"segment": [[1, 1], [1, 1]]})"),
            "s.json:1: obstacles[0].segment: has no length (both ends at (1, 1))");
  EXPECT_EQ(error_with_obstacle(R"({"circle": {"center": [0, 0], "radius": 1}})"),
            "s.json:1: obstacles[0].circle: unknown key 'center' (expected centre or radius)");
}

TEST(SceneFile, UnknownAndRepeatedKeysAtTheirLines) {
  const std::string typo = R"({
  "map": "m", "dt": 0.05, "max_steps": 1, "seed": 1,
  "agents": [
    {"start": [1, 1], "goal": [2, 2]},
    {"start": [1, 1], "goal": [2, 2],
     "radious": 0.5}
  ]
})";
  EXPECT_EQ(parse_error(typo),
            "s.json:6: agents[1]: unknown key 'radious' (expected start, goal, radius, max_speed, max_force, mass, "
            "layer, waypoints, loop or laps)");
  EXPECT_EQ(parse_error(R"({"map": "m", "dt": 0.05, "max_steps": 1, "seed": 1, "agnets": []})"),
            "s.json:1: unknown key 'agnets' (expected map, dt, max_steps, seed, agents, obstacles or events)");
  const std::string twice = R"({
  "map": "m", "dt": 0.05, "max_steps": 1, "seed": 1,
  "agents": [
    {"start": [1, 1], "goal": [2, 2], "radius": 0.5,
     "radius": 0.75}
  ]
})";
  EXPECT_EQ(parse_error(twice), "s.json:5: agents[0].radius: key 'radius' appears twice");
  EXPECT_EQ(parse_error("{\"map\": \"a\",\n\"map\": \"b\"}"), "s.json:2: map: key 'map' appears twice");
  // An unknown key written with escapes is named decoded, at its own line.
  EXPECT_EQ(error_line("{\"map\": \"m\", \"dt\": 0.05, \"max_steps\": 1, \"seed\": 1, \"agents\": [\n{\"start\": [1, 1], "
                       "\"goal\": [2, 2],\n\"r\\u0061dious\": 1}]}"),
            3u);
}

TEST(SceneFile, SemanticErrorsAtTheLineOfTheValue) {
  const std::string text = R"({
  "map": "m",
  "dt": 0.05,
  "max_steps": 10,
  "seed": 3,
  "agents": [
    {"start": [1, 1], "goal": [2, 2]},
    {"start": [1, 1], "goal": [2, 2]},
    {"start": [1, 1], "goal": [2, 2]},
    {"start": [1, 1],
     "goal": [2, 2],
     "radius": -0.5}
  ]
})";
  EXPECT_EQ(parse_error(text), "s.json:12: agents[3].radius: must be a finite number > 0 and ≤ 100, got -0.5");
  EXPECT_EQ(error_line(R"({"map": "m", "dt": 0.05, "max_steps": 1, "seed": 1, "agents": [
{"start": [1, 1], "goal": [2, 2]},
{"start": [1, 1]}]})"),
            3u) << "a missing key: the line of the object that lacks it";
}

TEST(SceneFile, SyntaxErrorsAtTheirLine) {
  const std::string missing_comma = "{\n  \"map\": \"m\",\n  \"dt\": 0.05\n  \"max_steps\": 1\n}";
  const std::string message = parse_error(missing_comma);
  EXPECT_EQ(message.rfind("s.json:4: invalid JSON: syntax error while parsing object", 0), 0u) << message;
  EXPECT_EQ(error_line("{\"map\": \"m\",\n\n\n \"dt\": [1, 2,]}"), 4u);
  EXPECT_EQ(error_line("{\"map\": \"m\"}\n\ngarbage"), 3u);
  EXPECT_EQ(error_line("{\"map\": \"m\",\n\"dt\": 0.05"), 2u) << "the end of the input";
  EXPECT_EQ(error_line(""), 1u);
  EXPECT_EQ(error_line("{\"map\": \"m\" // a comment\n}"), 1u) << "JSON has no comments";
  EXPECT_EQ(error_line("{\"map\": \"\xff\"}"), 1u) << "strings are UTF-8";
  const std::string unterminated = parse_error("{\"map\": \"" + std::string(10000, 'a'));
  EXPECT_LT(unterminated.size(), 300u) << "a long token is cut in the message";
}

TEST(SceneFile, DeepNestingIsRefused) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(parse_error(deep), "s.json:1: [0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]: nested deeper than 16 arrays and objects");
  EXPECT_EQ(error_with_agent(R"({"start": [[[[[[[[[[[[[[1]]]]]]]]]]]]]], "goal": [1, 1]})"),
            "s.json:1: agents[0].start[0][0][0][0][0][0][0][0][0][0][0][0][0]: nested deeper than 16 arrays and objects");
}

TEST(SceneFile, CountsAreCheckedAgainstSceneLimits) {
  std::string text = R"({"map": "m", "dt": 0.05, "max_steps": 1, "seed": 1, "agents": [)";
  const std::string tiny = R"({"start":[1,1],"goal":[1,1]})";
  text.reserve(text.size() + (SceneLimits::max_agents + 1) * (tiny.size() + 1) + 2);
  for (std::size_t i = 0; i <= SceneLimits::max_agents; ++i) {
    if (i > 0) text += ',';
    text += tiny;
  }
  text += "]}";
  EXPECT_EQ(parse_error(text), "s.json:1: agents: more than 100000 agents (SceneLimits::max_agents)");
  // One fewer is accepted (the limit itself is allowed).
  text.erase(text.size() - 2 - tiny.size() - 1, tiny.size() + 1);
  EXPECT_EQ(parse(text).agents.size(), SceneLimits::max_agents);

  std::string corners = "[0,0],[1,0]";
  for (std::size_t i = 2; i <= SceneLimits::max_polygon_corners; ++i) corners += ",[" + std::to_string(i) + ",1]";
  EXPECT_EQ(error_with_obstacle(R"({"polygon": [)" + corners + "]}"),
            "s.json:1: obstacles[0].polygon: more than 10000 corners (SceneLimits::max_polygon_corners)");
  std::string waypoints = "[0,0]";
  for (std::size_t i = 1; i <= SceneLimits::max_waypoints; ++i) waypoints += ",[0,0]";
  EXPECT_EQ(error_with_agent(R"({"start": [0, 0], "waypoints": [)" + waypoints + "]}"),
            "s.json:1: agents[0].waypoints: more than 10000 waypoints (SceneLimits::max_waypoints)");
  EXPECT_EQ(parse_error(std::string(max_scene_file_bytes + 1, ' ')),
            "s.json: larger than 67108864 bytes (io::max_scene_file_bytes)");
}

TEST(SceneFile, MapPathIsResolvedAgainstTheScenesFolder) {
  EXPECT_EQ(parse(scene_with(one_agent), "/data/scenes").map, "/data/scenes/m.map");
  EXPECT_EQ(parse(R"({"map": "/abs/m.map", "dt": 0.05, "max_steps": 1, "seed": 1, "agents": [)" + std::string(one_agent) +
                      "]}",
                  "/data/scenes")
                .map,
            "/abs/m.map");

  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "waymark_scene_test";
  std::filesystem::create_directories(dir / "maps");
  const std::filesystem::path file = dir / "crowd.json";
  {
    std::ofstream out(file);
    out << R"({"map": "maps/arena.map", "dt": 0.05, "max_steps": 1, "seed": 1, "agents": [)" << one_agent << "]}";
  }
  EXPECT_EQ(load_scene(file.string()).map, (dir / "maps/arena.map").string());
  EXPECT_EQ(test::error_text<LoadError>([&] { (void)load_scene((dir / "missing.json").string()); }).rfind(
                (dir / "missing.json").string() + ": ", 0),
            0u);
  {
    std::ofstream out(file);
    out << "{\n\"map\": 1}";
  }
  EXPECT_EQ(test::error_text<LoadError>([&] { (void)load_scene(file.string()); }),
            file.string() + ":2: map: expected a file path (a string), got 1");
  std::filesystem::remove_all(dir);
}

// ---------------------------------------------------------------- against the map

grid::GridMap arena() { return load_movingai_map(WAYMARK_DATA_DIR "/maps/arena.map"); }

SceneSpec arena_scene(const std::string& agents) {
  return parse(R"({"map": "arena.map", "dt": 0.05, "max_steps": 100, "seed": 1, "agents": [)" + agents + "]}");
}

std::string map_error(const SceneSpec& scene, const grid::GridMap& map) {
  return test::error_text<LoadError>([&] { check_scene_against_map(scene, map, "s.json"); });
}

TEST(SceneFile, ValidSceneOnArenaPasses) {
  const grid::GridMap map = arena();
  ASSERT_EQ(map.width(), 49);
  // Row 7 of arena.map: "T.......................TT......................T" (cells 24 and 25 blocked).
  ASSERT_FALSE(map.passable(24, 7));
  ASSERT_TRUE(map.passable(23, 7));
  const SceneSpec scene = arena_scene(R"(
    {"start": [5.5, 5.5], "goal": [40.5, 40.5]},
    {"start": [6.3, 5.5], "goal": [5.5, 40.5], "radius": 0.35},
    {"start": [10.5, 20.5], "waypoints": [[20.5, 20.5], [20.5, 30.5]], "loop": true, "radius": 0.9},
    {"start": [23.5, 7.5], "goal": [1.5, 5.5], "radius": 0.5})");
  EXPECT_EQ(map_error(scene, map), "");
}

TEST(SceneFile, MapCheckNamesTheAgentAndTheProblem) {
  const grid::GridMap map = arena();
  const std::string ok = R"({"start": [5.5, 5.5], "goal": [40.5, 40.5]})";
  EXPECT_EQ(map_error(arena_scene(ok + R"(, {"start": [0.5, 0.5], "goal": [40.5, 40.5]})"), map),
            "s.json: agents[1].start (0.5, 0.5) lies in blocked cell (0, 0)");
  EXPECT_EQ(map_error(arena_scene(ok + R"(, {"start": [1.3, 5.5], "goal": [40.5, 40.5]})"), map),
            "s.json: agents[1]: the start disc (radius 0.35 around (1.3, 5.5)) overlaps blocked cell (0, 5)");
  EXPECT_EQ(map_error(arena_scene(ok + R"(, {"start": [23.5, 7.5], "goal": [40.5, 40.5], "radius": 0.6})"), map),
            "s.json: agents[1]: the start disc (radius 0.6 around (23.5, 7.5)) overlaps blocked cell (24, 7)");
  EXPECT_EQ(map_error(arena_scene(ok + R"(, {"start": [60, 5], "goal": [40.5, 40.5]})"), map),
            "s.json: agents[1].start (60, 5) is outside the 49x49 map (x from 0 to 49, y from 0 to 49)");
  EXPECT_EQ(map_error(arena_scene(ok + R"(, {"start": [10.5, 10.5], "goal": [-1, 40.5]})"), map),
            "s.json: agents[1].goal (-1, 40.5) is outside the 49x49 map (x from 0 to 49, y from 0 to 49)");
  EXPECT_EQ(map_error(arena_scene(ok + R"(, {"start": [10.5, 10.5], "goal": [24.5, 7.5]})"), map),
            "s.json: agents[1].goal (24.5, 7.5) lies in blocked cell (24, 7)");
  EXPECT_EQ(map_error(arena_scene(ok + R"(, {"start": [10.5, 10.5], "waypoints": [[11.5, 11.5], [24.5, 7.5]]})"), map),
            "s.json: agents[1].waypoints[1] (24.5, 7.5) lies in blocked cell (24, 7)");
  EXPECT_EQ(map_error(arena_scene(ok + R"(, {"start": [10.5, 10.5], "goal": [40.5, 40.5]},
                                         {"start": [20.5, 20.5], "goal": [40.5, 40.5]},
                                         {"start": [5.9, 5.5], "goal": [40.5, 40.5]})"),
                      map),
            "s.json: agents[0] and agents[3]: start discs overlap (centres (5.5, 5.5) and (5.9, 5.5) lie "
            "0.4 apart, radii 0.35 + 0.35)");
  // Touching discs do not overlap.
  EXPECT_EQ(map_error(arena_scene(ok + R"(, {"start": [6.5, 5.5], "goal": [40.5, 40.5], "radius": 0.65})"), map), "");

  // The border, on a map without walls around it.
  const grid::GridMap open(10, 10);
  EXPECT_EQ(map_error(arena_scene(R"({"start": [0.2, 5], "goal": [5, 5]})"), open),
            "s.json: agents[0]: the start disc (radius 0.35 around (0.2, 5)) crosses the border of the 10x10 map "
            "(x from 0 to 10, y from 0 to 10)");
  EXPECT_EQ(map_error(arena_scene(R"({"start": [0.35, 9.65], "goal": [5, 5]})"), open), "");
}

TEST(SceneFile, MapCheckFindsOverlapsAmongManyAgents) {
  // A lattice of 40 x 40 agents one cell apart, then one more placed onto agent 1000's disc.
  grid::GridMap map(50, 50);
  std::string agents;
  for (int y = 0; y < 40; ++y) {
    for (int x = 0; x < 40; ++x) {
      if (!agents.empty()) agents += ",";
      agents += "{\"start\": [" + std::to_string(x + 2) + ".5, " + std::to_string(y + 2) + ".5], \"goal\": [1, 1]}";
    }
  }
  SceneSpec scene = arena_scene(agents);
  EXPECT_EQ(map_error(scene, map), "");
  AgentSpec extra = scene.agents[1000];
  extra.start.x += 0.69;
  scene.agents.push_back(extra);
  EXPECT_EQ(map_error(scene, map).rfind("s.json: agents[1000] and agents[1600]: start discs overlap", 0), 0u);
}

}  // namespace
}  // namespace waymark::io::scene_test
