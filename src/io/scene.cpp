// Scene files (docs/steering.md "Scene files"). nlohmann-json's SAX parser reads the text into
// a document through a builder that refuses repeated keys and deep nesting as it reads. A walk
// over the schema then turns the document into a SceneSpec, naming each value by its JSON path.
// Lines are looked up only for messages: a scan of the text along the path of the value at fault.
#include "waymark/io/scene.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "waymark/core/binary_io.hpp"
#include "waymark/core/text.hpp"
#include "waymark/steer/obstacle_world.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::io {
namespace {

using Json = nlohmann::json;
using steer::AgentSpec;
using steer::ObstacleSpec;
using steer::SceneLimits;
using steer::SceneSpec;

/// Deepest nesting of arrays and objects accepted: a scene needs five (the scene, its agents,
/// an agent, its waypoints, a point).
constexpr std::size_t max_nesting = 16;
/// Longest map path accepted, bytes.
constexpr std::size_t max_map_path_bytes = 4096;
/// Longest piece of the text echoed in a message (a number as written), characters.
constexpr std::size_t max_echo = 40;
/// Longest message taken over from the JSON parser, characters.
constexpr std::size_t max_parser_message = 200;

// ------------------------------------------------------------------------------ numbers

std::string spell(double v) {
  constexpr double exact_integers = 1e15;
  if (v == std::floor(v) && std::abs(v) < exact_integers) return std::to_string(static_cast<long long>(v));
  std::ostringstream out;
  out.precision(15);
  out << v;
  return out.str();
}

std::string spell(Vec2 p) {
  std::string s = spell(p.x);  // built up front: GCC 12 misreads "(" + spell(...) (-Wrestrict)
  s.insert(s.begin(), '(');
  s += ", ";
  s += spell(p.y);
  s += ')';
  return s;
}

std::string count_text(std::size_t n, const char* noun) { return std::to_string(n) + " " + noun; }

// ------------------------------------------------------------------------- paths and lines

/// One step of a JSON path: a key of an object or an index of an array.
struct Step {
  std::string key;
  std::size_t index = 0;
  bool is_index = false;
};
using Steps = std::vector<Step>;

bool is_identifier(std::string_view s) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (s.empty() || !letter(s[0])) return false;
  return std::all_of(s.begin(), s.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

/// "agents[3].radius"; "" for the whole scene. Other keys (long ones too) as ['key'], elided.
std::string path_text(const Steps& steps) {
  std::string out;
  for (const Step& s : steps) {
    if (s.is_index) {
      out += '[';
      out += std::to_string(s.index);
      out += ']';
    } else if (is_identifier(s.key) && s.key.size() <= max_echo) {
      if (!out.empty()) out += '.';
      out += s.key;
    } else {
      out += '[';
      out += waymark::quoted(s.key);
      out += ']';
    }
  }
  return out;
}

/// A byte of a number or a bare word (true, NaN) as written.
bool token_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' ||
         c == '.';
}

/// The bare token (a number as written) starting at `at`, shortened for a message.
std::string token_at(std::string_view text, std::size_t at) {
  std::size_t end = at;
  while (end < text.size() && token_char(text[end])) ++end;
  const std::string_view token = text.substr(at, end - at);
  return token.size() <= max_echo ? std::string(token) : std::string(token.substr(0, max_echo)) + "...";
}

constexpr std::size_t npos = std::string_view::npos;

/// The line of a byte offset (from 1); 0 for npos (the whole file).
std::size_t line_of(std::string_view text, std::size_t offset) {
  if (offset == npos) return 0;
  const auto end = text.begin() + static_cast<std::ptrdiff_t>(std::min(offset, text.size()));
  return 1 + static_cast<std::size_t>(std::count(text.begin(), end, '\n'));
}

/// Finds where a value named by its path lies in a document's text. The text is one nlohmann
/// accepted, or the valid beginning of one (refusals while parsing); whatever it holds, the scan
/// stays inside it and ends (every step moves forward).
class TextScan {
 public:
  explicit TextScan(std::string_view text) : t_(text) {}

  /// The offset of the value `steps` names, or of its key when `member` is set and the last
  /// step is a key; `occurrence` picks a repeated last key (2: the second). Where the path
  /// cannot be followed (a key written with escapes), the offset of the deepest value reached;
  /// npos for the empty path (the whole file).
  std::size_t find(const Steps& steps, bool member, int occurrence = 1) {
    if (steps.empty()) return npos;
    p_ = 0;
    static constexpr std::string_view bom = "\xef\xbb\xbf";
    if (t_.substr(0, bom.size()) == bom) p_ = bom.size();
    space();
    std::size_t reached = p_;
    for (std::size_t k = 0; k < steps.size(); ++k) {
      const bool last = k + 1 == steps.size();
      const Step& s = steps[k];
      const std::optional<std::size_t> at = s.is_index ? element(s.index) : member_of(s.key, last ? occurrence : 1);
      if (!at) return reached;
      if (last && member) return *at;
      reached = p_;
    }
    return reached;
  }

