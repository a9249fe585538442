#include "web/api.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "waymark/core/errors.hpp"
#include "waymark/core/polyline.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/graph_loaders.hpp"
#include "waymark/grid/path_smoothing.hpp"
#include "waymark/io/event_json.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/io/polygons.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/recast/recast_build.hpp"
#include "waymark/puzzle/solver.hpp"
#include "waymark/regions/labeling.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/steer/simulation.hpp"
#include "waymark/visibility/visibility_query.hpp"

namespace waymark::web {
namespace {

using nlohmann::json;
using grid::CellCoord;

constexpr int http_ok = 200;
constexpr int http_bad_request = 400;
constexpr int http_not_found = 404;
constexpr int http_method_not_allowed = 405;
constexpr int http_too_large = 413;
constexpr int http_too_many = 429;
constexpr double microseconds_per_second = 1e6;
/// Longest map name a request may give (names are file stems of DATA/maps).
constexpr std::size_t max_map_name_length = 128;

/// A request the API refuses: its HTTP status and the reason sent back.
struct ApiError : std::runtime_error {
  ApiError(int status_code, const std::string& why) : std::runtime_error(why), status(status_code) {}
  int status;
};

/// JSON text; bytes that are not UTF-8 (echoed from a request) become U+FFFD instead of throwing.
std::string text_of(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

Response error(int status, const std::string& why) { return {status, text_of(json{{"error", why}})}; }

/// Runs a handler: refusals and malformed input become error responses, never exceptions.
template <class F>
Response guarded(F&& handler) {
  try {
    return handler();
  } catch (const ApiError& e) {
    return error(e.status, e.what());
  } catch (const json::exception& e) {
    return error(http_bad_request, std::string("malformed JSON: ") + e.what());
  } catch (const LoadError& e) {
    return error(http_bad_request, e.what());
  } catch (const std::bad_alloc&) {
    return error(http_too_large, "the request needs more memory than the server has");
  } catch (const std::exception& e) {
    return error(http_bad_request, e.what());
  }
}

// ---- reading the request -----------------------------------------------------------------

const json& field(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) throw ApiError(http_bad_request, std::string("missing field \"") + key + "\"");
  return *it;
}

std::string text_field(const json& object, const char* key, const std::string& fallback) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return fallback;
  if (!it->is_string()) throw ApiError(http_bad_request, std::string("\"") + key + "\" must be a string");
  return it->get<std::string>();
}

bool flag_field(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return false;
  if (!it->is_boolean()) throw ApiError(http_bad_request, std::string("\"") + key + "\" must be true or false");
  return it->get<bool>();
}

double number_field(const json& object, const char* key, double fallback) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return fallback;
  if (!it->is_number()) throw ApiError(http_bad_request, std::string("\"") + key + "\" must be a number");
  return it->get<double>();
}

/// An integer in [lo, hi], from a JSON number without a fraction.
int whole_number(const json& v, int lo, int hi, const std::string& what) {
  if (v.is_number_integer() || v.is_number_unsigned()) {
    const auto n = v.get<std::int64_t>();
    if (n >= lo && n <= hi) return static_cast<int>(n);
  }
  throw ApiError(http_bad_request, what + " must be a whole number from " + std::to_string(lo) + " to " +
                                       std::to_string(hi));
}

CellCoord cell_field(const json& object, const char* key, const grid::GridMap& map) {
  const json& v = field(object, key);
  const std::string what = std::string("\"") + key + "\"";
  if (!v.is_array() || v.size() != 2) throw ApiError(http_bad_request, what + " must be [x, y]");
  const CellCoord c{whole_number(v[0], 0, map.width() - 1, what + "[0] (x)"),
                    whole_number(v[1], 0, map.height() - 1, what + "[1] (y)")};
  if (!map.passable(c.x, c.y))
    throw ApiError(http_bad_request, what + " (" + std::to_string(c.x) + "," + std::to_string(c.y) + ") is blocked");
  return c;
}

bool valid_name(std::string_view name) {
  return !name.empty() && name.size() <= max_map_name_length &&
                  std::all_of(name.begin(), name.end(), [](char ch) {
                    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                           ch == '_' || ch == '-' || ch == '.';
                  }) &&
                  name.find("..") == std::string_view::npos;
}

void check_name(std::string_view name) {
  if (!valid_name(name)) throw ApiError(http_bad_request, "a map name is letters, digits, '_', '-' and '.'");
}

/// The stems of DIR's files ending in `ext` that a request may name, sorted.
std::vector<std::string> bundled_names(const std::filesystem::path& dir, std::string_view ext) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ext && valid_name(entry.path().stem().string()))
      names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// DIR/name+ext for a bundled `name` (one of `names`): 400 for a malformed name, 404 for an
/// unknown one; `what` names the kind ("map", "level", ...) in the refusal.
std::filesystem::path bundled_file(const std::vector<std::string>& names, std::string_view name,
                                   const std::filesystem::path& dir, std::string_view ext, std::string_view what) {
  check_name(name);
  if (!std::binary_search(names.begin(), names.end(), name))
    throw ApiError(http_not_found, "no bundled " + std::string(what) + " \"" + std::string(name) + "\" (GET /api/maps lists them)");
  return dir / (std::string(name) + std::string(ext));
}

// ---- maps --------------------------------------------------------------------------------

/// The rows of a .map text the loader has accepted (the lines after "map").
std::vector<std::string> read_rows(std::istream& in, int height) {
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line == "map") break;
  }
  std::vector<std::string> rows;
  rows.reserve(static_cast<std::size_t>(height));
  while (static_cast<int>(rows.size()) < height && std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    rows.push_back(line);
  }
  return rows;
}

