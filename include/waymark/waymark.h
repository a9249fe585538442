/* waymark's C API: the library behind opaque handles, for C programs and for every binding
 * (C#, Python, JavaScript) that loads the shared library libwaymark_c. C11, and valid C++.
 * docs/c_api.md teaches it with complete examples.
 *
 * Conventions (the same in every call):
 * - Every function that can fail returns an int result code: WM_OK (0), a query's outcome
 *   (positive: WM_NO_PATH, WM_RUNNING, ...) or an error (negative: WM_ERROR_*). The reason,
 *   with file:line for load errors, is this thread's wm_last_error() until its next failure.
 *   Nothing aborts or exits the host process: a broken precondition inside the library is
 *   WM_ERROR_INTERNAL with the place it was caught.
 * - Handles are opaque, reference-counted and checked: a handle that was released, or that is
 *   not a handle of its kind, gives WM_ERROR_INVALID_HANDLE, never a crash (a handle is a slot
 *   number and generation, not a pointer into the library). A child keeps its parents alive:
 *   a planner keeps its grid, a search its planner, so they may be released in any order, as a
 *   garbage-collected host does. *_retain() adds a reference, *_release() drops one; the object
 *   goes when the last one does. Releasing NULL or a released handle does nothing.
 * - Outputs go into the caller's buffers, with a count that is set also when the buffer is too
 *   small (then WM_BUFFER_TOO_SMALL, the buffer holding what fits: Detour's convention), so a
 *   frame that reuses its buffers allocates nothing.
 * - Options structs start with a version field and come from their *_default() function; a
 *   struct with an unknown version is refused (WM_ERROR_INVALID_ARGUMENT).
 * - Threads: grids and planners may be shared by any number of threads for queries (wm_plan is
 *   thread-safe); edits (wm_grid_set_*) and wm_planner_sync need that nothing else uses the grid
 *   and its planners meanwhile. A search is one thread's at a time. The last error is per thread.
 * - Coordinates are cells: x the column, y the row, (0, 0) the first cell of the map file.
 */
#ifndef WAYMARK_WAYMARK_H
#define WAYMARK_WAYMARK_H

#include <stddef.h>
#include <stdint.h>

#include "waymark/version.h"

#if defined(_WIN32) && !defined(WAYMARK_C_STATIC)
#  ifdef WAYMARK_C_BUILDING
#    define WM_API __declspec(dllexport)
#  else
#    define WM_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define WM_API __attribute__((visibility("default")))
#else
#  define WM_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- result codes (fixed values: bindings mirror them) ------------------------------------ */
enum {
  WM_OK = 0,
  /* a query's outcome (positive) */
  WM_RUNNING = 1,            /* a stepped search has more to do: step it again */
  WM_NO_PATH = 2,            /* everything reachable from the start was searched: the goal is not */
  WM_OUT_OF_BOUNDS = 3,      /* a start or goal is not a cell of the map */
  WM_START_BLOCKED = 4,      /* the start is a blocked cell */
  WM_GOAL_BLOCKED = 5,       /* the goal is a blocked cell */
  WM_UNSUPPORTED = 6,        /* the algorithm cannot search this map as it is (wm_last_error says why) */
  WM_STALE_WORLD = 7,        /* the grid was edited since the planner's wm_planner_sync() */
  WM_BUDGET_EXHAUSTED = 8,   /* a node, expansion or time limit ran out */
  WM_CANCELLED = 9,          /* wm_search_cancel() */
  WM_INVALID_QUERY = 10,     /* a query the search cannot serve */
  WM_BUFFER_TOO_SMALL = 11,  /* the output did not fit: the count says how many there are */
  /* errors (negative) */
  WM_ERROR_INVALID_ARGUMENT = -1,  /* a null pointer, a size out of range, an unknown name */
  WM_ERROR_INVALID_HANDLE = -2,    /* null, released, or not a handle of this kind */
  WM_ERROR_LOAD = -3,              /* a file or text that cannot be read: "file:line: reason" */
  WM_ERROR_LIMIT = -4,             /* a declared size above a named limit (the message names it) */
  WM_ERROR_OUT_OF_MEMORY = -5,
  WM_ERROR_INTERNAL = -6,          /* a broken precondition inside the library; the message says where */
  WM_ERROR_BUILD = -7              /* a build refused its input or its parameters, or ran past its time limit */
};

