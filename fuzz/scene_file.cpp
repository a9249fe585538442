// Fuzz target: simulation scene files (JSON), read and then checked against a map. Input: the
// scene text; or, with a NUL, a Moving AI .map before it and the scene after it. Every scene
// read keeps each value within SceneLimits and the format's rules; written back as JSON and
// read again it is the same scene; and check_scene_against_map accepts it exactly when a brute
// force over every cell and every pair of agents finds nothing wrong, naming an agent when not;
// and its events keep to the format's rules (tick order, agents and obstacles that exist by
// then, rectangles inside the map) by the same two measures.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/io/scene.hpp"

namespace {

using waymark::Vec2;
using waymark::steer::AgentSpec;
using waymark::steer::ObstacleSpec;
using waymark::steer::SceneEvent;
using waymark::steer::SceneLimits;
using waymark::steer::SceneSpec;

/// Small enough that inputs reach it; what matters is that it is checked.
constexpr std::size_t fuzz_max_cells = 4096;
constexpr int max_layer = 31;

/// The map when the input brings none: 16x12 with a wall (x = 7, y = 0..9) and a blocked corner.
waymark::grid::GridMap default_map() {
  constexpr int width = 16, height = 12, wall_x = 7, wall_end = 10;
  waymark::grid::GridMap map(width, height);
  map.set_passable(waymark::grid::CellRect{wall_x, 0, wall_x + 1, wall_end}, false);
  map.set_passable(width - 1, height - 1, false);
  return map;
}

bool coordinate_ok(double v) { return std::isfinite(v) && std::abs(v) <= SceneLimits::max_abs_coordinate; }
bool point_ok(Vec2 p) { return coordinate_ok(p.x) && coordinate_ok(p.y); }
bool layer_ok(int layer) { return layer >= 0 && layer <= max_layer; }

void check_obstacle(const ObstacleSpec& o) {
  using waymark::fuzz::finding;
  using Kind = ObstacleSpec::Kind;
  if (!layer_ok(o.layer) || !std::isfinite(o.angle)) finding();
  for (const Vec2 p : o.points) {
    if (!point_ok(p)) finding();
  }
  const std::size_t n = o.points.size();
  switch (o.kind) {
    case Kind::circle:
      if (n != 1 || !(o.radius > 0 && o.radius <= SceneLimits::max_abs_coordinate)) finding();
      break;
    case Kind::box:
      if (n != 2 || !(o.points[0].x < o.points[1].x && o.points[0].y < o.points[1].y)) finding();
      break;
    case Kind::oriented_box:
      if (n != 2 || !(o.points[1].x > 0 && o.points[1].y > 0)) finding();
      break;
    case Kind::polygon:
      if (n < 3 || n > SceneLimits::max_polygon_corners) finding();
      break;
    case Kind::segment:
      if (n != 2 || o.points[0] == o.points[1]) finding();
      break;
  }
}

/// Events in tick order; orders to agents that exist and were not removed before; removals of
/// obstacles that exist by then, once; rectangles with x0 ≤ x1, y0 ≤ y1 within the limit.
void check_events(const SceneSpec& s) {
  using waymark::fuzz::finding;
  using Kind = SceneEvent::Kind;
  if (s.events.size() > SceneLimits::max_events) finding();
  std::vector<bool> agent_removed(s.agents.size()), obstacle_removed(s.obstacles.size());
  for (std::size_t i = 0; i < s.events.size(); ++i) {
    const SceneEvent& e = s.events[i];
    if (e.tick > SceneLimits::max_steps || (i > 0 && e.tick < s.events[i - 1].tick)) finding();
    switch (e.kind) {
      case Kind::block:
      case Kind::open:
        if (e.x0 < 0 || e.y0 < 0 || e.x0 > e.x1 || e.y0 > e.y1 || e.x1 > SceneLimits::max_cell_index ||
            e.y1 > SceneLimits::max_cell_index)
          finding();
        break;
      case Kind::goal:
      case Kind::warp:
      case Kind::stop:
      case Kind::resume:
      case Kind::remove:
        if (e.index >= s.agents.size() || agent_removed[e.index]) finding();
        if ((e.kind == Kind::goal || e.kind == Kind::warp) && !point_ok(e.point)) finding();
        if (e.kind == Kind::remove) agent_removed[e.index] = true;
        break;
      case Kind::add_obstacle:
        check_obstacle(e.obstacle);
        obstacle_removed.push_back(false);
        break;
      case Kind::remove_obstacle:
        if (e.index >= obstacle_removed.size() || obstacle_removed[e.index]) finding();
        obstacle_removed[e.index] = true;
        break;
    }
  }
}

void check_values(const SceneSpec& s) {
  using waymark::fuzz::finding;
  if (s.map.empty()) finding();
  if (!(s.dt >= SceneLimits::min_dt && s.dt <= SceneLimits::max_dt)) finding();
  if (s.max_steps < 1 || s.max_steps > SceneLimits::max_steps) finding();
  if (s.agents.empty() || s.agents.size() > SceneLimits::max_agents) finding();
  for (const AgentSpec& a : s.agents) {
    if (!point_ok(a.start) || !point_ok(a.goal)) finding();
    if (!(a.radius > 0 && a.radius <= SceneLimits::max_radius)) finding();
    if (!(a.max_speed > 0 && a.max_speed <= SceneLimits::max_speed)) finding();
    if (!(a.max_force > 0 && a.max_force <= SceneLimits::max_force)) finding();
    if (!(a.mass >= SceneLimits::min_mass && a.mass <= SceneLimits::max_mass)) finding();
    if (!layer_ok(a.layer)) finding();
    if (a.waypoints.size() > SceneLimits::max_waypoints) finding();
    for (const Vec2 w : a.waypoints) {
      if (!point_ok(w)) finding();
    }
    if (!a.waypoints.empty() && !(a.goal == a.waypoints.back())) finding();
    if (a.loop && a.waypoints.empty()) finding();
    if (a.laps != 0 && !a.loop) finding();
  }
  if (s.obstacles.size() > SceneLimits::max_obstacles) finding();
  for (const ObstacleSpec& o : s.obstacles) check_obstacle(o);
  check_events(s);
}

// ---- writing a scene back, to read it again

void write_number(std::string& out, double v) {
  std::array<char, 32> buf{};
  const auto end = std::to_chars(buf.data(), buf.data() + buf.size(), v).ptr;  // shortest that reads back
  out.append(buf.data(), end);
}
void write_point(std::string& out, Vec2 p) {
  out += '[';
  write_number(out, p.x);
  out += ',';
  write_number(out, p.y);
  out += ']';
}
void write_points(std::string& out, const std::vector<Vec2>& points) {
  out += '[';
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i > 0) out += ',';
    write_point(out, points[i]);
  }
  out += ']';
}

