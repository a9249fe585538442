// Scene files (docs/steering.md "Scene files"): the schema. The io module's JSON reader
// (json_reader.hpp) reads the text into a document, refusing repeated keys and deep nesting as
// it reads; a walk over the schema then turns the document into a SceneSpec, naming each value
// by its JSON path at its line. The check of a scene against its map is in scene_map_check.cpp.
#include "waymark/io/scene.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json_reader.hpp"
#include "scene_text.hpp"
#include "waymark/core/binary_io.hpp"
#include "waymark/core/text.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::io {
namespace {

using JsonKind = json::Kind;
using json::Steps;
using json::Value;
using scene_text::count_text;
using scene_text::spell;
using steer::AgentSpec;
using steer::ObstacleSpec;
using steer::SceneEvent;
using steer::SceneLimits;
using steer::SceneSpec;

/// Deepest nesting of arrays and objects accepted: a scene needs six (the scene, its events, an
/// event, its obstacle, a polygon, a point).
constexpr std::size_t max_nesting = 16;
/// Longest map path accepted, bytes.
constexpr std::size_t max_map_path_bytes = 4096;

// --------------------------------------------------------------------------- the schema

/// A JSON path during the schema walk: a chain through the callers' frames, turned into Steps
/// only for a message.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;
  std::size_t index = 0;
  bool is_index = false;

  [[nodiscard]] Path operator/(std::string_view k) const { return {this, k, 0, false}; }
  [[nodiscard]] Path operator[](std::size_t i) const { return {this, {}, i, true}; }
  [[nodiscard]] Steps steps() const {
    Steps out;
    for (const Path* p = this; p->parent != nullptr; p = p->parent) out.push_back({std::string(p->key), p->index, p->is_index});
    std::reverse(out.begin(), out.end());
    return out;
  }
};

class SceneReader {
 public:
  explicit SceneReader(const json::Document& doc) : doc_(doc) {}

  SceneSpec scene(const std::filesystem::path& base_dir) const {
    const Path root;
    const Value top = object(doc_.root(), root, "a JSON object (the scene)");
    allow(top, root, {"map", "dt", "max_steps", "seed", "agents", "obstacles", "events"});
    SceneSpec s;
    const Path map = root / "map", dt = root / "dt", max_steps = root / "max_steps", seed = root / "seed";
    s.map = map_path(required(top, "map", root), map, base_dir);
    s.dt = number_in(required(top, "dt", root), dt, SceneLimits::min_dt, false, SceneLimits::max_dt);
    s.max_steps = integer(required(top, "max_steps", root), max_steps, 1, SceneLimits::max_steps);
    s.seed = integer(required(top, "seed", root), seed, 0, std::numeric_limits<std::uint64_t>::max());

    const Path agents = root / "agents";
    const Value agent_list = array(required(top, "agents", root), agents, "a list of agents");
    if (agent_list.size() == 0) fail(agents, "must hold at least one agent");
    if (agent_list.size() > SceneLimits::max_agents)
      fail(agents, "more than " + count_text(SceneLimits::max_agents, "agents (SceneLimits::max_agents)"));
    s.agents.reserve(agent_list.size());
    std::size_t i = 0;
    for (const Value a : agent_list.items()) {
      const Path at = agents[i++];
      s.agents.push_back(agent(a, at));
    }

    if (const auto list = optional(top, "obstacles")) {
      const Path obstacles = root / "obstacles";
      const Value obstacle_list = array(*list, obstacles, "a list of obstacles");
      if (obstacle_list.size() > SceneLimits::max_obstacles)
        fail(obstacles, "more than " + count_text(SceneLimits::max_obstacles, "obstacles (SceneLimits::max_obstacles)"));
      s.obstacles.reserve(obstacle_list.size());
      std::size_t k = 0;
      for (const Value o : obstacle_list.items()) {
        const Path at = obstacles[k++];
        s.obstacles.push_back(obstacle(o, at));
      }
    }
    if (const auto list = optional(top, "events")) events(*list, root / "events", s);
    return s;
  }

