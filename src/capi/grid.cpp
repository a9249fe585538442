/// The C API's grids, planners and searches (waymark.h): thin wrappers over grid::GridMap,
/// grid::GridPlanner and search::SearchHandle, checking every argument before the C++ side
/// sees it.

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "errors.hpp"
#include "handles.hpp"
#include "objects.hpp"
#include "search_pool.hpp"
#include "waymark/core/enum_names.hpp"
#include "waymark/core/text.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/events.hpp"
#include "waymark/search/request_queue.hpp"
#include "waymark/waymark.h"

namespace waymark::capi {
namespace {

using waymark::CellId;
using Search = search::SearchHandle<CellId>;

// The C enums are the C++ ones' fixed values.
static_assert(static_cast<int>(grid::DiagonalRule::never) == WM_DIAGONAL_NEVER);
static_assert(static_cast<int>(grid::DiagonalRule::always) == WM_DIAGONAL_ALWAYS);
static_assert(static_cast<int>(grid::DiagonalRule::at_most_one_obstacle) == WM_DIAGONAL_AT_MOST_ONE_OBSTACLE);
static_assert(static_cast<int>(grid::DiagonalRule::no_corner_cutting) == WM_DIAGONAL_NO_CORNER_CUTTING);
static_assert(static_cast<int>(grid::HeuristicKind::manhattan) == WM_HEURISTIC_MANHATTAN);
static_assert(static_cast<int>(grid::HeuristicKind::octile) == WM_HEURISTIC_OCTILE);
static_assert(static_cast<int>(grid::HeuristicKind::euclidean) == WM_HEURISTIC_EUCLIDEAN);
static_assert(static_cast<int>(grid::HeuristicKind::chebyshev) == WM_HEURISTIC_CHEBYSHEV);
static_assert(static_cast<int>(grid::HeuristicKind::zero) == WM_HEURISTIC_ZERO);
static_assert(static_cast<int>(search::EventKind::begin) == WM_EVENT_BEGIN);
static_assert(static_cast<int>(search::EventKind::open) == WM_EVENT_OPEN);
static_assert(static_cast<int>(search::EventKind::expand) == WM_EVENT_EXPAND);
static_assert(static_cast<int>(search::EventKind::close) == WM_EVENT_CLOSE);
static_assert(static_cast<int>(search::EventKind::goal) == WM_EVENT_GOAL);
static_assert(static_cast<int>(search::EventKind::end) == WM_EVENT_END);
static_assert(static_cast<int>(search::EventKind::slice_end) == WM_EVENT_SLICE_END);
static_assert(WM_MAX_GRID_CELLS == io::default_max_map_cells);

struct PlannerObject final : Object {
  PlannerObject(std::shared_ptr<GridObject> g, const grid::GridPlannerOptions& options)
      : grid(std::move(g)), planner(grid->map, options) {}
  std::shared_ptr<GridObject> grid;
  grid::GridPlanner planner;
  SearchPool<Search> searches;  // wm_plan's
};

// A search's events, as C structs to a C function.
class EventBridge final : public search::EventSink<CellId> {
 public:
  EventBridge(const grid::GridMap& map, wm_event_fn fn, void* context) : map_(map), fn_(fn), context_(context) {}
  void on_event(const search::Event<CellId>& e) override {
    wm_event out{};
    out.kind = static_cast<int>(e.kind);
    out.has_cell = e.has_node && map_.contains(e.node) ? 1 : 0;
    out.has_parent = e.has_parent && map_.contains(e.parent) ? 1 : 0;
    if (out.has_cell != 0) {
      const grid::CellCoord c = map_.coord(e.node);
      out.x = c.x;
      out.y = c.y;
    }
    if (out.has_parent != 0) {
      const grid::CellCoord p = map_.coord(e.parent);
      out.parent_x = p.x;
      out.parent_y = p.y;
    }
    out.g = e.g;
    out.h = e.h;
    out.result = e.kind == search::EventKind::end ? result_of(e.status) : WM_OK;
    fn_(context_, &out);
  }