void write_obstacle(std::string& out, const ObstacleSpec& o) {
  using Kind = ObstacleSpec::Kind;
  switch (o.kind) {
    case Kind::circle:
      out += "{\"circle\":{\"centre\":";
      write_point(out, o.points[0]);
      out += ",\"radius\":";
      write_number(out, o.radius);
      out += '}';
      break;
    case Kind::box:
      out += "{\"box\":{\"min\":";
      write_point(out, o.points[0]);
      out += ",\"max\":";
      write_point(out, o.points[1]);
      out += '}';
      break;
    case Kind::oriented_box:
      out += "{\"oriented_box\":{\"centre\":";
      write_point(out, o.points[0]);
      out += ",\"half_extents\":";
      write_point(out, o.points[1]);
      out += ",\"angle\":";
      write_number(out, o.angle);
      out += '}';
      break;
    case Kind::polygon:
      out += "{\"polygon\":";
      write_points(out, o.points);
      break;
    case Kind::segment:
      out += "{\"segment\":";
      write_points(out, o.points);
      break;
  }
  out += ",\"layer\":" + std::to_string(o.layer) + "}";
}

void write_event(std::string& out, const SceneEvent& e) {
  using Kind = SceneEvent::Kind;
  out += "{\"tick\":" + std::to_string(e.tick);
  if (e.orders_agent()) out += ",\"agent\":" + std::to_string(e.index);
  out += ",\"";
  out += waymark::steer::to_string(e.kind);
  out += "\":";
  switch (e.kind) {
    case Kind::block:
    case Kind::open:
      out += '[';
      for (const int c : {e.x0, e.y0, e.x1}) out += std::to_string(c) + ',';
      out += std::to_string(e.y1) + ']';
      break;
    case Kind::goal:
    case Kind::warp: write_point(out, e.point); break;
    case Kind::stop:
    case Kind::resume:
    case Kind::remove: out += "true"; break;
    case Kind::add_obstacle: write_obstacle(out, e.obstacle); break;
    case Kind::remove_obstacle: out += std::to_string(e.index); break;
  }
  out += '}';
}