 private:
  void space() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r')) ++p_;
  }
  bool at(char c) {
    space();
    return p_ < t_.size() && t_[p_] == c;
  }
  /// At '"': past the closing quote.
  bool skip_string() {
    ++p_;
    while (p_ < t_.size()) {
      const char c = t_[p_++];
      if (c == '\\') {
        ++p_;
      } else if (c == '"') {
        return true;
      }
    }
    return false;
  }
  bool skip_value() {
    space();
    if (p_ >= t_.size()) return false;
    if (t_[p_] == '"') return skip_string();
    if (t_[p_] == '{' || t_[p_] == '[') {
      std::size_t depth = 0;
      while (p_ < t_.size()) {
        const char c = t_[p_];
        if (c == '"') {
          if (!skip_string()) return false;
          continue;
        }
        ++p_;
        if (c == '{' || c == '[') {
          ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
          return true;
        }
      }
      return false;
    }
    const std::size_t start = p_;
    while (p_ < t_.size() && token_char(t_[p_])) ++p_;
    return p_ > start;
  }
  /// In an array: leaves p_ at element `index` and returns its offset.
  std::optional<std::size_t> element(std::size_t index) {
    if (!at('[')) return std::nullopt;
    ++p_;
    for (std::size_t i = 0; i < index; ++i) {
      if (!skip_value() || !at(',')) return std::nullopt;
      ++p_;
    }
    if (at(']') || p_ >= t_.size()) return std::nullopt;
    return p_;
  }
  /// In an object: leaves p_ at the value of the `occurrence`-th member `key` (written without
  /// escapes) and returns the offset of its key.
  std::optional<std::size_t> member_of(std::string_view key, int occurrence) {
    if (!at('{')) return std::nullopt;
    ++p_;
    int seen = 0;
    for (;;) {
      if (!at('"')) return std::nullopt;
      const std::size_t key_at = p_;
      if (!skip_string()) return std::nullopt;
      const std::string_view raw = t_.substr(key_at + 1, p_ - key_at - 2);
      if (!at(':')) return std::nullopt;
      ++p_;
      space();
      if (raw == key && ++seen == occurrence) return key_at;
      if (!skip_value() || !at(',')) return std::nullopt;
      ++p_;
    }
  }

  std::string_view t_;
  std::size_t p_ = 0;
};

// ------------------------------------------------------------------------------- parsing

/// Builds the document as nlohmann's SAX parser reads it (nlohmann's own callback parser scans
/// a container on every element it closes: quadratic in a list of agents). While reading it
/// tracks the path being read, for messages, and stops at the first problem: a repeated key,
/// nesting deeper than max_nesting, or what the parser reports (syntax, numbers beyond a double).
class DocumentBuilder {
 public:
  explicit DocumentBuilder(Json& root) : root_(root) {}

  /// Why reading stopped.
  struct Problem {
    Steps steps;                ///< the value at fault (a refusal) or being read (a parser error)
    std::string reason;         ///< refusals
    int occurrence = 1;         ///< of the last key of `steps`: 2 for a repeated key
    bool from_parser = false;
    int parser_id = 0;          ///< nlohmann's exception id (406: a number beyond a double)
    std::size_t position = 0;   ///< parser errors: the last byte read, counted from 1
    std::string parser_message;
  };
  [[nodiscard]] const std::optional<Problem>& problem() const { return problem_; }

  // nlohmann's SAX interface: false stops the parser.
  bool null() { return value(Json(nullptr)); }
  bool boolean(bool v) { return value(Json(v)); }
  bool number_integer(Json::number_integer_t v) { return value(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return value(Json(v)); }
  bool number_float(Json::number_float_t v, const Json::string_t& /*as written*/) { return value(Json(v)); }
  bool string(Json::string_t& v) { return value(Json(std::move(v))); }
  bool binary(Json::binary_t& v) { return value(Json(std::move(v))); }
  bool start_object(std::size_t /*size, unknown in text*/) { return open(Json::value_t::object); }
  bool start_array(std::size_t /*size*/) { return open(Json::value_t::array); }
  bool key(Json::string_t& k) {
    Frame& f = frames_.back();
    Json::object_t& o = f.value->get_ref<Json::object_t&>();
    f.key = k;
    if (o.count(k) != 0) return refuse("key " + waymark::quoted(k) + " appears twice", steps(false), 2);
    element_ = &o[k];
    return true;
  }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t position, const std::string& /*last_token*/, const Json::exception& e) {
    problem_ = Problem{steps(true), {}, 1, true, e.id, position, e.what()};
    return false;
  }