 private:
  const grid::GridMap& map_;
  wm_event_fn fn_;
  void* context_;
};

struct SearchObject final : Object {
  SearchObject(std::shared_ptr<PlannerObject> p, grid::Algorithm a, const search::QueryOptions<CellId>& q)
      : planner(std::move(p)), algorithm(a), query(q), handle(planner->planner.make_search(a, q)) {}
  std::shared_ptr<PlannerObject> planner;
  grid::Algorithm algorithm;
  search::QueryOptions<CellId> query;
  std::unique_ptr<EventBridge> events;
  Search handle;
  // The last query's ends, for the messages of wm_search_result.
  int sx = 0, sy = 0, gx = 0, gy = 0;
};


GridObject* grid_of(const wm_grid* g) { return find_as<GridObject>(g, Kind::grid); }
PlannerObject* planner_of(const wm_planner* p) { return find_as<PlannerObject>(p, Kind::planner); }
SearchObject* search_of(const wm_search* s) { return find_as<SearchObject>(s, Kind::search); }


std::string cell_text(int x, int y) { return pair_text(x, y); }
std::string size_text(const grid::GridMap& map) { return number_text(map.width()) + " x " + number_text(map.height()); }

// The code of a finished query, with its message when it failed.
int query_result(Status status, const grid::GridPlanner& planner, grid::Algorithm algorithm, int sx, int sy, int gx,
                 int gy) {
  const int code = result_of(status);
  if (code == WM_OK || code == WM_RUNNING) return code;
  std::string why(reason_name(status));
  if (code == WM_UNSUPPORTED) {
    if (const auto reason = planner.unsupported(algorithm)) why = *reason;
  }
  return fail(code, "no path from " + cell_text(sx, sy) + " to " + cell_text(gx, gy) + ": " + why);
}

// Copies a path into the caller's buffer (Detour's convention), or checks the buffer.
int check_buffer(const int* xy, int capacity) {
  if (capacity < 0) return fail(WM_ERROR_INVALID_ARGUMENT, "capacity is negative");
  if (xy == nullptr && capacity > 0) return null_argument("xy (with a capacity above 0)");
  return WM_OK;
}

int copy_path(const grid::GridMap& map, const Path<CellId>& path, int* xy, int capacity, int* count) {
  const std::size_t n = path.nodes.size();
  if (count != nullptr) *count = n > static_cast<std::size_t>(std::numeric_limits<int>::max()) ? std::numeric_limits<int>::max() : static_cast<int>(n);
  if (xy == nullptr) return WM_OK;
  const std::size_t fits = std::min(n, static_cast<std::size_t>(capacity));
  for (std::size_t i = 0; i < fits; ++i) {
    const grid::CellCoord c = map.coord(path.nodes[i]);
    xy[2 * i] = c.x;
    xy[2 * i + 1] = c.y;
  }
  if (fits < n) {
    return fail(WM_BUFFER_TOO_SMALL, "the path has " + number_text(n) + " cells, the buffer room for " + number_text(fits));
  }
  return WM_OK;
}

int algorithm_of(const char* name, grid::Algorithm fallback, grid::Algorithm& out) {
  if (name == nullptr) {
    out = fallback;
    return WM_OK;
  }
  const auto a = grid::parse_algorithm(name);
  if (!a) return fail(WM_ERROR_INVALID_ARGUMENT, "unknown algorithm " + quoted(name) + " (" + choices(grid::algorithm_names) + ")");
  out = *a;
  return WM_OK;
}

int query_options_of(const wm_query_options& in, search::QueryOptions<CellId>& out) {
  if (in.version != WM_QUERY_OPTIONS_VERSION) {
    return wrong_version("wm_query_options", in.version, WM_QUERY_OPTIONS_VERSION);
  }
  if (!(in.weight >= 1) || !std::isfinite(in.weight)) {
    return fail(WM_ERROR_INVALID_ARGUMENT, "weight is " + number_text(in.weight) + ", must be finite and >= 1");
  }
  out = {};
  out.weight = in.weight;
  out.max_nodes = static_cast<std::size_t>(in.max_nodes);
  out.partial_result = in.partial_result != 0;
  out.table = in.sparse_table != 0 ? search::NodeTableKind::sparse : search::NodeTableKind::dense;
  out.max_table_bytes = static_cast<std::size_t>(in.max_table_bytes);
  return WM_OK;
}

// WM_OUT_OF_BOUNDS for a query whose start or goal is not a cell of `map`, naming the first.
int ends_outside(const grid::GridMap& map, int sx, int sy, int gx, int gy) {
  const bool start_inside = map.in_bounds(sx, sy);
  return fail(WM_OUT_OF_BOUNDS, "no path from " + cell_text(sx, sy) + " to " + cell_text(gx, gy) + ": " +
                                    cell_text(start_inside ? gx : sx, start_inside ? gy : sy) + " is outside the " +
                                    size_text(map) + " grid");
}

int cell_arguments(const grid::GridMap& map, int x, int y) {
  if (!map.in_bounds(x, y)) {
    return fail(WM_OUT_OF_BOUNDS, cell_text(x, y) + " is outside the " + size_text(map) + " grid");
  }
  return WM_OK;
}

}  // namespace

int planner_options_of(const wm_planner_options& in, grid::GridPlannerOptions& o) {
  if (in.version != WM_PLANNER_OPTIONS_VERSION) {
    return wrong_version("wm_planner_options", in.version, WM_PLANNER_OPTIONS_VERSION);
  }
  o = {};
  if (const int rc = algorithm_of(in.algorithm, grid::Algorithm::astar, o.algorithm); rc != WM_OK) return rc;
  if (in.diagonal < WM_DIAGONAL_NEVER || in.diagonal > WM_DIAGONAL_NO_CORNER_CUTTING) {
    return fail(WM_ERROR_INVALID_ARGUMENT, "diagonal is " + number_text(in.diagonal) + ", not a WM_DIAGONAL_* value");
  }
  o.diagonal = static_cast<grid::DiagonalRule>(in.diagonal);
  if (in.heuristic != WM_HEURISTIC_DEFAULT) {
    if (in.heuristic < WM_HEURISTIC_MANHATTAN || in.heuristic > WM_HEURISTIC_ZERO) {
      return fail(WM_ERROR_INVALID_ARGUMENT, "heuristic is " + number_text(in.heuristic) + ", not a WM_HEURISTIC_* value");
    }
    o.heuristic = static_cast<grid::HeuristicKind>(in.heuristic);
  }
  return query_options_of(in.query, o.query);
}

}  // namespace waymark::capi