std::string write_scene(const SceneSpec& s) {
  std::string out = "{\"map\":\"";
  for (const char c : s.map) {  // the reader refuses control bytes; any other byte is kept as read
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += "\",\"dt\":";
  write_number(out, s.dt);
  out += ",\"max_steps\":" + std::to_string(s.max_steps) + ",\"seed\":" + std::to_string(s.seed) + ",\"agents\":[";
  for (std::size_t i = 0; i < s.agents.size(); ++i) {
    const AgentSpec& a = s.agents[i];
    if (i > 0) out += ',';
    out += "{\"start\":";
    write_point(out, a.start);
    out += ",\"goal\":";  // also with waypoints: it is their last one, which the reader accepts
    write_point(out, a.goal);
    out += ",\"radius\":";
    write_number(out, a.radius);
    out += ",\"max_speed\":";
    write_number(out, a.max_speed);
    out += ",\"max_force\":";
    write_number(out, a.max_force);
    out += ",\"mass\":";
    write_number(out, a.mass);
    out += ",\"layer\":" + std::to_string(a.layer);
    if (!a.waypoints.empty()) {
      out += ",\"waypoints\":";
      write_points(out, a.waypoints);
    }
    if (a.loop) out += ",\"loop\":true,\"laps\":" + std::to_string(a.laps);
    out += '}';
  }
  out += "],\"obstacles\":[";
  for (std::size_t i = 0; i < s.obstacles.size(); ++i) {
    if (i > 0) out += ',';
    write_obstacle(out, s.obstacles[i]);
  }
  out += "],\"events\":[";
  for (std::size_t i = 0; i < s.events.size(); ++i) {
    if (i > 0) out += ',';
    write_event(out, s.events[i]);
  }
  out += "]}";
  return out;
}

bool same_agent(const AgentSpec& a, const AgentSpec& b) {
  return a.start == b.start && a.goal == b.goal && a.radius == b.radius && a.max_speed == b.max_speed &&
         a.max_force == b.max_force && a.mass == b.mass && a.layer == b.layer && a.waypoints == b.waypoints &&
         a.loop == b.loop && a.laps == b.laps;
}
bool same_obstacle(const ObstacleSpec& a, const ObstacleSpec& b) {
  return a.kind == b.kind && a.points == b.points && a.radius == b.radius && a.angle == b.angle && a.layer == b.layer;
}
bool same_event(const SceneEvent& a, const SceneEvent& b) {
  return a.tick == b.tick && a.kind == b.kind && a.index == b.index && a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 &&
         a.y1 == b.y1 && a.point == b.point && same_obstacle(a.obstacle, b.obstacle);
}
bool same_scene(const SceneSpec& a, const SceneSpec& b) {
  if (a.map != b.map || a.dt != b.dt || a.max_steps != b.max_steps || a.seed != b.seed) return false;
  if (a.agents.size() != b.agents.size() || a.obstacles.size() != b.obstacles.size()) return false;
  if (a.events.size() != b.events.size()) return false;
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    if (!same_event(a.events[i], b.events[i])) return false;
  }
  for (std::size_t i = 0; i < a.agents.size(); ++i) {
    if (!same_agent(a.agents[i], b.agents[i])) return false;
  }
  for (std::size_t i = 0; i < a.obstacles.size(); ++i) {
    if (!same_obstacle(a.obstacles[i], b.obstacles[i])) return false;
  }
  return true;
}

// ---- the map check by brute force

bool on_passable_cell(const waymark::grid::GridMap& map, Vec2 p) {
  const auto c = map.world_to_cell(p);
  return c && map.passable(c->x, c->y);
}