 private:
  struct Frame {
    Json* value = nullptr;  ///< the open array or object
    std::string key;        ///< objects: the key being read
  };

  /// Places `v` where the parser is: the root, the next element of the open array, or the
  /// value of the key just read. Open containers stay put: only the last one grows.
  Json* add(Json&& v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Json& parent = *frames_.back().value;
    if (parent.is_array()) {
      Json::array_t& a = parent.get_ref<Json::array_t&>();
      a.push_back(std::move(v));
      return &a.back();
    }
    *element_ = std::move(v);
    return element_;
  }
  bool value(Json&& v) {
    add(std::move(v));
    return true;
  }
  bool open(Json::value_t type) {
    if (frames_.size() == max_nesting) {
      Steps at = steps(true);
      return refuse("nested deeper than " + std::to_string(max_nesting) + " arrays and objects", std::move(at));
    }
    Json* v = add(Json(type));
    frames_.push_back({v, {}});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return true;
  }
  bool refuse(std::string reason, Steps at, int occurrence = 1) {
    problem_ = Problem{std::move(at), std::move(reason), occurrence};
    return false;
  }

  /// The path of the value last begun (`next`: of the one about to begin).
  [[nodiscard]] Steps steps(bool next) const {
    Steps out;
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      if (f.value->is_array()) {
        const std::size_t size = f.value->size();
        const bool top = i + 1 == frames_.size();
        out.push_back({{}, (next && top) ? size : size - 1, true});
      } else {
        out.push_back({f.key, 0, false});
      }
    }
    return out;
  }

  Json& root_;
  std::vector<Frame> frames_;
  Json* element_ = nullptr;  ///< where the value of the key just read goes
  std::optional<Problem> problem_;
};

/// The parser's message without its "[json.exception...] parse error at line L, column C: "
/// prefix, bytes outside printable ASCII as \xNN, cut after max_parser_message characters.
std::string parser_reason(const std::string& what) {
  std::string_view s = what;
  if (const std::size_t p = s.find("parse error"); p != npos) {
    if (const std::size_t colon = s.find(": ", p); colon != npos) s.remove_prefix(colon + 2);
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (const char ch : s.substr(0, max_parser_message)) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xf];
    }
  }
  if (s.size() > max_parser_message) out += "...";
  return out;
}

/// Where the parser stopped as a LoadError at its line: a number beyond a double named by its
/// path, NaN and Infinity by a message of their own, other syntax errors in the parser's words.
LoadError parser_error(std::string_view text, const std::string& source, const DocumentBuilder::Problem& p) {
  // p.position: the last byte read, counted from 1 (size + 1 at the end of the input).
  const std::size_t last = p.position == 0 ? 0 : std::min<std::size_t>(p.position - 1, text.size());
  const std::size_t line = line_of(text, last);
  constexpr int number_overflow = 406;  // nlohmann's out_of_range.406
  if (p.parser_id == number_overflow) {
    std::size_t begin = last;
    while (begin > 0 && token_char(text[begin - 1])) --begin;
    const std::string written = begin < text.size() && token_char(text[begin]) ? token_at(text, begin) : "a number";
    const std::string where = path_text(p.steps);
    const std::string reason = "must be a finite number, got " + written + " (beyond the range of a double)";
    return LoadError(source, line, where.empty() ? reason : where + ": " + reason);
  }
  if (last < text.size() && token_char(text[last])) {
    std::size_t begin = last;
    while (begin > 0 && token_char(text[begin - 1])) --begin;
    const std::string word = token_at(text, begin);
    std::string bare = word.substr(std::min(word.find_first_not_of("+-"), word.size()));
    for (char& c : bare) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    if (bare == "nan" || bare == "inf" || bare == "infinity")
      return LoadError(source, line, "invalid JSON: " + word + " is not a JSON number (scene numbers are finite)");
  }
  return LoadError(source, line, "invalid JSON: " + parser_reason(p.parser_message));
}

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

using Object = Json::object_t;
using Array = Json::array_t;