 private:
  /// The event list, after the agents and obstacles it refers to.
  void events(const Value& j, const Path& at, SceneSpec& s) const {
    const Value list = array(j, at, "a list of events");
    if (list.size() > SceneLimits::max_events)
      fail(at, "more than " + count_text(SceneLimits::max_events, "events (SceneLimits::max_events)"));
    s.events.reserve(list.size());
    constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
    std::vector<std::size_t> agent_removed_by(s.agents.size(), none);        // the event that removed it
    std::vector<std::size_t> obstacle_removed_by(s.obstacles.size(), none);  // grows with add_obstacle
    std::size_t i = 0;
    for (const Value v : list.items()) {
      const Path e_at = at[i];
      const Path tick = e_at / "tick";
      SceneEvent e = event(v, e_at, s.agents.size());
      if (!s.events.empty() && e.tick < s.events.back().tick)
        fail(tick, number_text(e.tick) + " comes before the tick " + number_text(s.events.back().tick) + " of events[" +
                       number_text(i - 1) + "] (list the events in tick order)");
      const Path agent = e_at / "agent", action = e_at / steer::to_string(e.kind);
      if (e.orders_agent()) {
        if (agent_removed_by[e.index] != none)
          fail(agent, "agent " + number_text(e.index) + " was removed by events[" +
                          number_text(agent_removed_by[e.index]) + "]");
        if (e.kind == SceneEvent::Kind::remove) agent_removed_by[e.index] = i;
      } else if (e.kind == SceneEvent::Kind::add_obstacle) {
        obstacle_removed_by.push_back(none);
      } else if (e.kind == SceneEvent::Kind::remove_obstacle) {
        const std::size_t count = obstacle_removed_by.size();
        if (count == 0) fail(action, "there is no obstacle to remove (the scene has none and no earlier event adds one)");
        if (e.index >= count)
          fail(action, "must be an integer from 0 to " + number_text(count - 1) + " (the scene's " +
                           count_text(s.obstacles.size(), "obstacles") + ", then the " +
                           number_text(count - s.obstacles.size()) + " added by earlier events), got " +
                           number_text(e.index));
        if (obstacle_removed_by[e.index] != none)
          fail(action, "obstacle " + number_text(e.index) + " was removed by events[" +
                           number_text(obstacle_removed_by[e.index]) + "]");
        obstacle_removed_by[e.index] = i;
      }
      s.events.push_back(std::move(e));
      ++i;
    }
  }

  /// One event: its tick, exactly one action, and the agent when the action is an order.
  SceneEvent event(const Value& j, const Path& at, std::size_t agents) const {
    using Kind = SceneEvent::Kind;
    const Value o = object(j, at, "an event object");
    allow(o, at, {"tick", "agent", "block", "open", "goal", "warp", "stop", "resume", "remove", "add_obstacle", "remove_obstacle"});
    SceneEvent e;
    const Path tick = at / "tick";
    e.tick = integer(required(o, "tick", at), tick, 0, SceneLimits::max_steps);
    std::optional<Value> action;
    for (const auto& [kind, key] : steer::scene_event_kinds) {
      const std::optional<Value> a = optional(o, key);
      if (!a) continue;
      if (action)
        fail(at, "holds two actions, " + std::string(steer::to_string(e.kind)) + " and " + std::string(key) +
                     " (one action per event)");
      action = a;
      e.kind = kind;
    }
    if (!action)
      fail(at, "expected one action: block, open, goal, warp, stop, resume, remove, add_obstacle or remove_obstacle");
    const Path ap = at / steer::to_string(e.kind), agent = at / "agent";
    if (e.orders_agent()) {
      const std::uint64_t a =
          integer(required(o, "agent", at), agent, 0, std::numeric_limits<std::uint64_t>::max());
      if (a >= agents)
        fail(agent, "there is no agent " + number_text(a) + " (the scene's " + count_text(agents, "agents") +
                        " are numbered from 0 in the order listed)");
      e.index = static_cast<std::size_t>(a);
    } else if (optional(o, "agent")) {
      fail(agent, "not used by " + std::string(steer::to_string(e.kind)) +
                      " (only goal, warp, stop, resume and remove name an agent)");
    }
    switch (e.kind) {
      case Kind::block:
      case Kind::open: cells(*action, ap, e); break;
      case Kind::goal:
      case Kind::warp: e.point = point(*action, ap); break;
      case Kind::stop:
      case Kind::resume:
      case Kind::remove:
        if (action->kind() != JsonKind::boolean) fail(ap, "expected true, got " + got(*action));
        if (!action->boolean()) fail(ap, "must be true (leave the event out instead)");
        break;
      case Kind::add_obstacle: e.obstacle = obstacle(*action, ap); break;
      case Kind::remove_obstacle:
        e.index = static_cast<std::size_t>(integer(*action, ap, 0, SceneLimits::max_obstacles + SceneLimits::max_events));
        break;
    }
    return e;
  }