/// Whether the scene fits the map: every cell looked at for every disc, every pair of agents.
bool fits(const SceneSpec& s, const waymark::grid::GridMap& map) {
  const double cell = map.cell_size();
  const Vec2 lo = map.cell_center({0, 0}) - Vec2{0.5 * cell, 0.5 * cell};
  const Vec2 hi = lo + Vec2{map.width() * cell, map.height() * cell};
  for (const AgentSpec& a : s.agents) {
    if (!on_passable_cell(map, a.start) || !on_passable_cell(map, a.goal)) return false;
    for (const Vec2 w : a.waypoints) {
      if (!on_passable_cell(map, w)) return false;
    }
    const double r = a.radius;
    if (a.start.x - r < lo.x || a.start.x + r > hi.x || a.start.y - r < lo.y || a.start.y + r > hi.y) return false;
    for (int y = 0; y < map.height(); ++y) {
      for (int x = 0; x < map.width(); ++x) {
        if (map.passable(x, y)) continue;
        const double x0 = lo.x + x * cell, y0 = lo.y + y * cell;
        const double dx = std::max({x0 - a.start.x, 0.0, a.start.x - (x0 + cell)});
        const double dy = std::max({y0 - a.start.y, 0.0, a.start.y - (y0 + cell)});
        if (dx * dx + dy * dy < r * r) return false;
      }
    }
  }
  for (std::size_t i = 0; i < s.agents.size(); ++i) {
    for (std::size_t j = i + 1; j < s.agents.size(); ++j) {
      const Vec2 d = s.agents[j].start - s.agents[i].start;
      const double reach = s.agents[i].radius + s.agents[j].radius;
      if (d.x * d.x + d.y * d.y < reach * reach) return false;
    }
  }
  return true;
}

/// The signed distance from `p` to an obstacle (negative inside, 0 on its boundary), written
/// from the shapes' definitions, apart from the ObstacleWorld the reader checks with.
double signed_distance(const ObstacleSpec& o, Vec2 p) {
  const auto box = [](Vec2 q, Vec2 lo, Vec2 hi) {
    const double dx = std::max(lo.x - q.x, q.x - hi.x), dy = std::max(lo.y - q.y, q.y - hi.y);
    if (dx <= 0 && dy <= 0) return std::max(dx, dy);
    return std::hypot(std::max(dx, 0.0), std::max(dy, 0.0));
  };
  switch (o.kind) {
    case ObstacleSpec::Kind::circle: return std::hypot(p.x - o.points[0].x, p.y - o.points[0].y) - o.radius;
    case ObstacleSpec::Kind::box: return box(p, o.points[0], o.points[1]);
    case ObstacleSpec::Kind::oriented_box: {
      const Vec2 d = p - o.points[0];
      const double c = std::cos(o.angle), sn = std::sin(o.angle);
      const Vec2 local{d.x * c + d.y * sn, -d.x * sn + d.y * c};
      return box(local, -o.points[1], o.points[1]);
    }
    case ObstacleSpec::Kind::segment: return waymark::Segment2{o.points[0], o.points[1]}.distance_to(p);
    case ObstacleSpec::Kind::polygon: {
      double edge = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < o.points.size(); ++i)
        edge = std::min(edge, waymark::Segment2{o.points[i], o.points[(i + 1) % o.points.size()]}.distance_to(p));
      return waymark::polygon_contains(o.points, p) ? -edge : edge;
    }
  }
  return 0;
}

/// What the obstacles say of the scene: refused when a start disc overlaps one or a goal or
/// waypoint lies in one; nullopt when a distance is too close to its limit for two
/// computations to be sure to agree.
std::optional<bool> fits_obstacles(const SceneSpec& s) {
  bool fits = true;
  bool sure = true;
  const auto judge = [&](double d, double limit) {  // refused when d < limit
    const double slack = 1e-9 * (1 + std::abs(limit) + std::abs(d));
    if (std::abs(d - limit) <= slack) sure = false;
    else if (d < limit) fits = false;
  };
  for (const AgentSpec& a : s.agents) {
    for (const ObstacleSpec& o : s.obstacles) {
      judge(signed_distance(o, a.start), a.radius);
      judge(signed_distance(o, a.goal), 0);
      for (const Vec2 w : a.waypoints) judge(signed_distance(o, w), 0);
    }
  }
  if (!fits) return false;  // a sure refusal stands whatever else was unsure
  if (!sure) return std::nullopt;
  return true;
}