class SceneReader {
 public:
  SceneReader(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  SceneSpec scene(const Json& doc, const std::filesystem::path& base_dir) const {
    const Path root;
    const Object& top = object(doc, root, "a JSON object (the scene)");
    allow(top, root, {"map", "dt", "max_steps", "seed", "agents", "obstacles"});
    SceneSpec s;
    const Path map = root / "map", dt = root / "dt", max_steps = root / "max_steps", seed = root / "seed";
    s.map = map_path(required(top, "map", root), map, base_dir);
    s.dt = number_in(required(top, "dt", root), dt, SceneLimits::min_dt, false, SceneLimits::max_dt);
    s.max_steps = integer(required(top, "max_steps", root), max_steps, 1, SceneLimits::max_steps);
    s.seed = integer(required(top, "seed", root), seed, 0, std::numeric_limits<std::uint64_t>::max());

    const Path agents = root / "agents";
    const Array& agent_list = array(required(top, "agents", root), agents, "a list of agents");
    if (agent_list.empty()) fail(agents, "must hold at least one agent");
    if (agent_list.size() > SceneLimits::max_agents)
      fail(agents, "more than " + count_text(SceneLimits::max_agents, "agents (SceneLimits::max_agents)"));
    s.agents.reserve(agent_list.size());
    for (std::size_t i = 0; i < agent_list.size(); ++i) {
      const Path at = agents[i];
      s.agents.push_back(agent(agent_list[i], at));
    }

    if (const Json* list = optional(top, "obstacles")) {
      const Path obstacles = root / "obstacles";
      const Array& obstacle_list = array(*list, obstacles, "a list of obstacles");
      if (obstacle_list.size() > SceneLimits::max_obstacles)
        fail(obstacles, "more than " + count_text(SceneLimits::max_obstacles, "obstacles (SceneLimits::max_obstacles)"));
      s.obstacles.reserve(obstacle_list.size());
      for (std::size_t i = 0; i < obstacle_list.size(); ++i) {
        const Path at = obstacles[i];
        s.obstacles.push_back(obstacle(obstacle_list[i], at));
      }
    }
    return s;
  }

 private:
  AgentSpec agent(const Json& j, const Path& at) const {
    const Object& o = object(j, at, "an agent object");
    allow(o, at, {"start", "goal", "radius", "max_speed", "max_force", "mass", "layer", "waypoints", "loop", "laps"});
    AgentSpec a;
    const Path start = at / "start", goal = at / "goal", waypoints = at / "waypoints", loop = at / "loop",
               laps = at / "laps";
    a.start = point(required(o, "start", at), start);
    if (const Json* w = optional(o, "waypoints")) {
      a.waypoints = points(*w, waypoints, 1, SceneLimits::max_waypoints, "waypoints (SceneLimits::max_waypoints)");
    }
    if (const Json* l = optional(o, "loop")) {
      if (!l->is_boolean()) fail(loop, "expected true or false, got " + got(*l, loop));
      a.loop = l->get<bool>();
      if (a.loop && a.waypoints.empty()) fail(loop, "true needs waypoints to circle");
    }
    if (const Json* n = optional(o, "laps")) {
      a.laps = integer(*n, laps, 0, std::numeric_limits<std::uint64_t>::max());
      if (!a.loop) fail(laps, "needs \"loop\": true (the rounds of the waypoints before stopping)");
    }
    if (const Json* g = optional(o, "goal")) {
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
    if (const Json* v = optional(o, "radius")) a.radius = number_in(*v, radius, 0, true, SceneLimits::max_radius);
    if (const Json* v = optional(o, "max_speed")) a.max_speed = number_in(*v, max_speed, 0, true, SceneLimits::max_speed);
    if (const Json* v = optional(o, "max_force")) a.max_force = number_in(*v, max_force, 0, true, SceneLimits::max_force);
    if (const Json* v = optional(o, "mass"))
      a.mass = number_in(*v, mass, SceneLimits::min_mass, false, SceneLimits::max_mass);
    if (const Json* v = optional(o, "layer")) a.layer = layer_of(*v, layer);
    return a;
  }

  ObstacleSpec obstacle(const Json& j, const Path& at) const {
    using Kind = ObstacleSpec::Kind;
    const Object& o = object(j, at, "an obstacle object");
    allow(o, at, {"circle", "box", "oriented_box", "polygon", "segment", "layer"});
    static constexpr std::array<std::pair<std::string_view, Kind>, 5> shapes{{{"circle", Kind::circle},
                                                                              {"box", Kind::box},
                                                                              {"oriented_box", Kind::oriented_box},
                                                                              {"polygon", Kind::polygon},
                                                                              {"segment", Kind::segment}}};
    const Json* shape = nullptr;
    std::string_view name;
    ObstacleSpec ob;
    for (const auto& [n, kind] : shapes) {
      const Json* s = optional(o, n);
      if (s == nullptr) continue;
      if (shape != nullptr)
        fail(at, "holds two shapes, " + std::string(name) + " and " + std::string(n) + " (one shape per obstacle)");
      shape = s;
      name = n;
      ob.kind = kind;
    }
    if (shape == nullptr) fail(at, "expected one shape: circle, box, oriented_box, polygon or segment");
    const Path sp = at / name;
    switch (ob.kind) {
      case Kind::circle: {
        const Object& c = object(*shape, sp, "a circle {\"centre\": [x, y], \"radius\": r}");
        allow(c, sp, {"centre", "radius"});
        const Path centre = sp / "centre", radius = sp / "radius";
        ob.points = {point(required(c, "centre", sp), centre)};
        ob.radius = number_in(required(c, "radius", sp), radius, 0, true, SceneLimits::max_abs_coordinate);
        break;
      }
      case Kind::box: {
        const Object& b = object(*shape, sp, "a box {\"min\": [x, y], \"max\": [x, y]}");
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
        const Object& b = object(*shape, sp, "an oriented box {\"centre\": [x, y], \"half_extents\": [x, y], \"angle\": a}");
        allow(b, sp, {"centre", "half_extents", "angle"});
        const Path centre = sp / "centre", half = sp / "half_extents", angle = sp / "angle";
        const Vec2 c = point(required(b, "centre", sp), centre);
        const Vec2 h = point(required(b, "half_extents", sp), half);
        if (!(h.x > 0 && h.y > 0)) fail(half, "must both be > 0, got " + spell(h));
        ob.points = {c, h};
        if (const Json* a = optional(b, "angle"))
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
    if (const Json* v = optional(o, "layer")) ob.layer = layer_of(*v, layer);
    return ob;
  }

  std::string map_path(const Json& j, const Path& at, const std::filesystem::path& base_dir) const {
    if (!j.is_string()) fail(at, "expected a file path (a string), got " + got(j, at));
    const std::string& s = j.get_ref<const std::string&>();
    if (s.empty()) fail(at, "must not be empty");
    if (s.size() > max_map_path_bytes) fail(at, "longer than " + count_text(max_map_path_bytes, "bytes"));
    if (std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
      fail(at, "must not hold control characters, got " + waymark::quoted(s));
    const std::filesystem::path p(s);
    if (base_dir.empty() || p.is_absolute()) return s;
    return (base_dir / p).string();
  }

  // ---- values

  double finite(const Json& j, const Path& at) const {
    if (!j.is_number()) fail(at, "expected a number, got " + got(j, at));
    const double v = j.get<double>();
    if (!std::isfinite(v)) fail(at, "must be a finite number, got " + got(j, at));
    return v;
  }

  /// A finite number in (lo, hi] (`open`) or [lo, hi].
  double number_in(const Json& j, const Path& at, double lo, bool open, double hi) const {
    const double v = finite(j, at);
    if (!(open ? v > lo : v >= lo) || !(v <= hi))
      fail(at, "must be a finite number " + std::string(open ? "> " : "≥ ") + spell(lo) + " and ≤ " + spell(hi) +
                   ", got " + got(j, at));
    return v;
  }

  double coordinate(const Json& j, const Path& at) const {
    const double v = finite(j, at);
    if (!(std::abs(v) <= SceneLimits::max_abs_coordinate))
      fail(at, "must lie within ±" + spell(SceneLimits::max_abs_coordinate) + " (SceneLimits::max_abs_coordinate), got " +
                   got(j, at));
    return v;
  }

  /// An integer in [lo, hi], written as one (digits only).
  std::uint64_t integer(const Json& j, const Path& at, std::uint64_t lo, std::uint64_t hi) const {
    const auto out_of_range = [&] {
      fail(at, "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + got(j, at));
    };
    std::uint64_t v = 0;
    if (j.is_number_unsigned()) {
      v = j.get<std::uint64_t>();
    } else if (j.is_number_integer()) {  // negative: the parser makes non-negative integers unsigned, but -0
      if (j.get<std::int64_t>() < 0) out_of_range();
    } else if (j.is_number_float()) {
      const std::string written = got(j, at);
      if (written.find_first_of(".eE") == npos) out_of_range();  // digits beyond 2^64 − 1
      fail(at, "must be an integer (digits only, no fraction or exponent), got " + written);
    } else {
      fail(at, "expected an integer, got " + got(j, at));
    }
    if (v < lo || v > hi) out_of_range();
    return v;
  }

  int layer_of(const Json& j, const Path& at) const {
    return static_cast<int>(integer(j, at, 0, steer::layer_count - 1));
  }

  Vec2 point(const Json& j, const Path& at) const {
    if (!j.is_array()) fail(at, "expected a point [x, y], got " + got(j, at));
    const Array& a = j.get_ref<const Array&>();
    if (a.size() != 2) fail(at, "expected a point [x, y], got a list of " + count_text(a.size(), "values"));
    const Path x = at[0], y = at[1];
    return {coordinate(a[0], x), coordinate(a[1], y)};
  }

  /// A list of min to max points; `noun` names them when there are too many.
  std::vector<Vec2> points(const Json& j, const Path& at, std::size_t min, std::size_t max, const char* noun) const {
    const Array& a = array(j, at, "a list of points [[x, y], ...]");
    if (a.size() < min)
      fail(at, "must hold at least " + count_text(min, min == 1 ? "point" : "points") + ", got " + std::to_string(a.size()));
    if (a.size() > max) fail(at, "more than " + count_text(max, noun));
    std::vector<Vec2> out;
    out.reserve(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      const Path p = at[i];
      out.push_back(point(a[i], p));
    }
    return out;
  }

  // ---- containers

  const Object& object(const Json& j, const Path& at, const char* what) const {
    if (!j.is_object()) fail(at, std::string("expected ") + what + ", got " + got(j, at));
    return j.get_ref<const Object&>();
  }
  const Array& array(const Json& j, const Path& at, const char* what) const {
    if (!j.is_array()) fail(at, std::string("expected ") + what + ", got " + got(j, at));
    return j.get_ref<const Array&>();
  }
  static const Json* optional(const Object& o, std::string_view key) {
    const auto it = o.find(std::string(key));
    return it == o.end() ? nullptr : &it->second;
  }
  const Json& required(const Object& o, std::string_view key, const Path& at) const {
    const Json* v = optional(o, key);
    if (v == nullptr) fail(at, "missing key \"" + std::string(key) + "\"");
    return *v;
  }
  /// Refuses any key but `keys` (a typo must not pass as an unknown option left at its default).
  void allow(const Object& o, const Path& at, std::initializer_list<std::string_view> keys) const {
    for (const auto& member : o) {
      if (std::find(keys.begin(), keys.end(), member.first) != keys.end()) continue;
      std::string expected;
      std::size_t i = 0;
      for (const std::string_view k : keys) {
        if (i > 0) expected += (i + 1 == keys.size()) ? " or " : ", ";
        expected += k;
        ++i;
      }
      const Path key = at / member.first;
      fail(at, "unknown key " + waymark::quoted(member.first) + " (expected " + expected + ")", &key);
    }
  }

  // ---- messages

  /// Throws LoadError naming `at`, at the line of `line_at` (default: `at`).
  [[noreturn]] void fail(const Path& at, const std::string& reason, const Path* line_at = nullptr) const {
    const Steps steps = at.steps();
    const std::string where = path_text(steps);
    const std::size_t offset = TextScan(text_).find(line_at != nullptr ? line_at->steps() : steps, true);
    throw LoadError(source_, line_of(text_, offset), where.empty() ? reason : where + ": " + reason);
  }

  /// A value as a message shows it: numbers as written in the text.
  std::string got(const Json& j, const Path& at) const {
    switch (j.type()) {
      case Json::value_t::string:
        return "the string " + waymark::quoted(j.get_ref<const std::string&>());
      case Json::value_t::number_integer:
      case Json::value_t::number_unsigned:
      case Json::value_t::number_float: {
        const std::size_t v = TextScan(text_).find(at.steps(), false);
        if (v < text_.size() && token_char(text_[v])) return token_at(text_, v);
        return spell(j.get<double>());
      }
      case Json::value_t::boolean:
        return j.get<bool>() ? "true" : "false";
      case Json::value_t::null:
        return "null";
      case Json::value_t::array:
        return "a list";
      case Json::value_t::object:
        return "an object";
      default:
        return std::string("a ") + j.type_name();
    }
  }

  std::string_view text_;
  const std::string& source_;
};

}  // namespace

steer::SceneSpec parse_scene(std::string_view text, const std::string& source, const std::filesystem::path& base_dir) {
  if (text.size() > max_scene_file_bytes)
    throw LoadError(source, 0, "larger than " + count_text(max_scene_file_bytes, "bytes (io::max_scene_file_bytes)"));
  Json doc;
  DocumentBuilder builder(doc);
  try {
    Json::sax_parse(text.begin(), text.end(), &builder, Json::input_format_t::json, /*strict=*/true,
                    /*ignore_comments=*/false);
    if (const auto& p = builder.problem()) {
      if (p->from_parser) throw parser_error(text, source, *p);
      const std::string where = path_text(p->steps);
      throw LoadError(source, line_of(text, TextScan(text).find(p->steps, true, p->occurrence)),
                      where.empty() ? p->reason : where + ": " + p->reason);
    }
    return SceneReader(text, source).scene(doc, base_dir);
  } catch (const Json::exception& e) {  // every type is checked before use: a slip, reported not crashed
    throw LoadError(source, 0, std::string("unexpected JSON error: ") + e.what());
  }
}

steer::SceneSpec load_scene(const std::string& path) {
  std::ifstream in = open_input_file(path);
  std::string text;
  std::array<char, std::size_t{1} << 16> buffer{};
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    text.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_scene_file_bytes)
      throw LoadError(path, 0, "larger than " + count_text(max_scene_file_bytes, "bytes (io::max_scene_file_bytes)"));
  }
  if (in.bad()) throw LoadError(path, 0, "read error");
  return parse_scene(text, path, std::filesystem::path(path).parent_path());
}

// ------------------------------------------------------------------------ the map check

namespace {

std::string map_extent(const grid::GridMap& map) {
  const Vec2 lo = map.cell_center({0, 0}) - Vec2{0.5 * map.cell_size(), 0.5 * map.cell_size()};
  const Vec2 hi = lo + Vec2{map.width() * map.cell_size(), map.height() * map.cell_size()};
  return std::to_string(map.width()) + "x" + std::to_string(map.height()) + " map (x from " + spell(lo.x) + " to " +
         spell(hi.x) + ", y from " + spell(lo.y) + " to " + spell(hi.y) + ")";
}

std::string cell_text(grid::CellCoord c) {
  std::string s = std::to_string(c.x);  // built up front: GCC 12 misreads "(" + to_string (-Wrestrict)
  s.insert(s.begin(), '(');
  s += ", ";
  s += std::to_string(c.y);
  s += ')';
  return s;
}

/// Why `p` cannot hold an agent on `map` ("" when it can): outside, or in a blocked cell.
std::string placement_problem(const grid::GridMap& map, Vec2 p) {
  const std::optional<grid::CellCoord> c = map.world_to_cell(p);
  if (!c) return spell(p) + " is outside the " + map_extent(map);
  if (!map.passable(c->x, c->y)) return spell(p) + " lies in blocked cell " + cell_text(*c);
  return {};
}

/// Why a disc cannot stand on `map` ("" when it can): it crosses the border or overlaps a blocked
/// cell (touching is allowed). Its centre lies on the map.
std::string disc_problem(const grid::GridMap& map, Vec2 centre, double radius) {
  const double s = map.cell_size();
  const Vec2 lo = map.cell_center({0, 0}) - Vec2{0.5 * s, 0.5 * s};
  const Vec2 hi = lo + Vec2{map.width() * s, map.height() * s};
  if (centre.x - radius < lo.x || centre.x + radius > hi.x || centre.y - radius < lo.y || centre.y + radius > hi.y)
    return "crosses the border of the " + map_extent(map);
  const auto index = [&](double world, double origin, int size) {
    const double f = std::floor((world - origin) / s);
    return static_cast<int>(std::clamp(f, 0.0, static_cast<double>(size - 1)));
  };
  const int x0 = index(centre.x - radius, lo.x, map.width()), x1 = index(centre.x + radius, lo.x, map.width());
  const int y0 = index(centre.y - radius, lo.y, map.height()), y1 = index(centre.y + radius, lo.y, map.height());
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      if (map.passable(x, y)) continue;
      const double cx0 = lo.x + x * s, cy0 = lo.y + y * s;
      const double dx = std::max({cx0 - centre.x, 0.0, centre.x - (cx0 + s)});
      const double dy = std::max({cy0 - centre.y, 0.0, centre.y - (cy0 + s)});
      if (dx * dx + dy * dy < radius * radius) return "overlaps blocked cell " + cell_text({x, y});
    }
  }
  return {};
}

/// The first pair of agents (lowest first index, then lowest second) whose start discs overlap.
std::optional<std::pair<std::size_t, std::size_t>> overlapping_starts(const std::vector<AgentSpec>& agents) {
  double largest = 0;
  for (const AgentSpec& a : agents) largest = std::max(largest, a.radius);
  // Buckets of side 2 × the largest radius: overlapping discs lie in neighbouring buckets.
  const double side = 2 * largest;
  constexpr double far = 1e12;  // keeps the conversion defined; far buckets merge, which only costs checks
  const auto bucket = [&](double v) { return static_cast<std::int64_t>(std::clamp(std::floor(v / side), -far, far)); };
  struct Entry {
    std::int64_t bx, by;
    std::size_t agent;
    bool operator<(const Entry& o) const { return std::tie(bx, by, agent) < std::tie(o.bx, o.by, o.agent); }
  };
  std::vector<Entry> entries;
  entries.reserve(agents.size());
  for (std::size_t i = 0; i < agents.size(); ++i)
    entries.push_back({bucket(agents[i].start.x), bucket(agents[i].start.y), i});
  std::sort(entries.begin(), entries.end());
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const AgentSpec& a = agents[i];
    const std::int64_t bx = bucket(a.start.x), by = bucket(a.start.y);
    std::optional<std::size_t> partner;
    for (std::int64_t x = bx - 1; x <= bx + 1; ++x) {
      const auto begin = std::lower_bound(entries.begin(), entries.end(), Entry{x, by - 1, 0});
      const auto end = std::lower_bound(entries.begin(), entries.end(), Entry{x, by + 2, 0});
      for (auto it = begin; it != end; ++it) {
        if (it->agent == i) continue;
        const AgentSpec& b = agents[it->agent];
        const Vec2 d = b.start - a.start;
        const double reach = a.radius + b.radius;
        if (d.x * d.x + d.y * d.y < reach * reach && (!partner || it->agent < *partner)) partner = it->agent;
      }
    }
    // Agents before i found no partner, so any partner of i comes after it.
    if (partner) return std::pair{i, *partner};
  }
  return std::nullopt;
}

}  // namespace