/* "ok", "no-path", "buffer-too-small", "error-invalid-handle", ...; "unknown" for any other. */
WM_API const char* wm_result_name(int result);

/* ---- the library -------------------------------------------------------------------------- */
/* The library's version, "MAJOR.MINOR.PATCH" (compare with WAYMARK_VERSION_STRING). */
WM_API const char* wm_version(void);
/* This thread's last failure, "" if none. Valid until this thread's next call. */
WM_API const char* wm_last_error(void);
/* Forgets this thread's last failure. */
WM_API void wm_clear_error(void);

/* ---- grid maps ----------------------------------------------------------------------------- */
typedef struct wm_grid wm_grid;

/* Largest width * height of a grid made here: 2^25 cells (as the Moving AI loader's default),
   and at most 32768 cells a side. */
#define WM_MAX_GRID_CELLS 33554432
#define WM_MAX_GRID_SIDE 32768

/* A Moving AI .map file ('.' 'G' 'S' passable, '@' 'O' 'T' 'W' blocked, every move cost 1 a
   cell, sqrt(2) a diagonal). WM_ERROR_LOAD with "file:line: reason" when it cannot be read. */
WM_API int wm_grid_load(const char* movingai_map_path, wm_grid** out);
/* The same from the text of a .map (`length` bytes; `name` is the file named in errors, may be NULL). */
WM_API int wm_grid_load_text(const char* text, size_t length, const char* name, wm_grid** out);
/* A grid from its cells, row-major (cell (x, y) at blocked[y * width + x]), nonzero = blocked,
   Moving AI rules as above. 1 <= width, height <= WM_MAX_GRID_SIDE, width * height <= WM_MAX_GRID_CELLS. */
WM_API int wm_grid_from_cells(int width, int height, const unsigned char* blocked, wm_grid** out);
WM_API int wm_grid_retain(wm_grid* grid);
WM_API void wm_grid_release(wm_grid* grid);

WM_API int wm_grid_size(const wm_grid* grid, int* width, int* height);
/* *blocked = 1 for a blocked cell, 0 for a passable one. WM_OUT_OF_BOUNDS outside the map. */
WM_API int wm_grid_blocked(const wm_grid* grid, int x, int y, int* blocked);
/* Blocks (nonzero) or frees a cell: an edit; planners are stale until wm_planner_sync(). */
WM_API int wm_grid_set_blocked(wm_grid* grid, int x, int y, int blocked);
/* A cell's cost multiplier (1 unless set): a move costs its length times the mean of its two
   cells' multipliers. multiplier finite and > 0. An edit, as above. Jump searches (jps,
   jps-plus) refuse maps with costs: WM_UNSUPPORTED. */
WM_API int wm_grid_set_cost(wm_grid* grid, int x, int y, double multiplier);
WM_API int wm_grid_cost(const wm_grid* grid, int x, int y, double* multiplier);
/* Incremented by every edit; 0 for a grid no edit has changed. */
WM_API int wm_grid_version(const wm_grid* grid, uint64_t* version);

/* ---- planners -------------------------------------------------------------------------------- */
typedef struct wm_planner wm_planner;

/* Which diagonal moves a planner makes (fixed values). */
enum {
  WM_DIAGONAL_NEVER = 0,                 /* 4-connected */
  WM_DIAGONAL_ALWAYS = 1,                /* any diagonal to a passable cell */
  WM_DIAGONAL_AT_MOST_ONE_OBSTACLE = 2,  /* at least one of the two side cells passable */
  WM_DIAGONAL_NO_CORNER_CUTTING = 3      /* both side cells passable (Moving AI; the default) */
};
/* The planner's heuristic (fixed values); WM_HEURISTIC_DEFAULT: the tightest admissible one. */
enum {
  WM_HEURISTIC_MANHATTAN = 0,
  WM_HEURISTIC_OCTILE = 1,
  WM_HEURISTIC_EUCLIDEAN = 2,
  WM_HEURISTIC_CHEBYSHEV = 3,
  WM_HEURISTIC_ZERO = 4,
  WM_HEURISTIC_DEFAULT = -1
};