io::MapLoadOptions load_options(const ApiLimits& limits, bool terrain) {
  io::MapLoadOptions o;
  o.max_cells = limits.max_map_cells;
  if (terrain) o.terrain = io::TerrainCosts{};
  return o;
}

/// GET /api/maps's answer: the bundled worlds with the names and limits requests accept.
std::string maps_listing(const std::filesystem::path& data_dir, const std::vector<std::string>& map_names,
                         const std::vector<std::string>& mesh_names, const std::vector<std::string>& polygon_names,
                         const ApiLimits& limits) {
  json list = json::array();
  for (const std::string& name : map_names) {
    // The header only: sizes without loading every map.
    std::ifstream in(data_dir / "maps" / (name + ".map"));
    std::string word;
    int width = 0;
    int height = 0;
    for (int i = 0; i < 4 && in >> word; ++i) {
      if (word == "width") in >> width;
      if (word == "height") in >> height;
    }
    list.push_back({{"name", name}, {"width", width}, {"height", height}});
  }
  json algorithms = json::array();
  for (const auto& [a, name] : grid::algorithm_names) algorithms.push_back(name);
  return text_of(json{{"maps", list},
                      {"meshes", mesh_names},
                      {"polygons", polygon_names},
                      {"algorithms", algorithms},
                      {"heuristics", {"octile", "manhattan", "euclidean", "chebyshev", "zero"}},
                      {"diagonals", {"no-corner-cutting", "at-most-one-obstacle", "always", "never"}},
                      {"limits",
                       {{"max_body_bytes", limits.max_body_bytes},
                        {"max_map_cells", limits.max_map_cells},
                        {"max_map_side", limits.max_map_side},
                        {"max_events", limits.max_events},
                        {"max_query_seconds", limits.max_query_seconds}}}});
}

}  // namespace

Api::Api(std::filesystem::path data_dir, ApiLimits limits)
    : data_dir_(std::move(data_dir)),
      limits_(limits),
      map_names_(bundled_names(data_dir_ / "maps", ".map")),
      mesh_names_(bundled_names(data_dir_ / "meshes", ".obj")),
      polygon_names_(bundled_names(data_dir_ / "polygons", ".json")),
      maps_reply_(maps_listing(data_dir_, map_names_, mesh_names_, polygon_names_, limits_)) {}

Response Api::maps() const { return Response{http_ok, maps_reply_}; }

Response Api::map(std::string_view name) const {
  return guarded([&] {
    const auto file = bundled_file(map_names_, name, data_dir_ / "maps", ".map", "map");
    std::ifstream in(file);
    std::stringstream text;  // read once: parsed, then its rows sent as written
    text << in.rdbuf();
    const grid::GridMap map = io::parse_movingai_map(text, file.string(), load_options(limits_, false));
    text.clear();
    text.seekg(0);
    return Response{http_ok, text_of(json{{"name", name},
                                  {"width", map.width()},
                                  {"height", map.height()},
                                  {"rows", read_rows(text, map.height())}})};
  });
}

namespace {

/// The request's "map": a bundled one by name, or width, height and rows in Moving AI
/// letters ('.' 'G' free, '@' 'O' 'T' walls, 'S' swamp and 'W' water: terrain).
grid::GridMap request_map(const json& spec, const std::vector<std::string>& names, const std::filesystem::path& data_dir,
                          const ApiLimits& limits, bool terrain) {
  if (!spec.is_object()) throw ApiError(http_bad_request, "\"map\" must be {\"name\": ...} or {\"width\", \"height\", \"rows\"}");
  if (spec.contains("name")) {
    const auto file = bundled_file(names, text_field(spec, "name", ""), data_dir / "maps", ".map", "map");
    return io::load_movingai_map(file.string(), load_options(limits, terrain));
  }
  const json& w = field(spec, "width");
  const json& h = field(spec, "height");
  const int width = whole_number(w, 1, INT32_MAX, "\"map.width\"");
  const int height = whole_number(h, 1, INT32_MAX, "\"map.height\"");
  if (width > limits.max_map_side || height > limits.max_map_side ||
      static_cast<std::size_t>(width) * static_cast<std::size_t>(height) > limits.max_map_cells)
    throw ApiError(http_too_large, "map " + std::to_string(width) + "x" + std::to_string(height) +
                                       " is over the limit (" + std::to_string(limits.max_map_cells) + " cells, " +
                                       std::to_string(limits.max_map_side) + " a side)");
  const json& rows = field(spec, "rows");
  if (!rows.is_array() || rows.size() != static_cast<std::size_t>(height))
    throw ApiError(http_bad_request, "\"map.rows\" must be an array of " + std::to_string(height) + " strings");
  std::string text = "type octile\nheight " + std::to_string(height) + "\nwidth " + std::to_string(width) + "\nmap\n";
  text.reserve(text.size() + static_cast<std::size_t>(height) * (static_cast<std::size_t>(width) + 1));
  for (std::size_t y = 0; y < rows.size(); ++y) {
    if (!rows[y].is_string() || rows[y].get_ref<const std::string&>().size() != static_cast<std::size_t>(width))
      throw ApiError(http_bad_request,
                     "\"map.rows\"[" + std::to_string(y) + "] must be a string of " + std::to_string(width) + " letters");
    text += rows[y].get_ref<const std::string&>();
    text += '\n';
  }
  std::istringstream in(text);
  return io::parse_movingai_map(in, "map", load_options(limits, terrain));
}

/// Keeps the first `limit` events as JSON text, comma-separated.
class EventText final : public search::EventSink<CellId> {
 public:
  EventText(const grid::GridMap& map, std::size_t limit) : spell_{&map}, limit_(limit) {}
  void on_event(const search::Event<CellId>& e) override {
    if (kept_ == limit_) {
      truncated_ = true;
      return;
    }
    if (kept_ != 0) text_ += ',';
    io::append_event_json(text_, e, spell_);
    ++kept_;
  }
  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] bool truncated() const { return truncated_; }
  [[nodiscard]] std::size_t kept() const { return kept_; }