  /// A cell rectangle [x0, y0, x1, y1], inclusive.
  void cells(const Value& j, const Path& at, SceneEvent& e) const {
    if (j.kind() != JsonKind::array || j.size() != 4)
      fail(at, "expected cells [x0, y0, x1, y1], got " +
                   (j.kind() == JsonKind::array ? "a list of " + count_text(j.size(), "values") : got(j)));
    std::array<int, 4> c{};
    std::size_t k = 0;
    for (const Value v : j.items()) {
      const Path p = at[k];
      c[k++] = static_cast<int>(integer(v, p, 0, static_cast<std::uint64_t>(SceneLimits::max_cell_index)));
    }
    if (c[2] < c[0]) fail(at, "x1 = " + number_text(c[2]) + " must be ≥ x0 = " + number_text(c[0]));
    if (c[3] < c[1]) fail(at, "y1 = " + number_text(c[3]) + " must be ≥ y0 = " + number_text(c[1]));
    e.x0 = c[0];
    e.y0 = c[1];
    e.x1 = c[2];
    e.y1 = c[3];
  }

  AgentSpec agent(const Value& j, const Path& at) const {
    const Value o = object(j, at, "an agent object");
    allow(o, at, {"start", "goal", "radius", "max_speed", "max_force", "mass", "layer", "waypoints", "loop", "laps"});
    AgentSpec a;
    const Path start = at / "start", goal = at / "goal", waypoints = at / "waypoints", loop = at / "loop",
               laps = at / "laps";
    a.start = point(required(o, "start", at), start);
    if (const auto w = optional(o, "waypoints")) {
      a.waypoints = points(*w, waypoints, 1, SceneLimits::max_waypoints, "waypoints (SceneLimits::max_waypoints)");
    }
    if (const auto l = optional(o, "loop")) {
      if (l->kind() != JsonKind::boolean) fail(loop, "expected true or false, got " + got(*l));
      a.loop = l->boolean();
      if (a.loop && a.waypoints.empty()) fail(loop, "true needs waypoints to circle");
    }
    if (const auto n = optional(o, "laps")) {
      a.laps = integer(*n, laps, 0, std::numeric_limits<std::uint64_t>::max());
      if (!a.loop) fail(laps, "needs \"loop\": true (the rounds of the waypoints before stopping)");
    }
    if (const auto g = optional(o, "goal")) {
      a.goal = point(*g, goal);
      if (!a.waypoints.empty() && !(a.goal == a.waypoints.back()))
        fail(goal, spell(a.goal) + " differs from the last waypoint " + spell(a.waypoints.back()) +
                       ": with waypoints the goal is the last waypoint (leave \"goal\" out)");
    } else if (a.waypoints.empty()) {
      fail(at, "missing key \"goal\" (required unless \"waypoints\" are given)");
    } else {
      a.goal = a.waypoints.back();
    }
    const Path radius = at / "radius", max_speed = at / "max_speed", max_force = at / "max_force", mass = at / "mass",
               layer = at / "layer";
    if (const auto v = optional(o, "radius")) a.radius = number_in(*v, radius, 0, true, SceneLimits::max_radius);
    if (const auto v = optional(o, "max_speed")) a.max_speed = number_in(*v, max_speed, 0, true, SceneLimits::max_speed);
    if (const auto v = optional(o, "max_force")) a.max_force = number_in(*v, max_force, 0, true, SceneLimits::max_force);
    if (const auto v = optional(o, "mass"))
      a.mass = number_in(*v, mass, SceneLimits::min_mass, false, SceneLimits::max_mass);
    if (const auto v = optional(o, "layer")) a.layer = layer_of(*v, layer);
    return a;
  }