using namespace waymark;        // NOLINT: the C entry points below
using namespace waymark::capi;  // NOLINT

extern "C" {

// ---- grids ------------------------------------------------------------------------------------

int wm_grid_load(const char* movingai_map_path, wm_grid** out) {
  return guarded([&]() -> int {
    if (movingai_map_path == nullptr) return null_argument("movingai_map_path");
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    return hand_out(Kind::grid, std::make_shared<GridObject>(io::load_movingai_map(movingai_map_path)), out);
  });
}

int wm_grid_load_text(const char* text, size_t length, const char* name, wm_grid** out) {
  return guarded([&]() -> int {
    if (text == nullptr && length > 0) return null_argument("text");
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    std::istringstream in(std::string(text == nullptr ? "" : text, length));
    return hand_out(Kind::grid, std::make_shared<GridObject>(io::parse_movingai_map(in, name == nullptr ? "text" : name)), out);
  });
}

int wm_grid_from_cells(int width, int height, const unsigned char* blocked, wm_grid** out) {
  return guarded([&]() -> int {
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    if (width < 1 || height < 1 || width > WM_MAX_GRID_SIDE || height > WM_MAX_GRID_SIDE) {
      return fail(WM_ERROR_INVALID_ARGUMENT, "a grid of " + number_text(width) + " x " + number_text(height) +
                                                 " cells: each side must be 1 to " + number_text(WM_MAX_GRID_SIDE));
    }
    const std::size_t cells = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    if (cells > WM_MAX_GRID_CELLS) {
      return fail(WM_ERROR_LIMIT, "a grid of " + number_text(cells) + " cells: the limit is WM_MAX_GRID_CELLS, " +
                                      number_text(WM_MAX_GRID_CELLS));
    }
    if (blocked == nullptr) return null_argument("blocked");
    std::vector<std::uint8_t> passable(cells);
    for (std::size_t i = 0; i < cells; ++i) passable[i] = blocked[i] == 0 ? 1 : 0;
    return hand_out(Kind::grid, std::make_shared<GridObject>(grid::GridMap(width, height, std::move(passable), {})), out);
  });
}

int wm_grid_retain(wm_grid* g) { return retain_as(g, Kind::grid, "grid"); }
void wm_grid_release(wm_grid* g) { release_as(g, Kind::grid); }

int wm_grid_size(const wm_grid* g, int* width, int* height) {
  const GridObject* o = grid_of(g);
  if (o == nullptr) return invalid_handle("grid");
  if (width == nullptr || height == nullptr) return null_argument("width or height");
  *width = o->map.width();
  *height = o->map.height();
  return WM_OK;
}

int wm_grid_blocked(const wm_grid* g, int x, int y, int* blocked) {
  const GridObject* o = grid_of(g);
  if (o == nullptr) return invalid_handle("grid");
  if (blocked == nullptr) return null_argument("blocked");
  if (const int rc = cell_arguments(o->map, x, y); rc != WM_OK) return rc;
  *blocked = o->map.passable(x, y) ? 0 : 1;
  return WM_OK;
}

int wm_grid_set_blocked(wm_grid* g, int x, int y, int blocked) {
  return guarded([&]() -> int {
    GridObject* o = grid_of(g);
    if (o == nullptr) return invalid_handle("grid");
    if (const int rc = cell_arguments(o->map, x, y); rc != WM_OK) return rc;
    o->map.set_passable(x, y, blocked == 0);
    return WM_OK;
  });
}

int wm_grid_set_cost(wm_grid* g, int x, int y, double multiplier) {
  return guarded([&]() -> int {
    GridObject* o = grid_of(g);
    if (o == nullptr) return invalid_handle("grid");
    if (const int rc = cell_arguments(o->map, x, y); rc != WM_OK) return rc;
    if (!(multiplier > 0) || !std::isfinite(multiplier)) {
      return fail(WM_ERROR_INVALID_ARGUMENT, "cost multiplier " + number_text(multiplier) + ": must be finite and > 0");
    }
    o->map.set_cost_multiplier(x, y, multiplier);
    return WM_OK;
  });
}

int wm_grid_cost(const wm_grid* g, int x, int y, double* multiplier) {
  const GridObject* o = grid_of(g);
  if (o == nullptr) return invalid_handle("grid");
  if (multiplier == nullptr) return null_argument("multiplier");
  if (const int rc = cell_arguments(o->map, x, y); rc != WM_OK) return rc;
  *multiplier = o->map.cost_multiplier(o->map.cell(x, y));
  return WM_OK;
}

int wm_grid_version(const wm_grid* g, uint64_t* version) {
  const GridObject* o = grid_of(g);
  if (o == nullptr) return invalid_handle("grid");
  if (version == nullptr) return null_argument("version");
  *version = o->map.version();
  return WM_OK;
}

// ---- planners ---------------------------------------------------------------------------------

wm_query_options wm_query_options_default(void) {
  wm_query_options o{};
  o.version = WM_QUERY_OPTIONS_VERSION;
  o.weight = search::WeightedAStarPriority::default_weight;
  return o;
}

wm_planner_options wm_planner_options_default(void) {
  wm_planner_options o{};
  o.version = WM_PLANNER_OPTIONS_VERSION;
  o.algorithm = nullptr;
  o.diagonal = WM_DIAGONAL_NO_CORNER_CUTTING;
  o.heuristic = WM_HEURISTIC_DEFAULT;
  o.query = wm_query_options_default();
  return o;
}

int wm_planner_create_with(const wm_grid* g, const wm_planner_options* options, wm_planner** out) {
  return guarded([&]() -> int {
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    if (options == nullptr) return null_argument("options");
    std::shared_ptr<GridObject> grid = share_as<GridObject>(g, Kind::grid);
    if (!grid) return invalid_handle("grid");
    grid::GridPlannerOptions o;
    if (const int rc = planner_options_of(*options, o); rc != WM_OK) return rc;
    return hand_out(Kind::planner, std::make_shared<PlannerObject>(std::move(grid), o), out);
  });
}

int wm_planner_create(const wm_grid* g, const char* algorithm, wm_planner** out) {
  wm_planner_options options = wm_planner_options_default();
  options.algorithm = algorithm;
  if (algorithm == nullptr) {
    if (out != nullptr) *out = nullptr;
    return null_argument("algorithm");
  }
  return wm_planner_create_with(g, &options, out);
}

int wm_planner_retain(wm_planner* p) { return retain_as(p, Kind::planner, "planner"); }
void wm_planner_release(wm_planner* p) { release_as(p, Kind::planner); }

int wm_planner_stale(const wm_planner* p, int* stale) {
  const PlannerObject* o = planner_of(p);
  if (o == nullptr) return invalid_handle("planner");
  if (stale == nullptr) return null_argument("stale");
  *stale = o->planner.stale() ? 1 : 0;
  return WM_OK;
}

int wm_planner_sync(wm_planner* p, uint64_t* cells) {
  return guarded([&]() -> int {
    PlannerObject* o = planner_of(p);
    if (o == nullptr) return invalid_handle("planner");
    const std::size_t n = o->planner.sync().recomputed;
    if (cells != nullptr) *cells = n;
    return WM_OK;
  });
}

int wm_planner_supported(const wm_planner* p) {
  return guarded([&]() -> int {
    const PlannerObject* o = planner_of(p);
    if (o == nullptr) return invalid_handle("planner");
    if (const auto reason = o->planner.unsupported()) return fail(WM_UNSUPPORTED, *reason);
    return WM_OK;
  });
}

int wm_plan(wm_planner* p, int sx, int sy, int gx, int gy, double* cost, int* xy, int capacity, int* count) {
  if (cost != nullptr) *cost = std::numeric_limits<double>::infinity();
  if (count != nullptr) *count = 0;
  return guarded([&]() -> int {
    PlannerObject* o = planner_of(p);
    if (o == nullptr) return invalid_handle("planner");
    if (const int rc = check_buffer(xy, capacity); rc != WM_OK) return rc;
    const grid::GridMap& map = o->grid->map;
    const auto start = map.try_cell(sx, sy);
    const auto goal = map.try_cell(gx, gy);
    if (!start || !goal) return ends_outside(map, sx, sy, gx, gy);
    return o->searches.with([&] { return o->planner.make_search(); },
                            [&](Search& search) -> int {
                              const Status status = search.run(*start, *goal);
                              const int rc = query_result(status, o->planner, o->planner.options().algorithm, sx, sy, gx, gy);
                              if (rc != WM_OK) return rc;
                              if (cost != nullptr) *cost = search.path().cost;
                              return copy_path(map, search.path(), xy, capacity, count);
                            });
  });
}

// ---- searches ---------------------------------------------------------------------------------

int wm_search_create(wm_planner* p, const char* algorithm, const wm_query_options* options, wm_search** out) {
  return guarded([&]() -> int {
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    std::shared_ptr<PlannerObject> planner = share_as<PlannerObject>(p, Kind::planner);
    if (!planner) return invalid_handle("planner");
    grid::Algorithm a{};
    if (const int rc = algorithm_of(algorithm, planner->planner.options().algorithm, a); rc != WM_OK) return rc;
    search::QueryOptions<CellId> query = planner->planner.options().query;
    if (options != nullptr) {
      if (const int rc = query_options_of(*options, query); rc != WM_OK) return rc;
    }
    return hand_out(Kind::search, std::make_shared<SearchObject>(std::move(planner), a, query), out);
  });
}

int wm_search_retain(wm_search* s) { return retain_as(s, Kind::search, "search"); }
void wm_search_release(wm_search* s) { release_as(s, Kind::search); }

int wm_search_set_events(wm_search* s, wm_event_fn fn, void* context) {
  return guarded([&]() -> int {
    SearchObject* o = search_of(s);
    if (o == nullptr) return invalid_handle("search");
    const bool had = o->events != nullptr;
    o->events = fn == nullptr ? nullptr : std::make_unique<EventBridge>(o->planner->grid->map, fn, context);
    // A search made without a sink has no event code in it: remake it when that changes.
    if (had || fn != nullptr) {
      search::QueryOptions<CellId> query = o->query;
      query.events = o->events.get();
      o->handle = o->planner->planner.make_search(o->algorithm, query);
    }
    return WM_OK;
  });
}

int wm_search_begin(wm_search* s, int sx, int sy, int gx, int gy) {
  return guarded([&]() -> int {
    SearchObject* o = search_of(s);
    if (o == nullptr) return invalid_handle("search");
    o->sx = sx;
    o->sy = sy;
    o->gx = gx;
    o->gy = gy;
    const grid::GridMap& map = o->planner->grid->map;
    const auto start = map.try_cell(sx, sy);
    const auto goal = map.try_cell(gx, gy);
    if (!start || !goal) {
      // A query the handle never sees: its last result is dropped by a query that cannot start.
      o->handle.begin(CellId{static_cast<std::uint32_t>(map.cell_count())}, CellId{static_cast<std::uint32_t>(map.cell_count())});
      return ends_outside(map, sx, sy, gx, gy);
    }
    const Status st = o->handle.begin(*start, *goal);
    return query_result(st, o->planner->planner, o->algorithm, sx, sy, gx, gy);
  });
}

int wm_search_step(wm_search* s, uint64_t max_expansions, double max_seconds) {
  return guarded([&]() -> int {
    SearchObject* o = search_of(s);
    if (o == nullptr) return invalid_handle("search");
    if (!(max_seconds >= 0) || std::isinf(max_seconds)) {
      return fail(WM_ERROR_INVALID_ARGUMENT, "max_seconds is " + number_text(max_seconds) + ", must be finite and >= 0");
    }
    search::Budget budget = max_seconds > 0 ? search::Budget::of_seconds(max_seconds) : search::Budget{};
    if (max_expansions != 0) budget.expansions = max_expansions;
    const Status st = o->handle.step(budget);
    return query_result(st, o->planner->planner, o->algorithm, o->sx, o->sy, o->gx, o->gy);
  });
}

int wm_search_cancel(wm_search* s) {
  SearchObject* o = search_of(s);
  if (o == nullptr) return invalid_handle("search");
  o->handle.cancel();
  return WM_OK;
}

int wm_search_result(const wm_search* s) {
  return guarded([&]() -> int {
    const SearchObject* o = search_of(s);
    if (o == nullptr) return invalid_handle("search");
    const Status st = o->handle.status();
    if (st.state == SearchState::not_started) return fail(WM_INVALID_QUERY, "no query was begun on this search");
    return query_result(st, o->planner->planner, o->algorithm, o->sx, o->sy, o->gx, o->gy);
  });
}

int wm_search_path(const wm_search* s, double* cost, int* xy, int capacity, int* count) {
  if (cost != nullptr) *cost = std::numeric_limits<double>::infinity();
  if (count != nullptr) *count = 0;
  return guarded([&]() -> int {
    const SearchObject* o = search_of(s);
    if (o == nullptr) return invalid_handle("search");
    if (const int rc = check_buffer(xy, capacity); rc != WM_OK) return rc;
    const Path<CellId>& path = o->handle.path();
    if (cost != nullptr && !path.nodes.empty()) *cost = path.cost;
    return copy_path(o->planner->grid->map, path, xy, capacity, count);
  });
}

int wm_search_stats_get(const wm_search* s, wm_search_stats* stats) {
  const SearchObject* o = search_of(s);
  if (o == nullptr) return invalid_handle("search");
  if (stats == nullptr) return null_argument("stats");
  const SearchStats& st = o->handle.stats();
  stats->expanded = st.expanded;
  stats->generated = st.generated;
  stats->scanned = st.scanned;
  stats->max_open_size = st.max_open_size;
  stats->seconds = st.time_s;
  return WM_OK;
}

}  // extern "C"

