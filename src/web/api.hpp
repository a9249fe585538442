#pragma once
// The viewer's JSON API (`waymark serve`), without the HTTP server: a request in, a status
// and a JSON body out. Kept apart from the HTTP server so tests and the fuzz target call it
// directly. Not installed: it is the CLI's, not the library's.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace waymark::navmesh {
class NavMesh;
}

namespace waymark::web {

class SessionStore;
class NavSessionStore;

/// What one request may ask for. Every size is checked before anything is allocated for it.
struct ApiLimits {
  /// Largest request body, bytes (the server answers 413 beyond it). 16 MiB holds a 4096²
  /// map spelled as rows.
  std::size_t max_body_bytes = std::size_t{16} << 20;
  /// Largest map a request may send or name, cells (413 beyond it).
  std::size_t max_map_cells = std::size_t{1} << 22;
  /// Longest map side, cells.
  int max_map_side = 4096;
  /// Events kept for one traced query; later ones are dropped and "events_truncated" is set.
  /// About 70 bytes of JSON each.
  std::size_t max_events = 500'000;
  /// Wall time one query may search before it stops with reason "time-limit", seconds.
  double max_query_seconds = 5.0;
  /// Most states an A* puzzle solve may hold (about 60 bytes each): every 8-puzzle board fits
  /// (181,440); a hard 15-puzzle stops with reason "out-of-nodes" (IDA* needs no such limit).
  std::size_t max_puzzle_states = std::size_t{1} << 21;
  /// Live simulations the server keeps at once (429 beyond, once idle ones are dropped), the
  /// agents each may hold, the ticks one step request may ask for, and how long an untouched
  /// simulation is kept.
  std::size_t max_simulations = 16;
  std::size_t max_sim_agents = 1000;
  /// Largest map a simulation may run on, cells: a kept simulation holds its map and planner
  /// (about 40 bytes per cell), so this times max_simulations bounds what sessions can pin.
  std::size_t max_sim_map_cells = std::size_t{1} << 20;
  /// Obstacles a page may drop into one simulation (POST /api/sim/obstacle).
  std::size_t max_sim_obstacles = 256;
  int max_sim_ticks_per_request = 200;
  /// Wall time one simulation request may spend ticking and planning, seconds: a step stops
  /// after the tick that reaches it and answers the ticks done ("ticks_done", "stopped":
  /// "time-limit"), always at least one, so a page always progresses; start, add and order
  /// plan paths for as long (the rest are planned by the ticks, within their planning budget).
  /// A step overshoots by at most one tick: 1,000 agents stacked on one cell tick in 0.03-0.23 s
  /// (release build; 0.3 s under ASan; the first tick the slowest; docs/viewer.md), so no tick
  /// needs a bound of its own.
  double max_sim_seconds = 1.0;
  double sim_idle_seconds = 600;
  /// Bundled levels pages edit at once (POST /api/navmesh/obstacle), each its own carvable
  /// copy of the level (every tile's compact heightfield: "kept_bytes" in its answers, about
  /// 1.7 MB for nav_test), so this times the largest level bounds what they can pin; they go
  /// after sim_idle_seconds untouched, as simulations do.
  std::size_t max_navmesh_sessions = 8;
  /// Obstacles one such level may hold, and the largest radius, height or box side of one
  /// (world units): an obstacle rebuilds only the tiles it touches, so this bounds a request's work.
  std::size_t max_navmesh_obstacles = 32;
  double max_navmesh_obstacle_size = 20;
  /// The share of max_simulations and of max_navmesh_sessions one client (a remote address)
  /// may keep, rounded down but at least one: 8 simulations and 4 edited levels by default, so
  /// that one client cannot hold every slot for sim_idle_seconds (429 beyond it, naming this).
  /// A call without a client (Request::client empty: a program calling the API itself) has no
  /// share of its own. [Limit: (0, 1]]
  double max_client_session_share = 0.5;
  /// Most entries a route request's "algorithms" may list (POST /api/route): room for each
  /// of the five algorithms and a few repeats, which run once each (the list is deduplicated,
  /// first-seen order kept). A longer list is refused (400) before any search runs.
  std::size_t max_route_algorithms = 8;
  /// Most seeds one regions request may give.
  std::size_t max_region_seeds = 1024;
  /// Largest agent radius a visibility request may give, world units.
  double max_agent_radius = 10;
};

struct Request {
  std::string method;                         ///< "GET", "POST"
  std::string path;                           ///< "/api/path"
  std::map<std::string, std::string> params;  ///< query string
  std::string body;
  /// Who asks: the server gives the remote address, numeric; sessions are shared out by it
  /// (ApiLimits::max_client_session_share). Empty: no client of its own.
  std::string client;
};

struct Response {
  int status = 200;  ///< HTTP status: 200, 400 bad request, 404, 405, 413 too large, 429, 503 out of memory
  std::string body;  ///< JSON; errors are {"error": "reason"}
};

/// The API. const and thread-safe: the server calls it from its worker threads at once.
/// handle() routes a request by the route table (src/web/api.cpp); each resource's handlers
/// live in a file of their own (src/web/*_resource.cpp), matching the page's views.
///
///   GET  /api/maps             the bundled maps (DATA/maps/*.map) and the names the other
///                              requests accept (algorithms, heuristics, diagonal rules)
///   GET  /api/map?name=arena   one bundled map as rows
///   POST /api/path             a grid path query (docs/viewer.md has every field)
///   POST /api/puzzle           an optimal sliding-tile solution (2x2, 3x3 or 4x4)
///   GET  /api/graph?name=oldenburg   the bundled road graph's vertices and edges
///   POST /api/route            one road query by several algorithms, each with the vertices
///                              it settled
///   GET  /api/navmesh?name=nav_test  a bundled level's navmesh (DATA/meshes/*.obj, built by
///                              Recast on first use)
///   POST /api/navmesh/path     the shortest and the funnel path between two points of it
///                              (of an edited copy of it when given a "session")
///   POST /api/navmesh/obstacle | obstacle/remove | stop   a copy of a bundled level, kept by
///                              the server, on which a page drops obstacles that carve it
///   POST /api/regions          Dirichlet regions of a grid map from clicked seeds
///   POST /api/visibility       points of visibility among a bundled polygon file's obstacles
///                              (DATA/polygons/*.json) for an agent radius, and a path
///   POST /api/sim/start | step | add | stop   a live steering simulation on a grid map or a
///                              bundled level's navmesh, kept by the server between requests
///   POST /api/sim/edit | obstacle | order | world   while it runs: block or open cells (doors),
///                              drop or take away obstacles (crates), give agents orders (a new
///                              goal, stop, resume, remove), and read its world back
class Api {
 public:
  /// `data_dir` holds maps/ (bundled Moving AI maps); a missing folder means no bundled maps.
  explicit Api(std::filesystem::path data_dir, ApiLimits limits = {});
  ~Api();
  Api(const Api&) = delete;
  Api& operator=(const Api&) = delete;