/* Limits and choices of every query a planner's searches run. */
#define WM_QUERY_OPTIONS_VERSION 1
typedef struct wm_query_options {
  int version;              /* WM_QUERY_OPTIONS_VERSION */
  double weight;            /* weighted A* ("wastar"): f = g + weight * h; >= 1 (default 1.5) */
  uint64_t max_nodes;       /* most nodes a query may reach, then WM_BUDGET_EXHAUSTED; 0 = no limit */
  int partial_result;       /* nonzero: a failed best-first query keeps the path to the node nearest the goal */
  int sparse_table;         /* nonzero: node scratch only for the nodes a query reaches (astar, wastar, dijkstra, greedy) */
  uint64_t max_table_bytes; /* sparse tables: most bytes of node pages a query may hold; 0 = no limit */
} wm_query_options;
WM_API wm_query_options wm_query_options_default(void);

#define WM_PLANNER_OPTIONS_VERSION 1
typedef struct wm_planner_options {
  int version;            /* WM_PLANNER_OPTIONS_VERSION */
  const char* algorithm;  /* the planner's search, by its CLI name (see wm_planner_create); NULL: "astar" */
  int diagonal;           /* WM_DIAGONAL_*; default WM_DIAGONAL_NO_CORNER_CUTTING */
  int heuristic;          /* WM_HEURISTIC_*; default WM_HEURISTIC_DEFAULT */
  wm_query_options query; /* what its searches and wm_plan run with */
} wm_planner_options;
WM_API wm_planner_options wm_planner_options_default(void);

/* A planner: the searches over one grid, sharing what they only read. `algorithm` by its CLI
   name: "astar", "wastar", "dijkstra", "greedy", "bfs", "dfs", "ida", "jps", "jps-plus" (or
   "jps+"), "theta". Keeps `grid` alive. Thread-safe for queries. */
WM_API int wm_planner_create(const wm_grid* grid, const char* algorithm, wm_planner** out);
WM_API int wm_planner_create_with(const wm_grid* grid, const wm_planner_options* options, wm_planner** out);
WM_API int wm_planner_retain(wm_planner* planner);
WM_API void wm_planner_release(wm_planner* planner);
/* Whether the grid was edited since the planner last synced: *stale = 1 or 0. */
WM_API int wm_planner_stale(const wm_planner* planner, int* stale);
/* Brings the planner up to date with the grid's edits; *cells (may be NULL) = cells recomputed.
   Nothing else may use the planner or its grid meanwhile. */
WM_API int wm_planner_sync(wm_planner* planner, uint64_t* cells);
/* WM_OK when the planner's algorithm can search its grid as it is now, else WM_UNSUPPORTED with
   the reason in wm_last_error(). */
WM_API int wm_planner_supported(const wm_planner* planner);

/* One query from (sx, sy) to (gx, gy) with the planner's algorithm and options, to its end.
   cost: the path's cost, INFINITY when there is none (may be NULL). xy: 2 * capacity ints
   (x0, y0, x1, y1, ...) or NULL; *count (may be NULL) = cells in the path, also when capacity
   is too small (WM_BUFFER_TOO_SMALL: xy holds the first `capacity` cells). Returns WM_OK, or
   the reason there is no path (WM_NO_PATH, WM_OUT_OF_BOUNDS, WM_START_BLOCKED, WM_GOAL_BLOCKED,
   WM_UNSUPPORTED, WM_STALE_WORLD, WM_BUDGET_EXHAUSTED), *count then 0. Thread-safe; after the
   first calls it allocates nothing. */