 private:
  io::SpellGridCell spell_;
  std::size_t limit_;
  std::size_t kept_ = 0;
  bool truncated_ = false;
  std::string text_;
};

json cells_json(const grid::GridMap& map, std::span<const CellId> cells) {
  json a = json::array();
  for (const CellId c : cells) {
    const CellCoord p = map.coord(c);
    a.push_back({p.x, p.y});
  }
  return a;
}

/// A query's outcome into its answer: "status", and "reason" when it failed.
void put_status(json& answer, Status st) {
  answer["status"] = to_string(st.state);
  if (!st.succeeded()) answer["reason"] = reason_name(st);
}

/// A whole query's wall-time budget of `seconds`.
search::Budget time_budget(double seconds) {
  return search::Budget::of_time(
      std::chrono::duration_cast<search::Budget::Clock::duration>(std::chrono::duration<double>(seconds)));
}

/// The parsed body of a POST: an object, or a refusal.
json request_object(std::string_view body, const ApiLimits& limits) {
  if (body.size() > limits.max_body_bytes)
    throw ApiError(http_too_large, "request body over " + std::to_string(limits.max_body_bytes) + " bytes");
  json request = json::parse(body);
  if (!request.is_object()) throw ApiError(http_bad_request, "the request must be a JSON object");
  return request;
}

}  // namespace

Response Api::path(std::string_view body) const {
  return guarded([&] {
    const json request = request_object(body, limits_);
    const bool terrain = flag_field(request, "terrain");
    const grid::GridMap map = request_map(field(request, "map"), map_names_, data_dir_, limits_, terrain);
    const CellCoord from = cell_field(request, "from", map);
    const CellCoord to = cell_field(request, "to", map);

    grid::GridPlannerOptions options;
    const std::string algorithm = text_field(request, "algorithm", "astar");
    const auto alg = grid::parse_algorithm(algorithm);
    if (!alg) throw ApiError(http_bad_request, "unknown algorithm \"" + algorithm + "\" (GET /api/maps lists them)");
    options.algorithm = *alg;
    const std::string diagonal = text_field(request, "diagonal", "no-corner-cutting");
    const auto rule = grid::parse_diagonal_rule(diagonal);
    if (!rule) throw ApiError(http_bad_request, "unknown diagonal rule \"" + diagonal + "\"");
    options.diagonal = *rule;
    const std::string heuristic = text_field(request, "heuristic", "");
    if (!heuristic.empty() && *alg != grid::Algorithm::theta) {
      const auto h = grid::parse_heuristic(heuristic);
      if (!h) throw ApiError(http_bad_request, "unknown heuristic \"" + heuristic + "\"");
      options.heuristic = *h;
    }
    const double weight = number_field(request, "weight", 1.0);
    if (!(weight >= 1.0 && weight <= 1e6))
      throw ApiError(http_bad_request, "\"weight\" must be a number from 1 to 1000000");
    options.query.weight = *alg == grid::Algorithm::theta ? 1.0 : weight;
    if (const auto why = grid::planner_unsupported(map, options)) throw ApiError(http_bad_request, *why);

    const bool trace = flag_field(request, "trace");
    const bool smooth = flag_field(request, "smooth");
    EventText events(map, limits_.max_events);
    if (trace) options.query.events = &events;
    const grid::GridPlanner planner(map, options);
    search::SearchHandle<CellId> search = planner.make_search();
    const Status st =
        search::run_within(search, map.cell(from.x, from.y), map.cell(to.x, to.y), time_budget(limits_.max_query_seconds));
    const Path<CellId>& found = search.path();
    const SearchStats& stats = search.stats();

    json reply;
    reply["algorithm"] = grid::to_string(*alg);
    put_status(reply, st);
    reply["cost"] = st.succeeded() ? json(found.cost) : json(nullptr);
    reply["path"] = st.succeeded() ? cells_json(map, found.nodes) : json::array();
    double length = st.succeeded() ? polyline_length(to_polyline(map, found.nodes)) : 0.0;
    if (smooth && st.succeeded()) {
      std::vector<CellId> waypoints;
      const double cost = grid::smooth_path(planner.space(), found.nodes, waypoints).cost;
      reply["smoothed"] = {{"cost", cost}, {"path", cells_json(map, waypoints)}};
      length = polyline_length(to_polyline(map, waypoints));
    }
    reply["stats"] = {{"expanded", stats.expanded},
                      {"generated", stats.generated},
                      {"reopened", stats.reopened},
                      {"max_open", stats.max_open_size},
                      {"time_us", stats.time_s * microseconds_per_second},
                      {"steps", st.succeeded() ? found.steps() : 0},
                      {"length", length}};
    std::string text = text_of(reply);
    if (trace) {
      // The events are JSON text already: spliced in rather than parsed into the tree.
      text.pop_back();
      text += ",\"events_truncated\":";
      text += events.truncated() ? "true" : "false";
      text += ",\"events\":[";
      text += events.text();
      text += "]}";
    }
    return Response{http_ok, std::move(text)};
  });
}