// ---- request queues ---------------------------------------------------------------------------

namespace waymark::capi {
namespace {

struct QueueObject final : Object {
  explicit QueueObject(const search::RequestQueueOptions& options) : queue(options), by_slot(options.max_requests) {}
  search::PathRequestQueue<CellId> queue;
  // Every planner a request was submitted on, kept alive as long as the queue: its pool keeps
  // searches made for a planner after that planner's requests are gone, and tells worlds apart
  // by address, so a planner freed and another made at its address would be searched through
  // the first one's search.
  std::vector<std::shared_ptr<PlannerObject>> planners;
  std::vector<const PlannerObject*> by_slot;  // the planner of each request slot's request
};

QueueObject* queue_of(const wm_queue* q) { return find_as<QueueObject>(q, Kind::queue); }

search::RequestId request_id(std::uint64_t request) {
  return {static_cast<std::uint32_t>(request >> 32), static_cast<std::uint32_t>(request & 0xFFFFFFFFu)};
}

/// The request `request` names in `o`, or WM_ERROR_INVALID_ARGUMENT.
int held(const QueueObject& o, std::uint64_t request) {
  const search::RequestId id = request_id(request);
  if (o.queue.state(id) == search::RequestState::unknown || id.slot >= o.by_slot.size()) {
    return fail(WM_ERROR_INVALID_ARGUMENT, "request " + number_text(request) + " is not held by this queue (released, or never submitted)");
  }
  return WM_OK;
}

}  // namespace
}  // namespace waymark::capi