WM_API int wm_plan(wm_planner* planner, int sx, int sy, int gx, int gy,
                   double* cost, int* xy, int capacity, int* count);

/* ---- searches: one query at a time, stepped under a budget, with events ---------------------- */
typedef struct wm_search wm_search;

/* What a search did (fixed values): as the CLI's trace spells them. */
enum {
  WM_EVENT_BEGIN = 0,     /* a query started; (x, y) its goal */
  WM_EVENT_OPEN = 1,      /* (x, y) entered the open list from (parent_x, parent_y), with g and h */
  WM_EVENT_EXPAND = 2,    /* (x, y) was taken from the open list */
  WM_EVENT_CLOSE = 3,     /* every successor of (x, y) was generated */
  WM_EVENT_GOAL = 4,      /* (x, y) is the goal, reached with cost g */
  WM_EVENT_END = 5,       /* the query finished with `result` */
  WM_EVENT_SLICE_END = 6  /* a step used up its budget */
};
typedef struct wm_event {
  int kind;               /* WM_EVENT_* */
  int has_cell;           /* (x, y) is meaningful */
  int has_parent;         /* open: (parent_x, parent_y) is meaningful */
  int x, y, parent_x, parent_y;
  double g, h;
  int result;             /* end: the query's result code */
} wm_event;
/* Called on the searching thread during wm_search_begin/step; must not call back into the
   search it reports on. */
typedef void (*wm_event_fn)(void* context, const wm_event* event);

typedef struct wm_search_stats {
  uint64_t expanded;       /* nodes expanded */
  uint64_t generated;      /* successors looked at */
  uint64_t scanned;        /* cells looked at (jump searches: the cells their jumps passed over) */
  uint64_t max_open_size;  /* largest open list */
  double seconds;          /* wall time inside begin and step */
} wm_search_stats;

/* A search of `algorithm` (NULL: the planner's) with `options` (NULL: the planner's). Keeps the
   planner alive. One thread at a time. Made with its node table, so its first query is as fast
   as the rest: O(cells) time and memory for the dense table. */
WM_API int wm_search_create(wm_planner* planner, const char* algorithm, const wm_query_options* options,
                            wm_search** out);
WM_API int wm_search_retain(wm_search* search);
WM_API void wm_search_release(wm_search* search);
/* Events of this search's queries go to fn(context, event); fn NULL: none (no cost). */
WM_API int wm_search_set_events(wm_search* search, wm_event_fn fn, void* context);
/* Starts a query: WM_RUNNING, or already finished (a code as wm_plan returns). */
WM_API int wm_search_begin(wm_search* search, int sx, int sy, int gx, int gy);
/* Advances it by at most max_expansions expansions (0: no limit) and max_seconds of wall time
   (0: no limit): WM_RUNNING while there is more, else WM_OK or the reason it failed. */
WM_API int wm_search_step(wm_search* search, uint64_t max_expansions, double max_seconds);
/* The next step ends the query with WM_CANCELLED. */
WM_API int wm_search_cancel(wm_search* search);
/* The query's result so far: WM_RUNNING, WM_OK or the reason it failed; WM_INVALID_QUERY before begin. */
WM_API int wm_search_result(const wm_search* search);
/* The path of the last query (its partial path when one was asked for and kept), as wm_plan. */
WM_API int wm_search_path(const wm_search* search, double* cost, int* xy, int capacity, int* count);
WM_API int wm_search_stats_get(const wm_search* search, wm_search_stats* stats);