Response Api::puzzle(std::string_view body) const {
  return guarded([&] {
    const json request = request_object(body, limits_);
    const json& tiles_json = field(request, "tiles");
    if (!tiles_json.is_array()) throw ApiError(http_bad_request, "\"tiles\" must be an array of numbers");
    const std::size_t n = tiles_json.size();
    int width = 0;
    for (int w = puzzle::min_puzzle_width; w <= puzzle::max_puzzle_width; ++w) width = n == static_cast<std::size_t>(w * w) ? w : width;
    if (width == 0) throw ApiError(http_bad_request, "\"tiles\" must hold 4, 9 or 16 numbers (a 2x2, 3x3 or 4x4 board)");
    std::vector<int> tiles;
    for (std::size_t i = 0; i < n; ++i)
      tiles.push_back(whole_number(tiles_json[i], 0, static_cast<int>(n) - 1, "\"tiles\"[" + std::to_string(i) + "]"));
    const puzzle::SlidingPuzzle board(width);
    if (const puzzle::PuzzleCheck check = board.check(tiles); check != puzzle::PuzzleCheck::ok)
      throw ApiError(http_bad_request, puzzle::describe(check, tiles, width));
    const std::string algorithm = text_field(request, "algorithm", "astar");
    const auto alg = puzzle::parse_algorithm(algorithm);
    if (!alg) throw ApiError(http_bad_request, "unknown puzzle algorithm \"" + algorithm + "\" (astar, ida)");
    const std::string heuristic = text_field(request, "heuristic", "manhattan");
    const auto h = puzzle::parse_heuristic(heuristic);
    if (!h || *h == puzzle::HeuristicKind::pdb_663 || *h == puzzle::HeuristicKind::pdb_78)
      throw ApiError(http_bad_request, "unknown puzzle heuristic \"" + heuristic + "\" (manhattan, linear-conflict)");

    puzzle::PuzzleSolverOptions options;
    options.limit = time_budget(limits_.max_query_seconds);
    options.max_nodes = limits_.max_puzzle_states;
    puzzle::PuzzleSolver solver(board, *h, nullptr, options);
    const puzzle::PuzzleState start = board.make_state(tiles);
    const puzzle::PuzzleSolution solution = solver.solve(*alg, start);
    json boards = json::array();
    if (solution.status.succeeded()) {
      puzzle::PuzzleState at = start;
      boards.push_back(board.tiles(at));
      for (const puzzle::BlankMove m : solution.moves) {
        at = *board.apply(at, m);
        boards.push_back(board.tiles(at));
      }
    }
    json reply = {{"algorithm", puzzle::to_string(*alg)},
                  {"heuristic", puzzle::to_string(*h)},
                  {"moves", solution.status.succeeded() ? json(solution.moves.size()) : json(nullptr)},
                  {"solution", solution.status.succeeded() ? json(puzzle::describe(solution.moves)) : json(nullptr)},
                  {"boards", boards},
                  {"estimate", solver.estimate(start)},
                  {"stats",
                   {{"expanded", solution.stats.expanded},
                    {"generated", solution.stats.generated},
                    {"iterations", solution.stats.iterations},
                    {"time_us", solution.stats.time_s * microseconds_per_second}}}};
    put_status(reply, solution.status);
    return Response{http_ok, text_of(reply)};
  });
}

// ---- road graphs -------------------------------------------------------------------------

/// The bundled road graph the viewer draws: Oldenburg (DATA/roads/OL.cnode.txt and
/// OL.cedge.txt, with coordinates), and one planner per algorithm, preprocessing built once.
struct Api::Roads {
  static constexpr const char* name = "oldenburg";
  static constexpr std::array algorithms{graph::Algorithm::dijkstra, graph::Algorithm::bidijkstra, graph::Algorithm::astar,
                                         graph::Algorithm::alt, graph::Algorithm::ch};
  io::LoadedGraph loaded;
  std::vector<std::unique_ptr<graph::GraphPlanner>> planners;  ///< by index in `algorithms`
  std::string picture;  ///< GET /api/graph's answer, made once
};

Api::~Api() = default;

const Api::Roads& Api::roads() const {
  std::call_once(roads_once_, [&] {
    auto roads = std::make_shared<Roads>();
    roads->loaded = io::load_node_edge_lists((data_dir_ / "roads" / "OL.cnode.txt").string(),
                                             (data_dir_ / "roads" / "OL.cedge.txt").string());
    const graph::Graph& g = roads->loaded.graph;
    for (const graph::Algorithm a : Roads::algorithms) {
      graph::GraphPlannerOptions options;
      options.algorithm = a;
      roads->planners.push_back(std::make_unique<graph::GraphPlanner>(g, options));
    }
    json vertices = json::array();
    for (std::size_t i = 0; i < g.node_count(); ++i) {
      const Vec3 p = g.position(g.node_at(i));
      vertices.push_back({p.x, p.y});
    }
    json edges = json::array();
    for (std::size_t i = 0; i < g.node_count(); ++i) {
      const VertexId v = g.node_at(i);
      for (const VertexId w : g.targets(v))
        if (v.value < w.value) edges.push_back({v.value, w.value});  // undirected: each edge once
    }
    roads->picture = text_of(json{{"name", Roads::name}, {"vertices", vertices}, {"edges", edges}});
    roads_ = std::move(roads);
  });
  return *roads_;
}

Response Api::graph(std::string_view name) const {
  return guarded([&] {
    if (name != Roads::name) throw ApiError(http_not_found, "no bundled graph \"" + std::string(name) + "\" (oldenburg)");
    return Response{http_ok, roads().picture};
  });
}

namespace {

/// Keeps the vertices a search settled (its expand events), in order, up to a limit.
class SettledVertices final : public search::EventSink<VertexId> {
 public:
  explicit SettledVertices(std::size_t limit) : limit_(limit) {}
  void on_event(const search::Event<VertexId>& e) override {
    if (e.kind != search::EventKind::expand) return;
    if (settled.size() == limit_) {
      truncated = true;
      return;
    }
    settled.push_back(e.node.value);
  }
  std::vector<std::uint32_t> settled;
  bool truncated = false;

 private:
  std::size_t limit_;
};

}  // namespace