/// Whether the events fit the map: rectangles inside it, goal and warp points on cells
/// passable on the map as loaded and outside every obstacle there is at their tick (the
/// scene's and those added before, less those removed), orders to agents of the scene,
/// obstacles to remove that exist; nullopt when a point lies too near an obstacle's boundary
/// for two computations to be sure to agree (the events before it fitting).
std::optional<bool> events_fit(const SceneSpec& s, const waymark::grid::GridMap& map) {
  using Kind = SceneEvent::Kind;
  std::size_t obstacles = s.obstacles.size();
  std::vector<const ObstacleSpec*> there;  // by obstacle index; null once removed
  for (const ObstacleSpec& o : s.obstacles) there.push_back(&o);
  for (const SceneEvent& e : s.events) {
    if (e.orders_agent() && e.index >= s.agents.size()) return false;
    switch (e.kind) {
      case Kind::block:
      case Kind::open:
        for (const int x : {e.x0, e.x1}) {
          if (x < 0 || x >= map.width()) return false;
        }
        for (const int y : {e.y0, e.y1}) {
          if (y < 0 || y >= map.height()) return false;
        }
        if (e.x0 > e.x1 || e.y0 > e.y1) return false;
        break;
      case Kind::goal:
      case Kind::warp:
        if (!on_passable_cell(map, e.point)) return false;
        for (const ObstacleSpec* o : there) {  // refused inside or on the boundary
          if (o == nullptr) continue;
          const double d = signed_distance(*o, e.point);
          if (std::abs(d) <= 1e-9 * (1 + std::abs(d))) return std::nullopt;
          if (d < 0) return false;
        }
        break;
      case Kind::add_obstacle:
        ++obstacles;
        there.push_back(&e.obstacle);
        break;
      case Kind::remove_obstacle:
        if (e.index >= obstacles) return false;
        there[e.index] = nullptr;
        break;
      case Kind::stop:
      case Kind::resume:
      case Kind::remove: break;
    }
  }
  return true;
}

void check_against_map(const SceneSpec& s, const waymark::grid::GridMap& map) {
  bool accepted = true;
  std::string reason;
  try {
    waymark::io::check_scene_against_map(s, map, "fuzz.json");
  } catch (const waymark::LoadError& e) {
    accepted = false;
    reason = e.reason();
    if (e.line() != 0 || (e.reason().rfind("agents[", 0) != 0 && e.reason().rfind("events[", 0) != 0))
      waymark::fuzz::finding();
  }
  // The order of the checks: agents on the map, agents against obstacles, then events.
  const bool on_map = fits(s, map);
  if (!on_map) {
    if (accepted) waymark::fuzz::finding();
    return;
  }
  const bool about_events = reason.rfind("events[", 0) == 0;
  const std::optional<bool> clear = fits_obstacles(s);
  if (!clear) {
    if (!accepted && !about_events && reason.find("obstacle") == std::string::npos) waymark::fuzz::finding();
    return;
  }
  if (!*clear) {
    if (accepted || about_events || reason.find("obstacle") == std::string::npos) waymark::fuzz::finding();
    return;
  }
  const std::optional<bool> events_ok = events_fit(s, map);
  if (!events_ok) {  // unsure of one point: either answer, but a refusal names the events
    if (!accepted && !about_events) waymark::fuzz::finding();
    return;
  }
  if (accepted != *events_ok || (!accepted && !about_events)) waymark::fuzz::finding();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  const std::string_view input = fuzz::text_of(data, size);
  const bool with_map = input.find('\0') != std::string_view::npos;
  const auto [map_text, scene_text] = fuzz::two_files(input);
  const std::string& text = with_map ? scene_text : map_text;
  grid::GridMap map = default_map();
  if (with_map) {
    try {
      std::istringstream in(map_text);
      map = io::parse_movingai_map(in, "fuzz.map", {.max_cells = fuzz_max_cells});
    } catch (const LoadError&) {
      return 0;
    }
  }
  SceneSpec scene;
  try {
    scene = io::parse_scene(text, "fuzz.json", {});
  } catch (const LoadError& e) {
    const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    if (e.file() != "fuzz.json" || e.reason().empty() || e.line() > lines) fuzz::finding();
    return 0;
  }
  check_values(scene);
  const std::string written = write_scene(scene);
  try {
    if (!same_scene(io::parse_scene(written, "fuzz-again.json", {}), scene)) fuzz::finding();
  } catch (const LoadError&) {
    fuzz::finding();  // what the reader returned must read again
  }
  check_against_map(scene, map);
  return 0;
}