  ObstacleSpec obstacle(const Value& j, const Path& at) const {
    using Kind = ObstacleSpec::Kind;
    const Value o = object(j, at, "an obstacle object");
    allow(o, at, {"circle", "box", "oriented_box", "polygon", "segment", "layer"});
    static constexpr std::array<std::pair<std::string_view, Kind>, 5> shapes{{{"circle", Kind::circle},
                                                                              {"box", Kind::box},
                                                                              {"oriented_box", Kind::oriented_box},
                                                                              {"polygon", Kind::polygon},
                                                                              {"segment", Kind::segment}}};
    std::optional<Value> shape;
    std::string_view name;
    ObstacleSpec ob;
    for (const auto& [n, kind] : shapes) {
      const std::optional<Value> s = optional(o, n);
      if (!s) continue;
      if (shape)
        fail(at, "holds two shapes, " + std::string(name) + " and " + std::string(n) + " (one shape per obstacle)");
      shape = s;
      name = n;
      ob.kind = kind;
    }
    if (!shape) fail(at, "expected one shape: circle, box, oriented_box, polygon or segment");
    const Path sp = at / name;
    switch (ob.kind) {
      case Kind::circle: {
        const Value c = object(*shape, sp, "a circle {\"centre\": [x, y], \"radius\": r}");
        allow(c, sp, {"centre", "radius"});
        const Path centre = sp / "centre", radius = sp / "radius";
        ob.points = {point(required(c, "centre", sp), centre)};
        ob.radius = number_in(required(c, "radius", sp), radius, 0, true, SceneLimits::max_abs_coordinate);
        break;
      }
      case Kind::box: {
        const Value b = object(*shape, sp, "a box {\"min\": [x, y], \"max\": [x, y]}");
        allow(b, sp, {"min", "max"});
        const Path min = sp / "min", max = sp / "max";
        const Vec2 lo = point(required(b, "min", sp), min);
        const Vec2 hi = point(required(b, "max", sp), max);
        if (!(lo.x < hi.x && lo.y < hi.y))
          fail(sp, "min " + spell(lo) + " must lie below max " + spell(hi) + " on both axes");
        ob.points = {lo, hi};
        break;
      }
      case Kind::oriented_box: {
        const Value b = object(*shape, sp, "an oriented box {\"centre\": [x, y], \"half_extents\": [x, y], \"angle\": a}");
        allow(b, sp, {"centre", "half_extents", "angle"});
        const Path centre = sp / "centre", half = sp / "half_extents", angle = sp / "angle";
        const Vec2 c = point(required(b, "centre", sp), centre);
        const Vec2 h = point(required(b, "half_extents", sp), half);
        if (!(h.x > 0 && h.y > 0)) fail(half, "must both be > 0, got " + spell(h));
        ob.points = {c, h};
        if (const auto a = optional(b, "angle"))
          ob.angle = number_in(*a, angle, -SceneLimits::max_abs_coordinate, false, SceneLimits::max_abs_coordinate);
        break;
      }
      case Kind::polygon: {
        ob.points = points(*shape, sp, 3, SceneLimits::max_polygon_corners, "corners (SceneLimits::max_polygon_corners)");
        double twice_area = 0;
        for (std::size_t i = 0; i < ob.points.size(); ++i) {
          const Vec2 p = ob.points[i], q = ob.points[(i + 1) % ob.points.size()];
          twice_area += p.x * q.y - q.x * p.y;
        }
        if (twice_area == 0) fail(sp, "has no area (its corners lie on one line)");
        break;
      }
      case Kind::segment: {
        ob.points = points(*shape, sp, 2, 2, "points (a segment has two)");
        if (ob.points[0] == ob.points[1]) fail(sp, "has no length (both ends at " + spell(ob.points[0]) + ")");
        break;
      }
    }
    const Path layer = at / "layer";
    if (const auto v = optional(o, "layer")) ob.layer = layer_of(*v, layer);
    return ob;
  }