Response Api::route(std::string_view body) const {
  return guarded([&] {
    const json request = request_object(body, limits_);
    const std::string name = text_field(request, "graph", Roads::name);
    if (name != Roads::name) throw ApiError(http_not_found, "no bundled graph \"" + name + "\" (oldenburg)");
    const Roads& r = roads();
    const int last = static_cast<int>(r.loaded.graph.node_count()) - 1;
    const VertexId from{static_cast<std::uint32_t>(whole_number(field(request, "from"), 0, last, "\"from\""))};
    const VertexId to{static_cast<std::uint32_t>(whole_number(field(request, "to"), 0, last, "\"to\""))};
    std::vector<std::size_t> chosen;
    if (const auto it = request.find("algorithms"); it != request.end() && !it->is_null()) {
      if (!it->is_array() || it->empty()) throw ApiError(http_bad_request, "\"algorithms\" must be a non-empty array of names");
      for (const json& a : *it) {
        const auto alg = a.is_string() ? graph::parse_algorithm(a.get<std::string>()) : std::nullopt;
        const auto at = alg ? std::find(Roads::algorithms.begin(), Roads::algorithms.end(), *alg) : Roads::algorithms.end();
        if (at == Roads::algorithms.end())
          throw ApiError(http_bad_request, "\"algorithms\" takes dijkstra, bidijkstra, astar, alt and ch");
        chosen.push_back(static_cast<std::size_t>(at - Roads::algorithms.begin()));
      }
    } else {
      for (std::size_t i = 0; i < Roads::algorithms.size(); ++i) chosen.push_back(i);
    }
    json results = json::array();
    for (const std::size_t i : chosen) {
      const graph::GraphPlanner& planner = *r.planners[i];
      // Timed without events, then once more recording the settled vertices.
      search::SearchHandle<VertexId> timed = planner.make_search();
      const Status st = search::run_within(timed, from, to, time_budget(limits_.max_query_seconds));
      SettledVertices settled(limits_.max_events);
      search::QueryOptions<VertexId> traced;
      traced.events = &settled;
      search::SearchHandle<VertexId> replay = planner.make_search(traced);
      search::run_within(replay, from, to, time_budget(limits_.max_query_seconds));
      json path = json::array();
      for (const VertexId v : timed.path().nodes) path.push_back(v.value);
      json result = {{"algorithm", graph::to_string(Roads::algorithms[i])},
                     {"cost", st.succeeded() ? json(timed.path().cost) : json(nullptr)},
                     {"path", path},
                     {"settled", settled.settled},
                     {"settled_truncated", settled.truncated},
                     {"expanded", timed.stats().expanded},
                     {"time_us", timed.stats().time_s * microseconds_per_second}};
      put_status(result, st);
      results.push_back(std::move(result));
    }
    return Response{http_ok, text_of(json{{"graph", Roads::name}, {"from", from.value}, {"to", to.value}, {"results", results}})};
  });
}

// ---- navmeshes ---------------------------------------------------------------------------

struct Api::Level {
  navmesh::NavMesh mesh;
  std::string picture;  ///< GET /api/navmesh's answer, made once
};

std::shared_ptr<const Api::Level> Api::level(const std::string& name) const {
  const auto file = bundled_file(mesh_names_, name, data_dir_ / "meshes", ".obj", "level");
  const std::lock_guard lock(levels_mutex_);  // one build at a time; later requests share it
  if (const auto it = levels_.find(name); it != levels_.end()) return it->second;
  const TriangleMesh model = io::load_obj(file.string());
  auto level = std::make_shared<Level>(Level{recast::build_nav_mesh(model), {}});
  const navmesh::NavMesh& mesh = level->mesh;
  json vertices = json::array();
  for (const Vec3& v : mesh.vertices()) vertices.push_back({v.x, v.y, v.z});
  json polys = json::array();
  json portals = json::array();
  for (std::size_t i = 0; i < mesh.poly_count(); ++i) {
    const PolyId p{static_cast<std::uint32_t>(i)};
    const auto corners = mesh.corners(p);
    polys.push_back(corners);
    const auto neighbors = mesh.neighbors(p);
    for (std::size_t k = 0; k < corners.size(); ++k) {
      if (neighbors[k].valid() && neighbors[k].value > p.value)  // each portal once
        portals.push_back({corners[k], corners[(k + 1) % corners.size()]});
    }
  }
  const Aabb3& b = mesh.bounds();
  level->picture = text_of(json{{"name", name},
                                {"bounds", {{b.min.x, b.min.y, b.min.z}, {b.max.x, b.max.y, b.max.z}}},
                                {"vertices", vertices},
                                {"polys", polys},
                                {"portals", portals}});
  levels_.emplace(name, level);
  return level;
}

Response Api::navmesh(std::string_view name) const {
  return guarded([&] { return Response{http_ok, level(std::string(name))->picture}; });
}

namespace {

/// A point on a level: [x, y, z], or [x, z] in plan (then the height is found: the polygon
/// under or over it nearest the middle of the level's height).
Vec3 level_point(const json& request, const char* key, const navmesh::NavMesh& mesh) {
  const json& v = field(request, key);
  const std::string what = std::string("\"") + key + "\"";
  if (!v.is_array() || (v.size() != 2 && v.size() != 3) ||
      !std::all_of(v.begin(), v.end(), [](const json& c) { return c.is_number() && std::isfinite(c.get<double>()); }))
    throw ApiError(http_bad_request, what + " must be [x, y, z] or [x, z], finite numbers");
  if (v.size() == 3) return {v[0].get<double>(), v[1].get<double>(), v[2].get<double>()};
  const Aabb3& b = mesh.bounds();
  const Vec3 centre{v[0].get<double>(), 0.5 * (b.min.y + b.max.y), v[1].get<double>()};
  constexpr double plan_tolerance = 0.5;  // world units around the click
  const auto nearest = mesh.nearest_poly(centre, {plan_tolerance, 0.5 * (b.max.y - b.min.y) + 1, plan_tolerance});
  if (!nearest) throw ApiError(http_bad_request, what + " is not on the mesh");
  return nearest->point;
}

json nav_path_json(const navmesh::NavPath& path, const SearchStats& stats) {
  json corners = json::array();
  for (const Vec3& c : path.corners) corners.push_back({c.x, c.y, c.z});
  json j = {{"partial", path.status.has(StatusDetail::partial_result)},
            {"length", path.length},
            {"corners", corners},
            {"polys", path.polys.size()},
            {"expanded", stats.expanded},
            {"time_us", stats.time_s * microseconds_per_second}};
  put_status(j, path.status);
  return j;
}

}  // namespace