/* ---- request queues: many path requests, advanced a frame's budget at a time ------------------ */
typedef struct wm_queue wm_queue;
#define WM_QUEUE_OPTIONS_VERSION 1
typedef struct wm_queue_options {
  int version;               /* WM_QUEUE_OPTIONS_VERSION */
  int max_requests;          /* requests held at once (queued, running or finished, not released); 256 */
  int max_searches;          /* searches in the pool: how many requests run at once; 8 */
  uint64_t turn_expansions;  /* most expansions one request's turn spends; 256 */
} wm_queue_options;
WM_API wm_queue_options wm_queue_options_default(void);
/* A queue (options NULL: the defaults) for requests on any planners' grids. One thread at a time. */
WM_API int wm_queue_create(const wm_queue_options* options, wm_queue** out);
WM_API int wm_queue_retain(wm_queue* queue);
WM_API void wm_queue_release(wm_queue* queue);
/* A request from (sx, sy) to (gx, gy) on `planner`'s grid with its algorithm (the queue keeps
   every planner it was given alive until the queue goes); a higher priority gets turns first. *request: its id, valid until
   wm_queue_release_request. WM_BUFFER_TOO_SMALL when max_requests are held (release some),
   WM_OUT_OF_BOUNDS for an end off the grid. A request on a planner whose grid was edited waits
   until wm_planner_sync. */
WM_API int wm_queue_submit(wm_queue* queue, wm_planner* planner, int sx, int sy, int gx, int gy, int priority,
                           uint64_t* request);
/* Spends one frame's budget (max_expansions 0: no limit; max_seconds 0: no limit) on the
   requests in flight; *in_flight (may be NULL) = requests still queued or running after it. */
WM_API int wm_queue_update(wm_queue* queue, uint64_t max_expansions, double max_seconds, int* in_flight);
/* WM_RUNNING while the request is queued or running; then WM_OK, or the reason it found no
   path (as wm_plan), WM_CANCELLED; WM_ERROR_INVALID_ARGUMENT for an id the queue does not hold. */
WM_API int wm_queue_result(const wm_queue* queue, uint64_t request);
/* A finished request's path, as wm_plan writes one (cost INFINITY and *count 0 when it found none). */
WM_API int wm_queue_path(const wm_queue* queue, uint64_t request, double* cost, int* xy, int capacity, int* count);
/* Ends a queued or running request (WM_CANCELLED), and frees a request's slot: its id then names nothing. */
WM_API int wm_queue_cancel(wm_queue* queue, uint64_t request);
WM_API int wm_queue_release_request(wm_queue* queue, uint64_t request);

/* ---- road graphs ------------------------------------------------------------------------------- */
typedef struct wm_graph wm_graph;
typedef struct wm_graph_planner wm_graph_planner;

/* A DIMACS road graph: `gr_path` (.gr arcs), `co_path` (.co positions, for astar and alt's
   choice of landmarks; may be NULL). Vertices are numbered 0..V-1 here: DIMACS's id k is vertex
   k - 1 (wm_graph_first_file_id gives the file's first id). WM_ERROR_LOAD with file:line. */
WM_API int wm_graph_load_dimacs(const char* gr_path, const char* co_path, wm_graph** out);
/* A node list (`ID X Y`) and an edge list (`EDGE_ID U V LENGTH`), ids from 0 (Oldenburg's
   format); directed = 0: each edge both ways. */
WM_API int wm_graph_load_edge_lists(const char* nodes_path, const char* edges_path, int directed, wm_graph** out);
WM_API int wm_graph_retain(wm_graph* graph);
WM_API void wm_graph_release(wm_graph* graph);
WM_API int wm_graph_size(const wm_graph* graph, uint32_t* vertices, uint64_t* arcs);
/* The file's id of vertex 0 (1 for DIMACS, 0 for edge lists). */
WM_API int wm_graph_first_file_id(const wm_graph* graph, int64_t* first);

/* A planner of `algorithm` by its CLI name: "dijkstra", "bidijkstra", "astar" (needs
   positions), "alt" (landmarks, built here), "ch" (contraction hierarchy, built here), "table"
   (all-pairs first moves: at most 20,000 vertices). Keeps the graph alive; thread-safe for
   queries. WM_UNSUPPORTED (the reason in wm_last_error) when the graph cannot serve it. */