  std::string map_path(const Value& j, const Path& at, const std::filesystem::path& base_dir) const {
    if (j.kind() != JsonKind::string) fail(at, "expected a file path (a string), got " + got(j));
    const std::string& s = j.text();
    if (s.empty()) fail(at, "must not be empty");
    if (s.size() > max_map_path_bytes) fail(at, "longer than " + count_text(max_map_path_bytes, "bytes"));
    if (std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
      fail(at, "must not hold control characters, got " + waymark::quoted(s));
    const std::filesystem::path p(s);
    if (base_dir.empty() || p.is_absolute()) return s;
    return (base_dir / p).string();
  }

  // ---- values

  double finite(const Value& j, const Path& at) const {
    if (!j.is_number()) fail(at, "expected a number, got " + got(j));
    const double v = j.number();
    if (!std::isfinite(v)) fail(at, "must be a finite number, got " + got(j));
    return v;
  }

  /// A finite number in (lo, hi] (`open`) or [lo, hi].
  double number_in(const Value& j, const Path& at, double lo, bool open, double hi) const {
    const double v = finite(j, at);
    if (!(open ? v > lo : v >= lo) || !(v <= hi))
      fail(at, "must be a finite number " + std::string(open ? "> " : "≥ ") + spell(lo) + " and ≤ " + spell(hi) +
                   ", got " + got(j));
    return v;
  }

  double coordinate(const Value& j, const Path& at) const {
    const double v = finite(j, at);
    if (!(std::abs(v) <= SceneLimits::max_abs_coordinate))
      fail(at, "must lie within ±" + spell(SceneLimits::max_abs_coordinate) + " (SceneLimits::max_abs_coordinate), got " +
                   got(j));
    return v;
  }

  /// An integer in [lo, hi], written as one (digits only).
  std::uint64_t integer(const Value& j, const Path& at, std::uint64_t lo, std::uint64_t hi) const {
    const auto out_of_range = [&] {
      fail(at, "must be an integer from " + number_text(lo) + " to " + number_text(hi) + ", got " + got(j));
    };
    std::uint64_t v = 0;
    if (j.kind() == JsonKind::unsigned_integer) {  // -0 too
      v = j.magnitude();
    } else if (j.kind() == JsonKind::negative_integer) {
      out_of_range();
    } else if (j.kind() == JsonKind::real) {
      const std::string written = got(j);
      if (written.find_first_of(".eE") == std::string::npos) out_of_range();  // digits beyond 2^64 − 1
      fail(at, "must be an integer (digits only, no fraction or exponent), got " + written);
    } else {
      fail(at, "expected an integer, got " + got(j));
    }
    if (v < lo || v > hi) out_of_range();
    return v;
  }

  int layer_of(const Value& j, const Path& at) const {
    return static_cast<int>(integer(j, at, 0, steer::layer_count - 1));
  }

  Vec2 point(const Value& j, const Path& at) const {
    if (j.kind() != JsonKind::array) fail(at, "expected a point [x, y], got " + got(j));
    if (j.size() != 2) fail(at, "expected a point [x, y], got a list of " + count_text(j.size(), "values"));
    auto it = j.items().begin();
    const Value first = *it, second = *++it;
    const Path x = at[0], y = at[1];
    return {coordinate(first, x), coordinate(second, y)};
  }

  /// A list of min to max points; `noun` names them when there are too many.
  std::vector<Vec2> points(const Value& j, const Path& at, std::size_t min, std::size_t max, const char* noun) const {
    const Value a = array(j, at, "a list of points [[x, y], ...]");
    if (a.size() < min)
      fail(at, "must hold at least " + count_text(min, min == 1 ? "point" : "points") + ", got " + number_text(a.size()));
    if (a.size() > max) fail(at, "more than " + count_text(max, noun));
    std::vector<Vec2> out;
    out.reserve(a.size());
    std::size_t i = 0;
    for (const Value v : a.items()) {
      const Path p = at[i++];
      out.push_back(point(v, p));
    }
    return out;
  }

  // ---- containers

  Value object(const Value& j, const Path& at, const char* what) const {
    if (j.kind() != JsonKind::object) fail(at, std::string("expected ") + what + ", got " + got(j));
    return j;
  }
  Value array(const Value& j, const Path& at, const char* what) const {
    if (j.kind() != JsonKind::array) fail(at, std::string("expected ") + what + ", got " + got(j));
    return j;
  }
  static std::optional<Value> optional(const Value& o, std::string_view key) {
    const auto m = o.find(key);
    if (!m) return std::nullopt;
    return m->value;
  }
  Value required(const Value& o, std::string_view key, const Path& at) const {
    const std::optional<Value> v = optional(o, key);
    if (!v) fail(at, "missing key \"" + std::string(key) + "\"");
    return *v;
  }
  /// Refuses any key but `keys` (a typo must not pass as an unknown option left at its default).
  void allow(const Value& o, const Path& at, std::initializer_list<std::string_view> keys) const {
    for (const Value::Member member : o.members()) {
      if (std::find(keys.begin(), keys.end(), member.key) != keys.end()) continue;
      std::string expected;
      std::size_t i = 0;
      for (const std::string_view k : keys) {
        if (i > 0) expected += (i + 1 == keys.size()) ? " or " : ", ";
        expected += k;
        ++i;
      }
      const Path key = at / member.key;
      fail(at, "unknown key " + waymark::quoted(std::string(member.key)) + " (expected " + expected + ")", &key);
    }
  }

  // ---- messages

  /// Throws LoadError naming `at`, at the line of `line_at` (default: `at`).
  [[noreturn]] void fail(const Path& at, const std::string& reason, const Path* line_at = nullptr) const {
    if (line_at == nullptr) doc_.fail(at.steps(), reason);
    const Steps line_steps = line_at->steps();
    doc_.fail(at.steps(), reason, &line_steps);
  }

  /// A value as a message shows it: numbers as written in the text.
  static std::string got(const Value& j) { return j.describe(); }

  const json::Document& doc_;
};

}  // namespace

steer::SceneSpec parse_scene(std::string_view text, const std::string& source, const std::filesystem::path& base_dir) {
  if (text.size() > max_scene_file_bytes)
    throw LoadError(source, 0, "larger than " + count_text(max_scene_file_bytes, "bytes (io::max_scene_file_bytes)"));
  json::Limits limits;
  limits.max_bytes = max_scene_file_bytes;
  limits.max_depth = max_nesting;
  const json::Document doc(text, source, limits);
  return SceneReader(doc).scene(base_dir);
}

steer::SceneSpec load_scene(const std::string& path) {
  std::ifstream in = open_input_file(path);
  const std::string text = json::read_text(in, path, max_scene_file_bytes, "io::max_scene_file_bytes");
  return parse_scene(text, path, std::filesystem::path(path).parent_path());
}

}  // namespace waymark::io