Response Api::navmesh_path(std::string_view body) const {
  return guarded([&] {
    const json request = request_object(body, limits_);
    const auto lvl = level(text_field(request, "mesh", "nav_test"));
    const Vec3 from = level_point(request, "from", lvl->mesh);
    const Vec3 to = level_point(request, "to", lvl->mesh);
    json reply = {{"from", {from.x, from.y, from.z}}, {"to", {to.x, to.y, to.z}}};
    for (const navmesh::NavMode mode : {navmesh::NavMode::shortest, navmesh::NavMode::funnel}) {
      navmesh::NavQueryOptions options;
      options.mode = mode;
      options.query.partial_result = true;  // the page draws partial paths
      navmesh::NavMeshQuery query(lvl->mesh, options);
      query.begin(from, to);
      query.step(time_budget(limits_.max_query_seconds));
      reply[std::string(name_of(navmesh::nav_mode_names, mode))] = nav_path_json(query.path(), query.stats());
    }
    return Response{http_ok, text_of(reply)};
  });
}

// ---- regions -----------------------------------------------------------------------------

Response Api::regions(std::string_view body) const {
  return guarded([&] {
    const json request = request_object(body, limits_);
    const grid::GridMap map = request_map(field(request, "map"), map_names_, data_dir_, limits_, false);
    const json& seeds_json = field(request, "seeds");
    if (!seeds_json.is_array() || seeds_json.empty() || seeds_json.size() > limits_.max_region_seeds)
      throw ApiError(http_bad_request,
                     "\"seeds\" must be 1 to " + std::to_string(limits_.max_region_seeds) + " cells [x, y]");
    std::vector<CellCoord> seeds;
    for (std::size_t i = 0; i < seeds_json.size(); ++i) {
      const json& c = seeds_json[i];
      const std::string what = "\"seeds\"[" + std::to_string(i) + "]";
      if (!c.is_array() || c.size() != 2) throw ApiError(http_bad_request, what + " must be [x, y]");
      seeds.push_back({whole_number(c[0], 0, map.width() - 1, what + "[0]"), whole_number(c[1], 0, map.height() - 1, what + "[1]")});
    }
    if (const auto problem = regions::find_seed_problem(map, seeds))
      throw ApiError(http_bad_request, "seed " + std::to_string(problem->index + 1) + ": " + problem->reason);
    regions::GridRegionParams params;
    const std::string metric = text_field(request, "metric", "geodesic");
    if (metric != "geodesic" && metric != "euclidean") throw ApiError(http_bad_request, "\"metric\" is geodesic or euclidean");
    params.metric = metric == "geodesic" ? regions::Metric::geodesic : regions::Metric::euclidean;
    const std::string diagonal = text_field(request, "diagonal", "no-corner-cutting");
    const auto rule = grid::parse_diagonal_rule(diagonal);
    if (!rule) throw ApiError(http_bad_request, "unknown diagonal rule \"" + diagonal + "\"");
    params.diagonal = *rule;
    const auto started = std::chrono::steady_clock::now();
    const regions::Regions r = regions::label_grid(map, seeds, params);
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
    json labels = json::array();
    for (const regions::RegionId id : r.labels()) labels.push_back(id == regions::no_region ? -1 : static_cast<std::int64_t>(id));
    return Response{http_ok, text_of(json{{"regions", r.region_count()},
                                          {"width", map.width()},
                                          {"height", map.height()},
                                          {"labels", labels},
                                          {"sizes", r.sizes()},
                                          {"time_us", us}})};
  });
}

// ---- points of visibility -----------------------------------------------------------------

namespace {

json points_json(std::span<const Vec2> points) {
  json a = json::array();
  for (const Vec2& p : points) a.push_back({p.x, p.y});
  return a;
}

Vec2 plane_point(const json& object, const char* key) {
  const json& v = field(object, key);
  if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number())
    throw ApiError(http_bad_request, std::string("\"") + key + "\" must be [x, y]");
  return {v[0].get<double>(), v[1].get<double>()};
}

}  // namespace