extern "C" {

wm_queue_options wm_queue_options_default(void) {
  const search::RequestQueueOptions d;
  wm_queue_options o{};
  o.version = WM_QUEUE_OPTIONS_VERSION;
  o.max_requests = static_cast<int>(d.max_requests);
  o.max_searches = static_cast<int>(d.max_searches);
  o.turn_expansions = d.turn.expansions;
  return o;
}

int wm_queue_create(const wm_queue_options* options, wm_queue** out) {
  return guarded([&]() -> int {
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    const wm_queue_options in = options != nullptr ? *options : wm_queue_options_default();
    if (in.version != WM_QUEUE_OPTIONS_VERSION) {
      return wrong_version("wm_queue_options", in.version, WM_QUEUE_OPTIONS_VERSION);
    }
    if (in.max_requests < 1 || in.max_requests > 1 << 20 || in.max_searches < 1 || in.max_searches > 1024 || in.turn_expansions == 0) {
      return fail(WM_ERROR_INVALID_ARGUMENT, "max_requests must be 1 to 1048576, max_searches 1 to 1024 and turn_expansions >= 1");
    }
    search::RequestQueueOptions o;
    o.max_requests = static_cast<std::size_t>(in.max_requests);
    o.max_searches = static_cast<std::size_t>(in.max_searches);
    o.turn = search::Budget{.expansions = in.turn_expansions, .scanned = in.turn_expansions * o.scanned_per_expansion};
    return hand_out(Kind::queue, std::make_shared<QueueObject>(o), out);
  });
}

int wm_queue_retain(wm_queue* q) { return retain_as(q, Kind::queue, "queue"); }
void wm_queue_release(wm_queue* q) { release_as(q, Kind::queue); }

int wm_queue_submit(wm_queue* q, wm_planner* p, int sx, int sy, int gx, int gy, int priority, uint64_t* request) {
  return guarded([&]() -> int {
    if (request != nullptr) *request = 0;
    QueueObject* o = queue_of(q);
    if (o == nullptr) return invalid_handle("queue");
    std::shared_ptr<PlannerObject> planner = share_as<PlannerObject>(p, Kind::planner);
    if (!planner) return invalid_handle("planner");
    if (request == nullptr) return null_argument("request");
    const grid::GridMap& map = planner->grid->map;
    const auto start = map.try_cell(sx, sy);
    const auto goal = map.try_cell(gx, gy);
    if (!start || !goal) return ends_outside(map, sx, sy, gx, gy);
    const search::RequestId id = o->queue.submit(planner->planner, *start, *goal, planner->planner.default_query(), priority);
    if (!id.valid()) {
      return fail(WM_BUFFER_TOO_SMALL, "the queue holds its max_requests, " + number_text(o->queue.options().max_requests) +
                                           ", requests: release finished ones first");
    }
    o->by_slot[id.slot] = planner.get();
    if (std::find(o->planners.begin(), o->planners.end(), planner) == o->planners.end()) o->planners.push_back(std::move(planner));
    *request = (std::uint64_t{id.slot} << 32) | id.generation;
    return WM_OK;
  });
}

int wm_queue_update(wm_queue* q, uint64_t max_expansions, double max_seconds, int* in_flight) {
  return guarded([&]() -> int {
    if (in_flight != nullptr) *in_flight = 0;
    QueueObject* o = queue_of(q);
    if (o == nullptr) return invalid_handle("queue");
    if (!(max_seconds >= 0) || std::isinf(max_seconds)) {
      return fail(WM_ERROR_INVALID_ARGUMENT, "max_seconds is " + number_text(max_seconds) + ", must be finite and >= 0");
    }
    search::Budget budget;
    if (max_expansions > 0) {
      budget.expansions = max_expansions;
      budget.scanned = max_expansions * o->queue.options().scanned_per_expansion;
    }
    if (max_seconds > 0) budget.time = search::Budget::of_seconds(max_seconds).time;
    o->queue.update(budget);
    if (in_flight != nullptr) *in_flight = static_cast<int>(o->queue.in_flight());
    return WM_OK;
  });
}

int wm_queue_result(const wm_queue* q, uint64_t request) {
  return guarded([&]() -> int {
    const QueueObject* o = queue_of(q);
    if (o == nullptr) return invalid_handle("queue");
    if (const int rc = held(*o, request); rc != WM_OK) return rc;
    const search::RequestId id = request_id(request);
    const search::SearchResult<CellId>* r = o->queue.result(id);
    if (r == nullptr) return WM_RUNNING;
    const PlannerObject& planner = *o->by_slot[id.slot];
    const int code = result_of(r->status);
    if (code == WM_OK) return WM_OK;
    std::string why(reason_name(r->status));
    if (code == WM_UNSUPPORTED) {
      if (const auto reason = planner.planner.unsupported(planner.planner.options().algorithm)) why = *reason;
    }
    return fail(code, "request " + number_text(request) + " found no path: " + why);
  });
}

int wm_queue_path(const wm_queue* q, uint64_t request, double* cost, int* xy, int capacity, int* count) {
  if (cost != nullptr) *cost = std::numeric_limits<double>::infinity();
  if (count != nullptr) *count = 0;
  return guarded([&]() -> int {
    const QueueObject* o = queue_of(q);
    if (o == nullptr) return invalid_handle("queue");
    if (const int rc = held(*o, request); rc != WM_OK) return rc;
    if (const int rc = check_buffer(xy, capacity); rc != WM_OK) return rc;
    const search::RequestId id = request_id(request);
    const search::SearchResult<CellId>* r = o->queue.result(id);
    if (r == nullptr) return fail(WM_RUNNING, "request " + number_text(request) + " has not finished");
    if (!r->status.succeeded()) return WM_OK;  // no path: cost INFINITY, count 0
    if (cost != nullptr) *cost = r->path.cost;
    return copy_path(o->by_slot[id.slot]->grid->map, r->path, xy, capacity, count);
  });
}

int wm_queue_cancel(wm_queue* q, uint64_t request) {
  return guarded([&]() -> int {
    QueueObject* o = queue_of(q);
    if (o == nullptr) return invalid_handle("queue");
    if (const int rc = held(*o, request); rc != WM_OK) return rc;
    o->queue.cancel(request_id(request));  // false for a finished request: nothing to end
    return WM_OK;
  });
}

int wm_queue_release_request(wm_queue* q, uint64_t request) {
  return guarded([&]() -> int {
    QueueObject* o = queue_of(q);
    if (o == nullptr) return invalid_handle("queue");
    if (const int rc = held(*o, request); rc != WM_OK) return rc;
    const search::RequestId id = request_id(request);
    o->queue.release(id);
    o->by_slot[id.slot] = nullptr;
    return WM_OK;
  });
}

}  // extern "C"