WM_API int wm_graph_planner_create(const wm_graph* graph, const char* algorithm, wm_graph_planner** out);
WM_API int wm_graph_planner_retain(wm_graph_planner* planner);
WM_API void wm_graph_planner_release(wm_graph_planner* planner);
/* One query from vertex `source` to vertex `target`, as wm_plan: cost (INFINITY when there is
   no path), the path's vertices into `vertices` (capacity of them, or NULL), *count set also
   when the buffer is too small. Thread-safe. */
WM_API int wm_graph_plan(wm_graph_planner* planner, uint32_t source, uint32_t target, double* cost,
                         uint32_t* vertices, int capacity, int* count);
/* Many-to-many costs: costs[i * target_count + j] = the cost from sources[i] to targets[j]
   (INFINITY when unreachable). Returns WM_OK, or the first refusal (a vertex outside the
   graph: WM_OUT_OF_BOUNDS, nothing written). At most WM_MAX_COST_MATRIX entries. */
#define WM_MAX_COST_MATRIX 16777216
WM_API int wm_graph_cost_matrix(wm_graph_planner* planner, const uint32_t* sources, int source_count,
                                const uint32_t* targets, int target_count, double* costs);

/* ---- navmeshes ---------------------------------------------------------------------------------- */
typedef struct wm_navmesh wm_navmesh;
typedef struct wm_nav_query wm_nav_query;

/* Recast's build parameters (world units; RecastDemo's defaults), and a time limit. */
#define WM_RECAST_PARAMS_VERSION 1
typedef struct wm_recast_params {
  int version;                   /* WM_RECAST_PARAMS_VERSION */
  double cell_size;              /* voxel width and depth (x, z); 0.3 */
  double cell_height;            /* voxel height (y); 0.2 */
  double agent_height;           /* 2.0 */
  double agent_radius;           /* floors eroded this far from walls; 0.6 */
  double agent_max_climb;        /* 0.9 */
  double agent_max_slope;        /* degrees; 45 */
  double region_min_size;        /* 8 */
  double region_merge_size;      /* 20 */
  double edge_max_len;           /* 12 */
  double edge_max_error;         /* 1.3 */
  int verts_per_poly;            /* 3 to 6; 6 */
  double detail_sample_dist;     /* 6 */
  double detail_sample_max_error;/* 1 */
  double max_seconds;            /* no build step begun after this many seconds; 0: no limit */
} wm_recast_params;
WM_API wm_recast_params wm_recast_params_default(void);

/* A navmesh built by Recast from a Wavefront OBJ file, or from its text (`name` in errors).
   WM_ERROR_LOAD for a file that cannot be read, WM_ERROR_BUILD (the limit and what to change)
   for parameters or a level Recast cannot build. Immutable: share it between threads. */
WM_API int wm_navmesh_build_obj(const char* obj_path, const wm_recast_params* params, wm_navmesh** out);
WM_API int wm_navmesh_build_obj_text(const char* text, size_t length, const char* name, const wm_recast_params* params,
                                     wm_navmesh** out);
/* One agent class of a baked .wmnav file (`agent_class` NULL: its first class). */
WM_API int wm_navmesh_load_baked(const char* path, const char* agent_class, wm_navmesh** out);
WM_API int wm_navmesh_retain(wm_navmesh* navmesh);
WM_API void wm_navmesh_release(wm_navmesh* navmesh);
WM_API int wm_navmesh_size(const wm_navmesh* navmesh, uint32_t* polygons, uint32_t* vertices);
/* The point of the mesh nearest to `point` within the box point +- half_extents (NULL: 2, 4, 2,
   as the queries use). WM_OUT_OF_BOUNDS when no polygon is that near. */
WM_API int wm_navmesh_nearest_point(const wm_navmesh* navmesh, const double point[3], const double half_extents[3],
                                    double nearest[3]);
/* Walks the straight line (in plan) from `from` (taken to its nearest mesh point) to `to` along
   the surface: *t = how far it got (1: it reached `to`), hit_point where it stopped, hit_normal
   the wall's plan normal (0 when nothing was hit); either output may be NULL. *hit = 1 when a
   wall stopped it. */