Response Api::visibility(std::string_view body) const {
  return guarded([&] {
    const json request = request_object(body, limits_);
    const std::string name = text_field(request, "name", "rooms");
    const io::PolygonFile file =
        io::load_polygons(bundled_file(polygon_names_, name, data_dir_ / "polygons", ".json", "polygon file").string());
    visibility::VisibilityParams params;
    params.radius = number_field(request, "radius", 0.5);
    if (!(params.radius >= 0 && params.radius <= limits_.max_agent_radius))
      throw ApiError(http_bad_request, "\"radius\" must be from 0 to " + std::to_string(limits_.max_agent_radius));
    std::optional<visibility::VisibilityGraph> graph;
    try {
      graph.emplace(file.obstacles, params);
    } catch (const visibility::InputError& e) {
      throw ApiError(http_bad_request, file.error(e).what());
    }
    json obstacles = json::array();
    for (std::uint32_t i = 0; i < graph->obstacle_count(); ++i) obstacles.push_back(points_json(graph->obstacle(i)));
    json parts = json::array();
    for (std::uint32_t i = 0; i < graph->part_count(); ++i) parts.push_back(points_json(graph->part(i)));
    json edges = json::array();
    for (std::uint32_t i = 0; i < graph->point_count(); ++i)
      for (const visibility::VisibilityArc& arc : graph->arcs(i))
        if (i < arc.to) edges.push_back({i, arc.to});
    json reply = {{"name", name},
                  {"radius", params.radius},
                  {"obstacles", obstacles},
                  {"parts", parts},
                  {"points", points_json(graph->points())},
                  {"edges", edges}};
    if (const auto& b = graph->bounds()) reply["bounds"] = {{b->min.x, b->min.y}, {b->max.x, b->max.y}};
    if (request.contains("from") || request.contains("to")) {
      visibility::VisibilityQuery query(*graph);
      query.begin(plane_point(request, "from"), plane_point(request, "to"));
      query.step(time_budget(limits_.max_query_seconds));
      const visibility::VisibilityPath& path = query.path();
      json result = {{"points", points_json(path.points)},
                     {"length", path.length},
                     {"expanded", query.stats().expanded},
                     {"time_us", query.stats().time_s * microseconds_per_second}};
      put_status(result, path.status);
      reply["path"] = result;
    }
    return Response{http_ok, text_of(reply)};
  });
}

// ---- live simulations --------------------------------------------------------------------

struct Api::Session {
  std::mutex mutex;  ///< one request at a time steps or grows it
  std::unique_ptr<steer::Simulation> sim;
  double dt = 0.05;
  /// When a request last touched it (steady_clock ticks): read by other sessions' starts
  /// without this session's mutex, hence atomic.
  std::atomic<std::chrono::steady_clock::rep> used{0};
  void touch() { used = std::chrono::steady_clock::now().time_since_epoch().count(); }
};

namespace {

using SimClock = std::chrono::steady_clock;
/// The largest agent a page may add (cells) and its top speed (cells per second).
constexpr double max_sim_agent_radius = 4;
constexpr double max_sim_agent_speed = 100;

/// Plans waiting paths until none waits or `seconds` have passed. One plan_pending call is one
/// frame of the request queue (a turn for each of a few searches), so it takes many calls.
void plan_within(steer::Simulation& sim, double seconds) {
  const auto end = SimClock::now() + std::chrono::duration_cast<SimClock::duration>(std::chrono::duration<double>(seconds));
  for (auto left = end - SimClock::now(); left > SimClock::duration::zero(); left = end - SimClock::now()) {
    if (sim.plan_pending(search::Budget::of_time(left)) == 0) return;
  }
}

/// A point of the map in world units (cell (x, y) spans [x, x+1) × [y, y+1)) on a passable cell.
Vec2 sim_point(const json& object, const char* key, const grid::GridMap& map) {
  const Vec2 p = plane_point(object, key);
  if (!(p.x >= 0 && p.y >= 0 && p.x < map.width() && p.y < map.height()) ||
      !map.passable(static_cast<int>(p.x), static_cast<int>(p.y)))
    throw ApiError(http_bad_request, std::string("\"") + key + "\" is outside the map or on a blocked cell");
  return p;
}

/// The agent as the page draws it: [x, y, arrived (0/1)].
json sim_state(const steer::Simulation& sim) {
  json agents = json::array();
  for (std::size_t i = 0; i < sim.size(); ++i) {
    const steer::AgentId id{static_cast<std::uint32_t>(i)};
    const Vec2 p = sim.state(id).position;
    agents.push_back({p.x, p.y, sim.arrived(id) ? 1 : 0});
  }
  const steer::SimulationStats& s = sim.stats();
  return {{"tick", s.ticks},
          {"agents", agents},
          {"stats",
           {{"agents", sim.size()},
            {"arrived", s.arrived},
            {"waiting", sim.waiting_for_paths()},
            {"collisions", s.collisions},
            {"min_clearance", std::isfinite(s.min_clearance) ? s.min_clearance : sim.params().clearance_cap},
            {"mean_tick_us", s.mean_tick_us()}}}};
}

void add_sim_agent(steer::Simulation& sim, const json& agent, std::size_t max_agents) {
  if (!agent.is_object()) throw ApiError(http_bad_request, "an agent must be {\"start\": [x, y], \"goal\": [x, y]}");
  if (sim.size() >= max_agents)
    throw ApiError(http_too_large, "a simulation holds at most " + std::to_string(max_agents) + " agents");
  steer::AgentParams params;
  params.radius = number_field(agent, "radius", params.radius);
  params.max_speed = number_field(agent, "max_speed", params.max_speed);
  if (!params.valid() || params.radius > max_sim_agent_radius || params.max_speed > max_sim_agent_speed)
    throw ApiError(http_bad_request, "agent radius must be in (0, " + std::to_string(max_sim_agent_radius) +
                                         "] cells and max_speed in (0, " + std::to_string(max_sim_agent_speed) + "] cells/s");
  const Vec2 start = sim_point(agent, "start", *sim.map());
  const Vec2 goal = sim_point(agent, "goal", *sim.map());
  sim.add_agent(params, start, goal);
}

}  // namespace

namespace {

std::uint64_t session_id(const json& request) {
  const json& id = field(request, "id");
  if (!id.is_number_unsigned()) throw ApiError(http_bad_request, "\"id\" must be the number /api/sim/start gave");
  return id.get<std::uint64_t>();
}

}  // namespace

std::shared_ptr<Api::Session> Api::session(std::uint64_t id) const {
  const std::lock_guard lock(sessions_mutex_);
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) throw ApiError(http_not_found, "no simulation " + std::to_string(id) + " (stopped, or idle too long)");
  return it->second;
}