  /// The bundled road graph and level GET /api/graph and /api/navmesh show without ?name=.
  static constexpr const char* default_graph = "oldenburg";
  static constexpr const char* default_level = "nav_test";

  [[nodiscard]] Response handle(const Request& request) const;

  [[nodiscard]] Response maps() const;
  [[nodiscard]] Response map(std::string_view name) const;
  [[nodiscard]] Response path(std::string_view body) const;
  [[nodiscard]] Response puzzle(std::string_view body) const;
  [[nodiscard]] Response graph(std::string_view name) const;
  [[nodiscard]] Response route(std::string_view body) const;
  [[nodiscard]] Response navmesh(std::string_view name) const;
  [[nodiscard]] Response navmesh_path(std::string_view body) const;
  /// `client`: who starts a new edited level (Request::client).
  [[nodiscard]] Response navmesh_obstacle(std::string_view body, std::string_view client = {}) const;
  [[nodiscard]] Response navmesh_obstacle_remove(std::string_view body) const;
  [[nodiscard]] Response navmesh_stop(std::string_view body) const;
  [[nodiscard]] Response regions(std::string_view body) const;
  [[nodiscard]] Response visibility(std::string_view body) const;
  /// `client`: who starts it (Request::client).
  [[nodiscard]] Response sim_start(std::string_view body, std::string_view client = {}) const;
  [[nodiscard]] Response sim_step(std::string_view body) const;
  [[nodiscard]] Response sim_add(std::string_view body) const;
  [[nodiscard]] Response sim_stop(std::string_view body) const;
  [[nodiscard]] Response sim_edit(std::string_view body) const;
  [[nodiscard]] Response sim_obstacle(std::string_view body) const;
  [[nodiscard]] Response sim_order(std::string_view body) const;
  [[nodiscard]] Response sim_world(std::string_view body) const;

  [[nodiscard]] const ApiLimits& limits() const { return limits_; }

  /// A bundled level's tiled navmesh, built on first use (src/web/navmesh_level.hpp; named
  /// here for the sessions that edit a copy of one).
  struct Level;

 private:
  std::filesystem::path data_dir_;
  ApiLimits limits_;
  std::vector<std::string> map_names_;  ///< sorted stems of DATA/maps/*.map
  std::vector<std::string> mesh_names_;     ///< sorted stems of DATA/meshes/*.obj
  std::vector<std::string> polygon_names_;  ///< sorted stems of DATA/polygons/*.json
  std::string maps_reply_;  ///< GET /api/maps's answer, made once (the folders are read once)

  struct Roads;  ///< the road graph and a planner per algorithm, built on first use
  [[nodiscard]] const Roads& roads() const;
  mutable std::once_flag roads_once_;
  mutable std::shared_ptr<const Roads> roads_;

  [[nodiscard]] std::shared_ptr<const Level> level(const std::string& name) const;
  /// The level's navmesh, sharing the level's ownership (a simulation on it keeps it).
  [[nodiscard]] std::shared_ptr<const navmesh::NavMesh> level_mesh(const std::string& name) const;
  mutable std::mutex levels_mutex_;
  mutable std::map<std::string, std::shared_ptr<const Level>> levels_;

  std::unique_ptr<SessionStore> sessions_;  ///< the live simulations (src/web/session_store.hpp)
  std::unique_ptr<NavSessionStore> nav_sessions_;  ///< the edited levels (src/web/navmesh_level.hpp)
};

}  // namespace waymark::web