WM_API int wm_navmesh_raycast(const wm_navmesh* navmesh, const double from[3], const double to[3], int* hit, double* t,
                              double hit_point[3], double hit_normal[3]);

/* A query object, as Detour's dtNavMeshQuery: one thread at a time, its scratch kept, so that
   queries after the first allocate nothing. mode: "shortest" (the default, Polyanya: the
   shortest path between its corners), "funnel" (A* over portals and the funnel, as Detour),
   "centroids". Keeps the navmesh alive. */
WM_API int wm_nav_query_create(const wm_navmesh* navmesh, const char* mode, wm_nav_query** out);
WM_API int wm_nav_query_retain(wm_nav_query* query);
WM_API void wm_nav_query_release(wm_nav_query* query);
/* A path from `from` to `to`: *length its 3D length (INFINITY when there is none), its corners
   into `points` (3 * capacity doubles x, y, z, or NULL), *count corners, set also when the
   buffer is too small (WM_BUFFER_TOO_SMALL). A code as wm_plan returns when there is none. */
WM_API int wm_nav_find_path(wm_nav_query* query, const double from[3], const double to[3], double* length,
                            double* points, int capacity, int* count);

/* ---- simulations: agents that plan, steer round each other and walls, and take orders ------- */
typedef struct wm_sim wm_sim;
/* Where an agent stands (fixed values). */
enum {
  WM_AGENT_PLANNING = 0,     /* waiting for a path */
  WM_AGENT_MOVING = 1,       /* following it */
  WM_AGENT_ARRIVED = 2,      /* at its goal; it stays until given a new one */
  WM_AGENT_UNREACHABLE = 3,  /* no path, or an end off the world or closed (the reason says which) */
  WM_AGENT_STUCK = 4,        /* no progress through several re-plans; it stops asking */
  WM_AGENT_STOPPED = 5,      /* wm_sim_stop(): holds until wm_sim_resume() */
  WM_AGENT_REMOVED = 6,      /* wm_sim_remove_agent(); its id is not reused */
  WM_AGENT_ON_LINK = 7       /* travelling an off-mesh link of its path */
};
/* Why an agent is in the state it ends in (fixed values). */
enum {
  WM_REASON_NONE = 0,
  WM_REASON_START_OUTSIDE = 1,  /* unreachable: it stands off the map or the mesh */
  WM_REASON_GOAL_OUTSIDE = 2,
  WM_REASON_START_CLOSED = 3,   /* unreachable: no free place its disc fits at or near it */
  WM_REASON_GOAL_CLOSED = 4,
  WM_REASON_NO_PATH = 5,
  WM_REASON_SEARCH_FAILED = 6,
  WM_REASON_CROWDED_GOAL = 7,   /* arrived: another agent stands on its goal */
  WM_REASON_NO_PROGRESS = 8     /* stuck */
};
#define WM_SIM_PARAMS_VERSION 1
typedef struct wm_sim_params {
  int version;                   /* WM_SIM_PARAMS_VERSION */
  uint64_t seed;                 /* 1 */
  int agent_avoidance;           /* nonzero (the default): agents avoid each other (ORCA) */
  int max_requests;              /* path requests in flight at once; 256 */
  uint64_t planning_expansions;  /* search expansions spent on paths per step; 10000 */
  wm_planner_options planner;    /* grid simulations: the planner (astar, no corner cutting) */
  int plan_around_obstacles;     /* grid simulations: obstacles close their cells to planning; 1 */
  const char* nav_mode;          /* navmesh simulations: "shortest" (NULL, the default), "funnel", "centroids" */
} wm_sim_params;
WM_API wm_sim_params wm_sim_params_default(void);
#define WM_AGENT_PARAMS_VERSION 1
typedef struct wm_agent_params {
  int version;       /* WM_AGENT_PARAMS_VERSION */
  double radius;     /* world units, > 0; 0.35 */
  double max_speed;  /* world units / s, > 0; 3 */
  double max_force;  /* > 0; 12 */
  double mass;       /* > 0; 1 */
} wm_agent_params;
WM_API wm_agent_params wm_agent_params_default(void);
typedef struct wm_sim_stats {
  uint64_t ticks;
  uint64_t arrived;       /* agents at their goal now */
  uint64_t collisions;    /* overlaps, per pair and tick */
  uint64_t plans;         /* paths planned, re-plans included */
  uint64_t failed_plans;  /* searches that found no path */
  double mean_tick_us;    /* mean wall time of a step */
} wm_sim_stats;
/* A simulation on a copy of `grid` (its own map: edit it with wm_sim_set_blocked). The plane is
   the map's: cell (x, y) spans [x, x + 1) x [y, y + 1); blocked cells are walls. params NULL:
   the defaults. One thread at a time; the grid handle may be released at once. */