Response Api::sim_start(std::string_view body) const {
  return guarded([&] {
    const json request = request_object(body, limits_);
    const auto idle = std::chrono::duration_cast<SimClock::duration>(std::chrono::duration<double>(limits_.sim_idle_seconds));
    const auto full = [&] {  // under sessions_mutex_: drops idle simulations, then says whether there is room
      const SimClock::rep now = SimClock::now().time_since_epoch().count();
      std::erase_if(sessions_, [&](const auto& entry) { return now - entry.second->used.load() > idle.count(); });
      return sessions_.size() >= limits_.max_simulations;
    };
    const std::string too_many = "the server runs " + std::to_string(limits_.max_simulations) +
                                 " simulations already; stop one (POST /api/sim/stop)";
    {
      const std::lock_guard lock(sessions_mutex_);
      if (full()) throw ApiError(http_too_many, too_many);  // before any work
    }
    steer::SimulationParams params;
    params.seed = static_cast<std::uint64_t>(
        whole_number(request.contains("seed") ? request["seed"] : json(1), 0, INT32_MAX, "\"seed\""));
    auto session = std::make_shared<Session>();
    session->dt = number_field(request, "dt", 0.05);
    if (!(session->dt > 0 && session->dt <= 1)) throw ApiError(http_bad_request, "\"dt\" must be in (0, 1] seconds");
    grid::GridMap map = request_map(field(request, "map"), map_names_, data_dir_, limits_, false);
    if (map.cell_count() > limits_.max_sim_map_cells)
      throw ApiError(http_too_large, "a simulation runs on at most " + std::to_string(limits_.max_sim_map_cells) + " cells");
    session->sim = std::make_unique<steer::Simulation>(std::move(map), params);
    if (const auto it = request.find("agents"); it != request.end()) {
      if (!it->is_array()) throw ApiError(http_bad_request, "\"agents\" must be an array");
      for (const json& agent : *it) add_sim_agent(*session->sim, agent, limits_.max_sim_agents);
    }
    // Paths planned within the query time budget; what is left, ticks plan (planning_budget each).
    plan_within(*session->sim, limits_.max_query_seconds);
    session->touch();
    // The reply is made before the session is published: from then on other requests may change it.
    json reply = sim_state(*session->sim);
    reply["width"] = session->sim->map()->width();
    reply["height"] = session->sim->map()->height();
    {
      const std::lock_guard lock(sessions_mutex_);
      if (full()) throw ApiError(http_too_many, too_many);
      reply["id"] = next_session_;
      sessions_.emplace(next_session_++, session);
    }
    return Response{http_ok, text_of(reply)};
  });
}

Response Api::sim_step(std::string_view body) const {
  return guarded([&] {
    const json request = request_object(body, limits_);
    const std::shared_ptr<Session> s = session(session_id(request));
    const int ticks = whole_number(request.contains("ticks") ? request["ticks"] : json(1), 1,
                                   limits_.max_sim_ticks_per_request, "\"ticks\"");
    const std::lock_guard lock(s->mutex);
    for (int i = 0; i < ticks; ++i) s->sim->step(s->dt);
    s->touch();
    return Response{http_ok, text_of(sim_state(*s->sim))};
  });
}

Response Api::sim_add(std::string_view body) const {
  return guarded([&] {
    const json request = request_object(body, limits_);
    const std::shared_ptr<Session> s = session(session_id(request));
    const std::lock_guard lock(s->mutex);
    add_sim_agent(*s->sim, request, limits_.max_sim_agents);
    plan_within(*s->sim, limits_.max_query_seconds);
    s->touch();
    return Response{http_ok, text_of(sim_state(*s->sim))};
  });
}

Response Api::sim_stop(std::string_view body) const {
  return guarded([&] {
    const std::shared_ptr<Session> s = session(session_id(request_object(body, limits_)));
    const std::lock_guard lock(sessions_mutex_);
    std::erase_if(sessions_, [&](const auto& entry) { return entry.second == s; });
    return Response{http_ok, text_of(json{{"stopped", true}})};
  });
}

Response Api::handle(const Request& request) const {
  const auto only = [&](const char* method) {
    if (request.method != method)
      throw ApiError(http_method_not_allowed, request.path + " takes " + method + ", not " + request.method);
  };
  return guarded([&] {
    if (request.path == "/api/maps") {
      only("GET");
      return maps();
    }
    if (request.path == "/api/map") {
      only("GET");
      const auto it = request.params.find("name");
      if (it == request.params.end()) throw ApiError(http_bad_request, "/api/map needs ?name=");
      return map(it->second);
    }
    if (request.path == "/api/path") {
      only("POST");
      return path(request.body);
    }
    if (request.path == "/api/puzzle") {
      only("POST");
      return puzzle(request.body);
    }
    if (request.path == "/api/graph") {
      only("GET");
      const auto it = request.params.find("name");
      return graph(it == request.params.end() ? Roads::name : it->second);
    }
    if (request.path == "/api/navmesh") {
      only("GET");
      const auto it = request.params.find("name");
      return navmesh(it == request.params.end() ? "nav_test" : it->second);
    }
    if (request.path == "/api/navmesh/path") {
      only("POST");
      return navmesh_path(request.body);
    }
    if (request.path == "/api/visibility") {
      only("POST");
      return visibility(request.body);
    }
    if (request.path == "/api/regions") {
      only("POST");
      return regions(request.body);
    }
    if (request.path.starts_with("/api/sim/")) {
      only("POST");
      const std::string verb = request.path.substr(9);
      if (verb == "start") return sim_start(request.body);
      if (verb == "step") return sim_step(request.body);
      if (verb == "add") return sim_add(request.body);
      if (verb == "stop") return sim_stop(request.body);
    }
    if (request.path == "/api/route") {
      only("POST");
      return route(request.body);
    }
    throw ApiError(http_not_found, "no API " + request.path);
  });
}

}  // namespace waymark::web