void check_scene_against_map(const steer::SceneSpec& scene, const grid::GridMap& map, const std::string& source) {
  const auto agent_name = [](std::size_t i) {
    std::string s = std::to_string(i);  // built up front (-Wrestrict, see cell_text)
    s.insert(0, "agents[");
    s += ']';
    return s;
  };
  const auto fail = [&](std::size_t i, const std::string& what) { throw LoadError(source, 0, agent_name(i) + what); };
  for (std::size_t i = 0; i < scene.agents.size(); ++i) {
    const AgentSpec& a = scene.agents[i];
    if (!(a.radius > 0 && a.radius <= SceneLimits::max_radius))
      fail(i, ".radius: must be a finite number > 0 and ≤ " + spell(SceneLimits::max_radius) + ", got " + spell(a.radius));
    if (const std::string why = placement_problem(map, a.start); !why.empty()) fail(i, ".start " + why);
    if (const std::string why = disc_problem(map, a.start, a.radius); !why.empty())
      fail(i, ": the start disc (radius " + spell(a.radius) + " around " + spell(a.start) + ") " + why);
    for (std::size_t k = 0; k < a.waypoints.size(); ++k) {
      if (const std::string why = placement_problem(map, a.waypoints[k]); !why.empty())
        fail(i, ".waypoints[" + std::to_string(k) + "] " + why);
    }
    if (const std::string why = placement_problem(map, a.goal); !why.empty()) fail(i, ".goal " + why);
  }
  // The scene's own obstacles: a start disc must not overlap one (a disc that starts inside a
  // solid cannot move out), a goal or waypoint must not lie inside one.
  if (!scene.obstacles.empty()) {
    steer::ObstacleWorld obstacles;
    for (const steer::ObstacleSpec& o : scene.obstacles) obstacles.add(steer::obstacle_shape(o), o.layer);
    for (std::size_t i = 0; i < scene.agents.size(); ++i) {
      const AgentSpec& a = scene.agents[i];
      if (obstacles.clearance(a.start, a.radius) < a.radius)
        fail(i, ": the start disc (radius " + spell(a.radius) + " around " + spell(a.start) + ") overlaps an obstacle");
      if (obstacles.clearance(a.goal, 1) <= 0) fail(i, ".goal " + spell(a.goal) + " lies inside an obstacle");
      for (std::size_t k = 0; k < a.waypoints.size(); ++k) {
        if (obstacles.clearance(a.waypoints[k], 1) <= 0)
          fail(i, ".waypoints[" + std::to_string(k) + "] " + spell(a.waypoints[k]) + " lies inside an obstacle");
      }
    }
  }
  if (const auto pair = overlapping_starts(scene.agents)) {
    const AgentSpec& a = scene.agents[pair->first];
    const AgentSpec& b = scene.agents[pair->second];
    const Vec2 d = b.start - a.start;
    fail(pair->first, " and " + agent_name(pair->second) + ": start discs overlap (centres " + spell(a.start) + " and " +
                          spell(b.start) + " lie " + spell(std::hypot(d.x, d.y)) + " apart, radii " + spell(a.radius) +
                          " + " + spell(b.radius) + ")");
  }
}

}  // namespace waymark::io