WM_API int wm_sim_create_grid(const wm_grid* grid, const wm_sim_params* params, wm_sim** out);
/* A simulation on `navmesh` (kept alive), which Recast eroded by the agents' radius: paths on
   it, its outline as walls that agents meet with their centre. The plane is the mesh's plan:
   (x, z), Y up. */
WM_API int wm_sim_create_navmesh(const wm_navmesh* navmesh, const wm_sim_params* params, wm_sim** out);
WM_API int wm_sim_retain(wm_sim* sim);
WM_API void wm_sim_release(wm_sim* sim);
/* An agent from (sx, sy) to (gx, gy) (params NULL: the defaults): *id its id, from 0 up. A start
   or goal off the world is kept (the agent is then unreachable, with the reason);
   WM_ERROR_INVALID_ARGUMENT for parameters out of range or points not finite, WM_ERROR_BUILD
   when no size class of the world fits its radius. */
WM_API int wm_sim_add_agent(wm_sim* sim, const wm_agent_params* params, double sx, double sy, double gx, double gy, int* id);
/* Orders, at any time between steps: a new goal, stop (brake and hold), resume, remove.
   WM_ERROR_INVALID_ARGUMENT for an id the simulation did not hand out or a removed agent. */
WM_API int wm_sim_set_goal(wm_sim* sim, int id, double gx, double gy);
WM_API int wm_sim_stop(wm_sim* sim, int id);
WM_API int wm_sim_resume(wm_sim* sim, int id);
WM_API int wm_sim_remove_agent(wm_sim* sim, int id);
/* One step of `dt` seconds (finite, > 0): edits absorbed, paths planned, steering, moves. After
   warm-up a step allocates nothing. */
WM_API int wm_sim_step(wm_sim* sim, double dt);
/* Agents ever added (removed ones included: ids run from 0 to count - 1). */
WM_API int wm_sim_agent_count(const wm_sim* sim, int* count);
/* One agent: its position, status (WM_AGENT_*) and reason (WM_REASON_*); any output may be NULL. */
WM_API int wm_sim_agent(const wm_sim* sim, int id, double* x, double* y, int* status, int* reason);
/* Every agent's position (xy: 2 * capacity doubles, by id) and status (capacity ints; either
   may be NULL): *count = agents, set also when the buffers are too small (WM_BUFFER_TOO_SMALL). */
WM_API int wm_sim_agents(const wm_sim* sim, double* xy, int* statuses, int capacity, int* count);
/* Grid simulations: blocks or frees a cell of the simulation's map; the next step re-plans the
   agents whose path crosses it. WM_UNSUPPORTED on a navmesh, WM_OUT_OF_BOUNDS off the map. */
WM_API int wm_sim_set_blocked(wm_sim* sim, int x, int y, int blocked);
/* A round obstacle (a crate, a pillar) at (x, y): agents steer round it and collide with it; on
   a grid, planning sees it too (plan_around_obstacles). *id its id for wm_sim_remove_obstacle. */
WM_API int wm_sim_add_obstacle_circle(wm_sim* sim, double x, double y, double radius, int* id);
WM_API int wm_sim_remove_obstacle(wm_sim* sim, int id);
WM_API int wm_sim_stats_get(const wm_sim* sim, wm_sim_stats* stats);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WAYMARK_WAYMARK_H */
