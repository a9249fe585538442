/* The C API from C: every function of waymark.h, right answers against the Moving AI optima,
 * and misuse (null handles, bad sizes, out-of-range cells, released handles, buffers too
 * small): a code and a message, never a crash, an abort or a leak. make test runs it in the
 * release tree and under ASan+UBSan (with leak checking). Usage: waymark_capi_test DATA_DIR */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "waymark/waymark.h"

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                               \
  do {                                                                            \
    ++checks;                                                                     \
    if (!(cond)) {                                                                \
      ++failures;                                                                 \
      fprintf(stderr, "%s:%d: check failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, wm_last_error()); \
    }                                                                             \
  } while (0)

#define CHECK_RC(call, expected)                                                              \
  do {                                                                                        \
    const int rc_ = (call);                                                                   \
    ++checks;                                                                                 \
    if (rc_ != (expected)) {                                                                  \
      ++failures;                                                                             \
      fprintf(stderr, "%s:%d: %s returned %s, expected %s (last error: %s)\n", __FILE__, __LINE__, #call, \
              wm_result_name(rc_), wm_result_name(expected), wm_last_error());                \
    }                                                                                         \
  } while (0)

static int contains(const char* text, const char* part) { return strstr(text, part) != NULL; }

/* A path of adjacent passable cells from start to goal (8-connected, no corner cutting). */
static int valid_path(const wm_grid* grid, const int* xy, int count, int sx, int sy, int gx, int gy) {
  if (count < 1 || xy[0] != sx || xy[1] != sy || xy[2 * count - 2] != gx || xy[2 * count - 1] != gy) return 0;
  for (int i = 0; i < count; ++i) {
    int blocked = 1;
    if (wm_grid_blocked(grid, xy[2 * i], xy[2 * i + 1], &blocked) != WM_OK || blocked) return 0;
    if (i == 0) continue;
    const int dx = xy[2 * i] - xy[2 * i - 2], dy = xy[2 * i + 1] - xy[2 * i - 1];
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return 0;
    if (dx != 0 && dy != 0) {
      int side_a = 1, side_b = 1;
      wm_grid_blocked(grid, xy[2 * i - 2] + dx, xy[2 * i - 1], &side_a);
      wm_grid_blocked(grid, xy[2 * i - 2], xy[2 * i - 1] + dy, &side_b);
      if (side_a || side_b) return 0;
    }
  }
  return 1;
}

/* Every query of a .scen file whose map is `grid`, with `algorithm`: the cost is the optimum. */
static void scenario_optima(const wm_grid* grid, const char* scen_path, const char* algorithm) {
  wm_planner* planner = NULL;
  CHECK_RC(wm_planner_create(grid, algorithm, &planner), WM_OK);
  FILE* f = fopen(scen_path, "r");
  CHECK(f != NULL);
  if (f == NULL) return;
  char line[512];
  int queries = 0, wrong = 0;
  static int xy[2 * 4096];
  if (fgets(line, sizeof line, f) == NULL) line[0] = 0; /* "version 1" */
  while (fgets(line, sizeof line, f) != NULL) {
    int bucket, w, h, sx, sy, gx, gy;
    char map[256];
    double optimal;
    if (sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &bucket, map, &w, &h, &sx, &sy, &gx, &gy, &optimal) != 9) continue;
    double cost = 0;
    int count = 0;
    const int rc = wm_plan(planner, sx, sy, gx, gy, &cost, xy, 4096, &count);
    ++queries;
    if (rc != WM_OK || fabs(cost - optimal) > 1e-6 || !valid_path(grid, xy, count, sx, sy, gx, gy)) {
      if (wrong++ < 3) fprintf(stderr, "%s %s query %d: %s cost %.8f, optimum %.8f\n", algorithm, scen_path, queries, wm_result_name(rc), cost, optimal);
    }
  }
  fclose(f);
  CHECK(queries > 100);
  CHECK(wrong == 0);
  printf("%-9s %d queries of %s at their Moving AI optima\n", algorithm, queries - wrong, scen_path);
  wm_planner_release(planner);
}

/* An independent reference: the .gr file read here and an O(V^2) Dijkstra over it. */
typedef struct {
  int n, m;
  int* from;
  int* to;
  double* w;
} arcs_t;

static int read_gr(const char* path, arcs_t* g) {
  FILE* f = fopen(path, "r");
  if (f == NULL) return 0;
  char line[256];
  int k = 0;
  g->n = g->m = 0;
  g->from = g->to = NULL;
  g->w = NULL;
  while (fgets(line, sizeof line, f) != NULL) {
    if (line[0] == 'p') {
      if (sscanf(line, "p sp %d %d", &g->n, &g->m) != 2) break;
      g->from = malloc(sizeof(int) * (size_t)g->m);
      g->to = malloc(sizeof(int) * (size_t)g->m);
      g->w = malloc(sizeof(double) * (size_t)g->m);
    } else if (line[0] == 'a' && g->from != NULL && k < g->m) {
      int u, v;
      double w;
      if (sscanf(line, "a %d %d %lf", &u, &v, &w) == 3) {
        g->from[k] = u - 1;
        g->to[k] = v - 1;
        g->w[k] = w;
        ++k;
      }
    }
  }
  fclose(f);
  return g->from != NULL && k == g->m;
}

static void brute_dijkstra(const arcs_t* g, int source, double* dist) {
  char* done = calloc((size_t)g->n, 1);
  for (int i = 0; i < g->n; ++i) dist[i] = INFINITY;
  dist[source] = 0;
  for (;;) {
    int best = -1;
    for (int i = 0; i < g->n; ++i)
      if (!done[i] && !isinf(dist[i]) && (best < 0 || dist[i] < dist[best])) best = i;
    if (best < 0) break;
    done[best] = 1;
    for (int a = 0; a < g->m; ++a)
      if (g->from[a] == best && dist[best] + g->w[a] < dist[g->to[a]]) dist[g->to[a]] = dist[best] + g->w[a];
  }
  free(done);
}

static void road_graphs(const char* data) {
  char path[1024];
  snprintf(path, sizeof path, "%s/roads/rome99.gr", data);
  arcs_t ref;
  CHECK(read_gr(path, &ref));
  wm_graph* rome = NULL;
  CHECK_RC(wm_graph_load_dimacs(path, NULL, &rome), WM_OK);
  uint32_t vertices = 0;
  uint64_t arcs = 0;
  int64_t first = -1;
  CHECK_RC(wm_graph_size(rome, &vertices, &arcs), WM_OK);
  CHECK((int)vertices == ref.n && (int)arcs == ref.m);
  CHECK_RC(wm_graph_first_file_id(rome, &first), WM_OK);
  CHECK(first == 1);

  enum { S = 4, T = 6 };
  const uint32_t sources[S] = {0, 1000, 2222, 3352};
  const uint32_t targets[T] = {5, 77, 1500, 2000, 3000, 3352};
  double* dist = malloc(sizeof(double) * (size_t)ref.n);
  double expected[S][T];
  for (int i = 0; i < S; ++i) {
    brute_dijkstra(&ref, (int)sources[i], dist);
    for (int j = 0; j < T; ++j) expected[i][j] = dist[targets[j]];
  }
  free(dist);
  const char* algorithms[] = {"dijkstra", "bidijkstra", "alt", "ch", "table"};
  for (size_t a = 0; a < sizeof algorithms / sizeof algorithms[0]; ++a) {
    wm_graph_planner* p = NULL;
    CHECK_RC(wm_graph_planner_create(rome, algorithms[a], &p), WM_OK);
    int wrong = 0;
    uint32_t path_v[4096];
    for (int i = 0; i < S; ++i) {
      for (int j = 0; j < T; ++j) {
        double cost = 0;
        int count = 0;
        const int rc = wm_graph_plan(p, sources[i], targets[j], &cost, path_v, 4096, &count);
        const int ok = isinf(expected[i][j]) ? rc == WM_NO_PATH && isinf(cost)
                                             : rc == WM_OK && fabs(cost - expected[i][j]) < 1e-6 && count >= 1 &&
                                                   path_v[0] == sources[i] && path_v[count - 1] == targets[j];
        if (!ok && wrong++ < 3) fprintf(stderr, "%s %u -> %u: %s %f, expected %f\n", algorithms[a], sources[i], targets[j], wm_result_name(rc), cost, expected[i][j]);
      }
    }
    CHECK(wrong == 0);
    double matrix[S * T];
    CHECK_RC(wm_graph_cost_matrix(p, sources, S, targets, T, matrix), WM_OK);
    for (int i = 0; i < S; ++i)
      for (int j = 0; j < T; ++j) CHECK(fabs(matrix[i * T + j] - expected[i][j]) < 1e-6 || (isinf(matrix[i * T + j]) && isinf(expected[i][j])));
    printf("%-10s %d rome99 queries and a %d x %d matrix equal to a brute-force Dijkstra\n", algorithms[a], S * T, S, T);
    wm_graph_planner_release(p);
  }
  /* Misuse. */
  wm_graph_planner* p = NULL;
  CHECK_RC(wm_graph_planner_create(rome, "astar", &p), WM_UNSUPPORTED); /* no positions without a .co */
  CHECK(p == NULL && strlen(wm_last_error()) > 0);
  CHECK_RC(wm_graph_planner_create(rome, "nope", &p), WM_ERROR_INVALID_ARGUMENT);
  CHECK(contains(wm_last_error(), "bidijkstra"));
  CHECK_RC(wm_graph_planner_create(NULL, "dijkstra", &p), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_graph_planner_create(rome, "ch", &p), WM_OK);
  wm_graph_release(rome); /* the planner keeps it */
  double cost = 0;
  int count = 0;
  uint32_t two[2];
  CHECK_RC(wm_graph_plan(p, 0, vertices, &cost, NULL, 0, &count), WM_OUT_OF_BOUNDS);
  CHECK(isinf(cost) && contains(wm_last_error(), "3353"));
  CHECK_RC(wm_graph_plan(p, 0, 3000, &cost, two, 2, &count), WM_BUFFER_TOO_SMALL);
  CHECK(count > 2 && two[0] == 0);
  CHECK_RC(wm_graph_plan(p, 0, 3000, &cost, NULL, 3, &count), WM_ERROR_INVALID_ARGUMENT);
  double m1[1];
  const uint32_t bad[1] = {999999};
  CHECK_RC(wm_graph_cost_matrix(p, bad, 1, targets, 1, m1), WM_OUT_OF_BOUNDS);
  CHECK_RC(wm_graph_cost_matrix(p, sources, 5000, targets, 5000, m1), WM_ERROR_LIMIT);
  CHECK_RC(wm_graph_cost_matrix(p, sources, -1, targets, 1, m1), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_graph_cost_matrix(p, NULL, 1, targets, 1, m1), WM_ERROR_INVALID_ARGUMENT);
  wm_graph_planner_release(p);
  CHECK_RC(wm_graph_plan(p, 0, 1, &cost, NULL, 0, &count), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_graph_size(rome, &vertices, &arcs), WM_ERROR_INVALID_HANDLE);
  wm_graph* missing = NULL;
  CHECK_RC(wm_graph_load_dimacs("/no/such.gr", NULL, &missing), WM_ERROR_LOAD);
  CHECK(contains(wm_last_error(), "/no/such.gr"));
  snprintf(path, sizeof path, "%s/roads/OL.cnode.txt", data);
  char edges[1024];
  snprintf(edges, sizeof edges, "%s/roads/OL.cedge.txt", data);
  CHECK_RC(wm_graph_load_edge_lists(path, edges, 0, &missing), WM_OK);
  CHECK_RC(wm_graph_planner_create(missing, "astar", &p), WM_OK); /* positions: astar works */
  CHECK_RC(wm_graph_plan(p, 0, 100, &cost, NULL, 0, &count), WM_OK);
  wm_graph_planner_release(p);
  wm_graph_release(missing);
  free(ref.from);
  free(ref.to);
  free(ref.w);
}

/* Navmeshes: RecastDemo's nav_test.obj and its path queries (data/meshes/nav_mesh_test.txt).
   The C++ tests compare these paths with Detour's on the same Recast mesh; here: the C API
   gives paths that start and end at the ends' nearest mesh points, whose length is their
   corners' polyline, the shortest mode never longer than the funnel, and misuse answered. */
static double distance3(const double* a, const double* b) {
  return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

static void navmeshes(const char* data) {
  char path[1024];
  snprintf(path, sizeof path, "%s/meshes/nav_test.obj", data);
  wm_recast_params params = wm_recast_params_default();
  CHECK(params.version == WM_RECAST_PARAMS_VERSION && params.cell_size == 0.3 && params.verts_per_poly == 6);
  wm_navmesh* mesh = NULL;
  CHECK_RC(wm_navmesh_build_obj(path, &params, &mesh), WM_OK);
  uint32_t polygons = 0, vertices = 0;
  CHECK_RC(wm_navmesh_size(mesh, &polygons, &vertices), WM_OK);
  CHECK(polygons > 100 && vertices > 100);
  wm_nav_query* shortest = NULL;
  wm_nav_query* funnel = NULL;
  CHECK_RC(wm_nav_query_create(mesh, NULL, &shortest), WM_OK);
  CHECK_RC(wm_nav_query_create(mesh, "funnel", &funnel), WM_OK);
  snprintf(path, sizeof path, "%s/meshes/nav_mesh_test.txt", data);
  FILE* f = fopen(path, "r");
  CHECK(f != NULL);
  int queries = 0, wrong = 0;
  char line[512];
  static double corners[3 * 1024];
  while (f != NULL && fgets(line, sizeof line, f) != NULL) {
    double a[3], b[3];
    if (sscanf(line, "pf %lf %lf %lf %lf %lf %lf", &a[0], &a[1], &a[2], &b[0], &b[1], &b[2]) != 6) continue;
    ++queries;
    double near_a[3], near_b[3], length = 0, funnel_length = 0;
    int count = 0, funnel_count = 0;
    int ok = wm_navmesh_nearest_point(mesh, a, NULL, near_a) == WM_OK && wm_navmesh_nearest_point(mesh, b, NULL, near_b) == WM_OK;
    ok = ok && wm_nav_find_path(funnel, a, b, &funnel_length, NULL, 0, &funnel_count) == WM_OK;
    ok = ok && wm_nav_find_path(shortest, a, b, &length, corners, 1024, &count) == WM_OK && count >= 2;
    if (ok) {
      double polyline = 0;
      for (int i = 1; i < count; ++i) polyline += distance3(corners + 3 * (i - 1), corners + 3 * i);
      ok = fabs(polyline - length) < 1e-6 * (1 + length) && distance3(corners, near_a) < 1e-6 &&
           distance3(corners + 3 * (count - 1), near_b) < 1e-6 && length <= funnel_length + 1e-6 &&
           length >= distance3(near_a, near_b) - 1e-9;
    }
    if (!ok && wrong++ < 3) fprintf(stderr, "nav_test query %d: length %f (funnel %f), %d corners: %s\n", queries, length, funnel_length, count, wm_last_error());
  }
  if (f != NULL) fclose(f);
  CHECK(queries >= 20 && wrong == 0);
  printf("navmesh   %d RecastDemo queries of nav_test.obj: paths from and to the nearest mesh points, shortest <= funnel\n", queries);

  /* Raycasts: along the start of a query it either reaches its end or stops at a wall. */
  {
    const double from[3] = {18.138550, -2.370003, -21.319118}, far_to[3] = {18.138550, -2.370003, 400};
    int hit = -1;
    double t = -1, point[3], normal[3];
    CHECK_RC(wm_navmesh_raycast(mesh, from, far_to, &hit, &t, point, normal), WM_OK);
    CHECK(hit == 1 && t > 0 && t < 1 && fabs(normal[0] * normal[0] + normal[2] * normal[2] - 1) < 1e-9 && normal[1] == 0);
    const double off[3] = {1000, 0, 1000};
    CHECK_RC(wm_navmesh_raycast(mesh, off, far_to, &hit, &t, NULL, NULL), WM_OUT_OF_BOUNDS);
    const double nan_point[3] = {NAN, 0, 0};
    CHECK_RC(wm_navmesh_raycast(mesh, nan_point, far_to, &hit, &t, NULL, NULL), WM_ERROR_INVALID_ARGUMENT);
    double nearest[3];
    CHECK_RC(wm_navmesh_nearest_point(mesh, off, NULL, nearest), WM_OUT_OF_BOUNDS);
    const double bad_extents[3] = {-1, 1, 1};
    CHECK_RC(wm_navmesh_nearest_point(mesh, from, bad_extents, nearest), WM_ERROR_INVALID_ARGUMENT);
    double length = 0;
    int count = 0;
    CHECK_RC(wm_nav_find_path(shortest, from, off, &length, corners, 1024, &count), WM_OUT_OF_BOUNDS);
    CHECK(isinf(length) && count == 0);
    const double to[3] = {-19.206181, -2.369133, 24.802742};
    CHECK_RC(wm_nav_find_path(shortest, from, to, &length, corners, 1, &count), WM_BUFFER_TOO_SMALL);
    CHECK(count > 1);
    CHECK_RC(wm_nav_find_path(shortest, from, to, &length, NULL, 4, &count), WM_ERROR_INVALID_ARGUMENT);
  }
  /* Misuse of the builds and loads. */
  wm_navmesh* bad = NULL;
  CHECK_RC(wm_nav_query_create(mesh, "fastest", &shortest), WM_ERROR_INVALID_ARGUMENT);
  CHECK(contains(wm_last_error(), "funnel"));
  CHECK_RC(wm_navmesh_build_obj("/no/such.obj", NULL, &bad), WM_ERROR_LOAD);
  CHECK(contains(wm_last_error(), "/no/such.obj"));
  wm_recast_params broken = wm_recast_params_default();
  broken.cell_size = -1;
  snprintf(path, sizeof path, "%s/meshes/nav_test.obj", data);
  CHECK_RC(wm_navmesh_build_obj(path, &broken, &bad), WM_ERROR_BUILD);
  CHECK(contains(wm_last_error(), "cell_size"));
  broken = wm_recast_params_default();
  broken.version = 7;
  CHECK_RC(wm_navmesh_build_obj(path, &broken, &bad), WM_ERROR_INVALID_ARGUMENT);
  const char quad[] = "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nf 1 3 2\nf 1 4 3\n";
  CHECK_RC(wm_navmesh_build_obj_text(quad, strlen(quad), "quad.obj", NULL, &bad), WM_OK);
  CHECK_RC(wm_navmesh_size(bad, &polygons, NULL), WM_OK);
  CHECK(polygons >= 1);
  wm_navmesh_release(bad);
  const char broken_obj[] = "v 0 0 0\nv 1 0 0\nf 1 2 9\n";
  CHECK_RC(wm_navmesh_build_obj_text(broken_obj, strlen(broken_obj), "broken.obj", NULL, &bad), WM_ERROR_LOAD);
  CHECK(contains(wm_last_error(), "broken.obj:3"));
  CHECK_RC(wm_navmesh_load_baked("/no/such.wmnav", NULL, &bad), WM_ERROR_LOAD);
  CHECK_RC(wm_navmesh_load_baked(path, NULL, &bad), WM_ERROR_LOAD); /* an OBJ is not a bake */
  /* The queries keep their mesh. */
  wm_navmesh_release(mesh);
  CHECK_RC(wm_navmesh_size(mesh, &polygons, NULL), WM_ERROR_INVALID_HANDLE);
  {
    const double a[3] = {18.138550, -2.370003, -21.319118}, b[3] = {-19.206181, -2.369133, 24.802742};
    double length = 0;
    CHECK_RC(wm_nav_find_path(funnel, a, b, &length, NULL, 0, NULL), WM_OK);
  }
  wm_nav_query_release(shortest);
  wm_nav_query_release(funnel);
  CHECK_RC(wm_nav_find_path(funnel, corners, corners, NULL, NULL, 0, NULL), WM_ERROR_INVALID_HANDLE);
}


/* Request queues: arena's Moving AI queries on an astar and a jps planner of one grid, many
   requests time-sliced over a small pool, each at its optimum; a full queue, a stale grid (the
   request waits for the sync), cancellation and misuse. */
static void queues(const char* data) {
  char path[1024];
  snprintf(path, sizeof path, "%s/maps/arena.map", data);
  wm_grid* grid = NULL;
  CHECK_RC(wm_grid_load(path, &grid), WM_OK);
  wm_planner* astar = NULL;
  wm_planner* jps = NULL;
  CHECK_RC(wm_planner_create(grid, "astar", &astar), WM_OK);
  CHECK_RC(wm_planner_create(grid, "jps", &jps), WM_OK);
  wm_queue_options options = wm_queue_options_default();
  CHECK(options.version == WM_QUEUE_OPTIONS_VERSION && options.max_requests == 256 && options.max_searches == 8);
  options.max_requests = 64;
  options.max_searches = 3;
  options.turn_expansions = 16;
  wm_queue* queue = NULL;
  CHECK_RC(wm_queue_create(&options, &queue), WM_OK);

  enum { Q = 60 };
  int ends[Q][4];
  double optima[Q];
  uint64_t ids[Q];
  int n = 0;
  snprintf(path, sizeof path, "%s/maps/arena.map.scen", data);
  FILE* f = fopen(path, "r");
  CHECK(f != NULL);
  char line[512];
  while (f != NULL && n < Q && fgets(line, sizeof line, f) != NULL) {
    int bucket, w, h;
    char map[256];
    if (sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &bucket, map, &w, &h, &ends[n][0], &ends[n][1], &ends[n][2], &ends[n][3],
               &optima[n]) == 9) {
      CHECK_RC(wm_queue_submit(queue, n % 2 ? jps : astar, ends[n][0], ends[n][1], ends[n][2], ends[n][3], n % 3, &ids[n]), WM_OK);
      ++n;
    }
  }
  if (f != NULL) fclose(f);
  CHECK(n == Q);
  wm_planner_release(jps); /* the queue keeps it */
  int in_flight = -1, frames = 0;
  CHECK_RC(wm_queue_result(queue, ids[0]), WM_RUNNING);
  while (in_flight != 0 && frames < 100000) {
    CHECK_RC(wm_queue_update(queue, 200, 0, &in_flight), WM_OK);
    ++frames;
  }
  CHECK(frames > Q / 3); /* time-sliced: many frames */
  int wrong = 0;
  static int xy[2 * 4096];
  for (int i = 0; i < n; ++i) {
    double cost = 0;
    int count = 0;
    const int rc = wm_queue_result(queue, ids[i]);
    const int prc = wm_queue_path(queue, ids[i], &cost, xy, 4096, &count);
    if (rc != WM_OK || prc != WM_OK || fabs(cost - optima[i]) > 1e-6 || !valid_path(grid, xy, count, ends[i][0], ends[i][1], ends[i][2], ends[i][3])) {
      if (wrong++ < 3) fprintf(stderr, "queue request %d: %s cost %.8f, optimum %.8f\n", i, wm_result_name(rc), cost, optima[i]);
    }
  }
  CHECK(wrong == 0);
  printf("queue     %d arena requests on astar and jps, 3 searches, 16 expansions a turn: all at their optima after %d frames\n", n, frames);
  double cost = 0;
  int count = 0;
  CHECK_RC(wm_queue_path(queue, ids[1], &cost, xy, 1, &count), WM_BUFFER_TOO_SMALL);
  CHECK(count > 1);

  /* Full: 60 held of 64, 4 more fit, the fifth does not. */
  uint64_t more[5];
  for (int i = 0; i < 4; ++i) CHECK_RC(wm_queue_submit(queue, astar, 1, 1, 2, 2, 0, &more[i]), WM_OK);
  CHECK_RC(wm_queue_submit(queue, astar, 1, 1, 2, 2, 0, &more[4]), WM_BUFFER_TOO_SMALL);
  CHECK(contains(wm_last_error(), "max_requests"));
  for (int i = 0; i < n; ++i) CHECK_RC(wm_queue_release_request(queue, ids[i]), WM_OK);
  CHECK_RC(wm_queue_result(queue, ids[0]), WM_ERROR_INVALID_ARGUMENT); /* released */
  CHECK_RC(wm_queue_release_request(queue, ids[0]), WM_ERROR_INVALID_ARGUMENT);

  /* A stale grid: the request waits until the planner syncs. */
  CHECK_RC(wm_grid_set_blocked(grid, 40, 40, 1), WM_OK);
  uint64_t waits = 0;
  CHECK_RC(wm_queue_submit(queue, astar, ends[0][0], ends[0][1], ends[0][2], ends[0][3], 0, &waits), WM_OK);
  for (int i = 0; i < 10; ++i) CHECK_RC(wm_queue_update(queue, 0, 0, NULL), WM_OK);
  CHECK_RC(wm_queue_result(queue, waits), WM_RUNNING);
  CHECK_RC(wm_planner_sync(astar, NULL), WM_OK);
  for (int i = 0; i < 100 && wm_queue_result(queue, waits) == WM_RUNNING; ++i) wm_queue_update(queue, 0, 0, NULL);
  CHECK_RC(wm_queue_result(queue, waits), WM_OK);

  /* Cancelled before a turn; a blocked goal says so; ends off the grid are refused at once. */
  uint64_t cancelled = 0, blocked = 0, outside = 7;
  CHECK_RC(wm_queue_submit(queue, astar, ends[0][0], ends[0][1], ends[0][2], ends[0][3], 0, &cancelled), WM_OK);
  CHECK_RC(wm_queue_cancel(queue, cancelled), WM_OK);
  CHECK_RC(wm_queue_result(queue, cancelled), WM_CANCELLED);
  CHECK_RC(wm_queue_path(queue, cancelled, &cost, xy, 4096, &count), WM_OK);
  CHECK(count == 0 && isinf(cost));
  CHECK_RC(wm_queue_submit(queue, astar, ends[0][0], ends[0][1], 40, 40, 0, &blocked), WM_OK);
  for (int i = 0; i < 100 && wm_queue_result(queue, blocked) == WM_RUNNING; ++i) wm_queue_update(queue, 0, 0, NULL);
  CHECK_RC(wm_queue_result(queue, blocked), WM_GOAL_BLOCKED);
  CHECK_RC(wm_queue_submit(queue, astar, -1, 0, 2, 2, 0, &outside), WM_OUT_OF_BOUNDS);
  CHECK(outside == 0);

  /* Misuse. */
  CHECK_RC(wm_queue_update(queue, 0, NAN, NULL), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_queue_result(queue, 12345), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_queue_submit(queue, NULL, 1, 1, 2, 2, 0, &outside), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_queue_submit(queue, (wm_planner*)grid, 1, 1, 2, 2, 0, &outside), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_queue_submit(queue, astar, 1, 1, 2, 2, 0, NULL), WM_ERROR_INVALID_ARGUMENT);
  wm_queue_options bad = wm_queue_options_default();
  bad.max_searches = 0;
  wm_queue* none = NULL;
  CHECK_RC(wm_queue_create(&bad, &none), WM_ERROR_INVALID_ARGUMENT);
  bad = wm_queue_options_default();
  bad.version = 3;
  CHECK_RC(wm_queue_create(&bad, &none), WM_ERROR_INVALID_ARGUMENT);
  CHECK(none == NULL);
  CHECK_RC(wm_queue_create(NULL, NULL), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_queue_retain(queue), WM_OK);
  wm_queue_release(queue);
  wm_planner_release(astar);
  wm_grid_release(grid);
  CHECK_RC(wm_queue_update(queue, 0, 0, NULL), WM_OK); /* still held once; its planners too */
  wm_queue_release(queue);
  CHECK_RC(wm_queue_update(queue, 0, 0, NULL), WM_ERROR_INVALID_HANDLE);
  wm_queue_release(queue);
}

/* Simulations: agents through a door on a grid (arrive, no overlap, never in a wall), the door
   shut (the rooms are apart: unreachable, no path) and opened again (it arrives); a crowd of
   two on a Recast navmesh; and misuse. */
static int run_until_arrived(wm_sim* sim, int max_steps, const wm_grid* walls) {
  int inside_wall = 0;
  for (int step = 0; step < max_steps; ++step) {
    wm_sim_stats st;
    int n = 0;
    if (wm_sim_stats_get(sim, &st) != WM_OK || wm_sim_agent_count(sim, &n) != WM_OK) return -1;
    if ((int)st.arrived == n) break;
    if (wm_sim_step(sim, 0.05) != WM_OK) return -1;
    for (int id = 0; walls != NULL && id < n; ++id) {
      double x = 0, y = 0;
      int blocked = 0;
      wm_sim_agent(sim, id, &x, &y, NULL, NULL);
      if (wm_grid_blocked(walls, (int)floor(x), (int)floor(y), &blocked) != WM_OK || blocked) ++inside_wall;
    }
  }
  return inside_wall;
}

static void simulations(void) {
  /* Two rooms of 9 x 8 inside a wall, joined by a door at (10, 4). */
  enum { W = 21, H = 10 };
  unsigned char cells[W * H];
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) cells[y * W + x] = (unsigned char)(x == 0 || y == 0 || x == W - 1 || y == H - 1 || (x == 10 && y != 4));
  }
  wm_grid* grid = NULL;
  CHECK_RC(wm_grid_from_cells(W, H, cells, &grid), WM_OK);
  wm_sim_params params = wm_sim_params_default();
  CHECK(params.version == WM_SIM_PARAMS_VERSION && params.agent_avoidance == 1 && params.max_requests == 256);
  wm_sim* sim = NULL;
  CHECK_RC(wm_sim_create_grid(grid, &params, &sim), WM_OK);
  int a = -1, b = -1;
  CHECK_RC(wm_sim_add_agent(sim, NULL, 2.5, 2.5, 18.5, 2.5, &a), WM_OK);
  wm_agent_params small = wm_agent_params_default();
  small.radius = 0.3;
  CHECK_RC(wm_sim_add_agent(sim, &small, 18.5, 7.5, 2.5, 7.5, &b), WM_OK);
  CHECK(a == 0 && b == 1);
  CHECK(run_until_arrived(sim, 2000, grid) == 0);
  wm_sim_stats st;
  CHECK_RC(wm_sim_stats_get(sim, &st), WM_OK);
  CHECK(st.arrived == 2 && st.collisions == 0 && st.plans >= 2 && st.ticks > 20);
  double xy[4];
  int statuses[2], count = 0;
  CHECK_RC(wm_sim_agents(sim, xy, statuses, 2, &count), WM_OK);
  CHECK(count == 2 && statuses[0] == WM_AGENT_ARRIVED && statuses[1] == WM_AGENT_ARRIVED);
  CHECK(fabs(xy[0] - 18.5) < 0.6 && fabs(xy[1] - 2.5) < 0.6 && fabs(xy[2] - 2.5) < 0.6 && fabs(xy[3] - 7.5) < 0.6);
  CHECK_RC(wm_sim_agents(sim, xy, NULL, 1, &count), WM_BUFFER_TOO_SMALL);
  CHECK(count == 2 && contains(wm_last_error(), "2 agents"));
  printf("sim       two agents through a door: both arrived after %llu ticks, no collision, never in a wall\n",
         (unsigned long long)st.ticks);

  /* The door shut: agent 0 sent back cannot get there; open again, it goes. */
  CHECK_RC(wm_sim_set_blocked(sim, 10, 4, 1), WM_OK);
  CHECK_RC(wm_sim_set_goal(sim, a, 2.5, 2.5), WM_OK);
  int status = -1, reason = -1;
  for (int i = 0; i < 100 && status != WM_AGENT_UNREACHABLE; ++i) {
    CHECK_RC(wm_sim_step(sim, 0.05), WM_OK);
    CHECK_RC(wm_sim_agent(sim, a, NULL, NULL, &status, &reason), WM_OK);
  }
  CHECK(status == WM_AGENT_UNREACHABLE && reason == WM_REASON_NO_PATH);
  CHECK_RC(wm_sim_set_blocked(sim, 10, 4, 0), WM_OK);
  wm_grid_release(grid); /* the simulation has a map of its own */
  CHECK(run_until_arrived(sim, 2000, NULL) == 0);
  CHECK_RC(wm_sim_agent(sim, a, xy, xy + 1, &status, &reason), WM_OK);
  CHECK(status == WM_AGENT_ARRIVED && xy[0] < 3.2);

  /* Orders and obstacles. */
  int crate = -1;
  CHECK_RC(wm_sim_add_obstacle_circle(sim, 5.5, 5.5, 0.5, &crate), WM_OK);
  CHECK_RC(wm_sim_remove_obstacle(sim, crate), WM_OK);
  CHECK_RC(wm_sim_remove_obstacle(sim, crate), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_sim_add_obstacle_circle(sim, 5.5, 5.5, -1, &crate), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_sim_add_obstacle_circle(sim, NAN, 5.5, 1, &crate), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_sim_stop(sim, b), WM_OK);
  CHECK_RC(wm_sim_agent(sim, b, NULL, NULL, &status, NULL), WM_OK);
  CHECK(status == WM_AGENT_STOPPED);
  CHECK_RC(wm_sim_resume(sim, b), WM_OK);
  CHECK_RC(wm_sim_remove_agent(sim, b), WM_OK);
  CHECK_RC(wm_sim_agent(sim, b, NULL, NULL, &status, NULL), WM_OK);
  CHECK(status == WM_AGENT_REMOVED);
  CHECK_RC(wm_sim_set_goal(sim, b, 1.5, 1.5), WM_ERROR_INVALID_ARGUMENT);
  CHECK(contains(wm_last_error(), "removed"));

  /* Misuse: a code and a message each. */
  CHECK_RC(wm_sim_step(sim, 0), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_sim_step(sim, NAN), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_sim_set_goal(sim, 7, 1, 1), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_sim_set_goal(sim, -1, 1, 1), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_sim_set_goal(sim, a, INFINITY, 1), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_sim_agent(sim, 2, NULL, NULL, NULL, NULL), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_sim_set_blocked(sim, W, 0, 1), WM_OUT_OF_BOUNDS);
  wm_agent_params bad = wm_agent_params_default();
  bad.radius = -1;
  int id = 0;
  CHECK_RC(wm_sim_add_agent(sim, &bad, 1.5, 1.5, 2.5, 2.5, &id), WM_ERROR_INVALID_ARGUMENT);
  CHECK(id == -1);
  bad = wm_agent_params_default();
  bad.version = 99;
  CHECK_RC(wm_sim_add_agent(sim, &bad, 1.5, 1.5, 2.5, 2.5, &id), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_sim_add_agent(sim, NULL, NAN, 1.5, 2.5, 2.5, &id), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_sim_add_agent(sim, NULL, 1.5, 1.5, 2.5, 2.5, NULL), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_sim_agents(sim, xy, NULL, -1, &count), WM_ERROR_INVALID_ARGUMENT);
  wm_sim_params broken = wm_sim_params_default();
  broken.version = 0;
  wm_sim* none = NULL;
  CHECK_RC(wm_sim_create_grid(grid, NULL, &none), WM_ERROR_INVALID_HANDLE); /* released above */
  CHECK_RC(wm_grid_from_cells(W, H, cells, &grid), WM_OK);
  CHECK_RC(wm_sim_create_grid(grid, &broken, &none), WM_ERROR_INVALID_ARGUMENT);
  broken = wm_sim_params_default();
  broken.planner.algorithm = "teleport";
  CHECK_RC(wm_sim_create_grid(grid, &broken, &none), WM_ERROR_INVALID_ARGUMENT);
  CHECK(contains(wm_last_error(), "teleport"));
  broken = wm_sim_params_default();
  broken.max_requests = 0;
  CHECK_RC(wm_sim_create_grid(grid, &broken, &none), WM_ERROR_INVALID_ARGUMENT);
  CHECK(none == NULL);
  CHECK_RC(wm_sim_create_grid(grid, NULL, NULL), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_sim_create_navmesh((const wm_navmesh*)grid, NULL, &none), WM_ERROR_INVALID_HANDLE); /* a grid is no navmesh */
  wm_grid_release(grid);
  CHECK_RC(wm_sim_retain(sim), WM_OK);
  wm_sim_release(sim);
  CHECK_RC(wm_sim_step(sim, 0.05), WM_OK); /* one reference left */
  wm_sim_release(sim);
  CHECK_RC(wm_sim_step(sim, 0.05), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_sim_stats_get(sim, &st), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_sim_agent_count(NULL, &count), WM_ERROR_INVALID_HANDLE);
  wm_sim_release(sim); /* a released handle: nothing */
  wm_sim_release(NULL);

  /* A navmesh simulation: two agents crossing a level of two rooms joined by a corridor (a
     flat floor: the simulation is planar, and on a level with floors above each other a point
     takes the nearest floor); the mesh handle released first (the simulation keeps it). */
  const char* rooms =
      "v 0 0 0\nv 8 0 0\nv 8 0 8\nv 0 0 8\n"
      "v 8 0 2.5\nv 14 0 2.5\nv 14 0 5.5\nv 8 0 5.5\n"
      "v 14 0 0\nv 22 0 0\nv 22 0 8\nv 14 0 8\n"
      "f 1 3 2\nf 1 4 3\nf 5 7 6\nf 5 8 7\nf 9 11 10\nf 9 12 11\n";
  wm_navmesh* mesh = NULL;
  CHECK_RC(wm_navmesh_build_obj_text(rooms, strlen(rooms), "rooms.obj", NULL, &mesh), WM_OK);
  double p[3], q[3];
  const double from[3] = {2, 0, 2}, to[3] = {20, 0, 6};
  CHECK_RC(wm_navmesh_nearest_point(mesh, from, NULL, p), WM_OK);
  CHECK_RC(wm_navmesh_nearest_point(mesh, to, NULL, q), WM_OK);
  wm_sim_params sideways = wm_sim_params_default();
  sideways.nav_mode = "sideways";
  wm_sim* other = NULL;
  CHECK_RC(wm_sim_create_navmesh(mesh, &sideways, &other), WM_ERROR_INVALID_ARGUMENT);
  CHECK(contains(wm_last_error(), "sideways") && other == NULL);
  CHECK_RC(wm_sim_create_navmesh(mesh, NULL, &sim), WM_OK);
  wm_navmesh_release(mesh);
  CHECK_RC(wm_sim_add_agent(sim, NULL, p[0], p[2], q[0], q[2], &a), WM_OK);
  CHECK_RC(wm_sim_add_agent(sim, NULL, q[0], q[2], p[0], p[2], &b), WM_OK);
  CHECK(run_until_arrived(sim, 4000, NULL) == 0);
  CHECK_RC(wm_sim_stats_get(sim, &st), WM_OK);
  CHECK(st.arrived == 2 && st.collisions == 0);
  CHECK_RC(wm_sim_set_blocked(sim, 0, 0, 1), WM_UNSUPPORTED);
  printf("sim       two agents crossing a Recast level of two rooms: both arrived after %llu ticks, no collision\n",
         (unsigned long long)st.ticks);
  CHECK_RC(wm_navmesh_size(mesh, NULL, NULL), WM_ERROR_INVALID_HANDLE); /* the user's handle is gone, the mesh is not */
  wm_sim_release(sim);
}

static int events_seen[7];
static void count_event(void* context, const wm_event* e) {
  if (e->kind >= 0 && e->kind < 7) ++events_seen[e->kind];
  *(int*)context += 1;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
    return 2;
  }
  char path[1024], scen[1024];

  /* The library and its header agree. */
  CHECK(strcmp(wm_version(), WAYMARK_VERSION_STRING) == 0);
  CHECK(strcmp(wm_last_error(), "") == 0);
  CHECK(strcmp(wm_result_name(WM_NO_PATH), "no-path") == 0);
  CHECK(strcmp(wm_result_name(WM_BUFFER_TOO_SMALL), "buffer-too-small") == 0);
  CHECK(strcmp(wm_result_name(12345), "unknown") == 0);

  /* ---- loading: right answers, and errors with file:line ---- */
  wm_grid* arena = NULL;
  snprintf(path, sizeof path, "%s/maps/arena.map", argv[1]);
  CHECK_RC(wm_grid_load(path, &arena), WM_OK);
  int width = 0, height = 0;
  CHECK_RC(wm_grid_size(arena, &width, &height), WM_OK);
  CHECK(width == 49 && height == 49);
  snprintf(scen, sizeof scen, "%s/maps/arena.map.scen", argv[1]);
  scenario_optima(arena, scen, "astar");
  scenario_optima(arena, scen, "jps");
  scenario_optima(arena, scen, "jps-plus");
  scenario_optima(arena, scen, "dijkstra");
  {
    wm_grid* den = NULL;
    snprintf(path, sizeof path, "%s/maps/den520d.map", argv[1]);
    CHECK_RC(wm_grid_load(path, &den), WM_OK);
    snprintf(scen, sizeof scen, "%s/maps/den520d.map.scen", argv[1]);
    scenario_optima(den, scen, "jps");
    wm_grid_release(den);
  }

  wm_grid* bad = (wm_grid*)1;
  CHECK_RC(wm_grid_load("/no/such/file.map", &bad), WM_ERROR_LOAD);
  CHECK(bad == NULL);
  CHECK(contains(wm_last_error(), "/no/such/file.map"));
  CHECK_RC(wm_grid_load(NULL, &bad), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_grid_load(path, NULL), WM_ERROR_INVALID_ARGUMENT);
  {
    const char text[] = "type octile\nheight 2\nwidth 3\nmap\n...\n.@\n";
    CHECK_RC(wm_grid_load_text(text, strlen(text), "mine.map", &bad), WM_ERROR_LOAD);
    CHECK(contains(wm_last_error(), "mine.map:6"));
    const char good[] = "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n";
    wm_grid* small = NULL;
    CHECK_RC(wm_grid_load_text(good, strlen(good), NULL, &small), WM_OK);
    int blocked = -1;
    CHECK_RC(wm_grid_blocked(small, 1, 1, &blocked), WM_OK);
    CHECK(blocked == 1);
    wm_grid_release(small);
    CHECK_RC(wm_grid_load_text(NULL, 5, "x", &bad), WM_ERROR_INVALID_ARGUMENT);
    CHECK_RC(wm_grid_load_text("", 0, NULL, &bad), WM_ERROR_LOAD);
  }

  /* ---- grids from cells: sizes checked before anything is allocated ---- */
  /* A 5 x 4 grid with a wall at x = 2 except at y = 3:
       . . # . .
       . . # . .
       . . # . .
       . . . . .   */
  unsigned char cells[20] = {0};
  for (int y = 0; y < 3; ++y) cells[y * 5 + 2] = 1;
  wm_grid* grid = NULL;
  CHECK_RC(wm_grid_from_cells(5, 4, cells, &grid), WM_OK);
  CHECK_RC(wm_grid_from_cells(0, 4, cells, &bad), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_grid_from_cells(5, -1, cells, &bad), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_grid_from_cells(40000, 1, cells, &bad), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_grid_from_cells(32768, 32768, cells, &bad), WM_ERROR_LIMIT);
  CHECK(contains(wm_last_error(), "WM_MAX_GRID_CELLS"));
  CHECK_RC(wm_grid_from_cells(5, 4, NULL, &bad), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_grid_from_cells(5, 4, cells, NULL), WM_ERROR_INVALID_ARGUMENT);
  int blocked = -1;
  CHECK_RC(wm_grid_blocked(grid, 2, 0, &blocked), WM_OK);
  CHECK(blocked == 1);
  CHECK_RC(wm_grid_blocked(grid, 5, 0, &blocked), WM_OUT_OF_BOUNDS);
  CHECK_RC(wm_grid_blocked(grid, 0, -1, &blocked), WM_OUT_OF_BOUNDS);
  CHECK_RC(wm_grid_blocked(grid, 0, 0, NULL), WM_ERROR_INVALID_ARGUMENT);

  /* ---- planners and wm_plan ---- */
  wm_planner* planner = (wm_planner*)1;
  CHECK_RC(wm_planner_create(grid, "no-such-search", &planner), WM_ERROR_INVALID_ARGUMENT);
  CHECK(planner == NULL);
  CHECK(contains(wm_last_error(), "jps-plus"));
  CHECK_RC(wm_planner_create(NULL, "astar", &planner), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_planner_create(grid, NULL, &planner), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_planner_create(grid, "astar", NULL), WM_ERROR_INVALID_ARGUMENT);
  const char* algorithms[] = {"astar", "wastar", "dijkstra", "greedy", "bfs", "dfs", "ida", "jps", "jps-plus", "jps+", "theta"};
  for (size_t i = 0; i < sizeof algorithms / sizeof algorithms[0]; ++i) {
    wm_planner* p = NULL;
    CHECK_RC(wm_planner_create(grid, algorithms[i], &p), WM_OK);
    CHECK_RC(wm_planner_supported(p), WM_OK);
    double cost = 0;
    int count = 0, xy[64];
    CHECK_RC(wm_plan(p, 0, 0, 4, 0, &cost, xy, 32, &count), WM_OK);
    CHECK(count >= 2 && xy[0] == 0 && xy[1] == 0 && xy[2 * count - 2] == 4 && xy[2 * count - 1] == 0);
    CHECK(cost >= 6 + 2 * sqrt(2.0) - 1e-9 || strcmp(algorithms[i], "theta") == 0);
    wm_planner_release(p);
  }

  CHECK_RC(wm_planner_create(grid, "astar", &planner), WM_OK);
  double cost = 0;
  int count = 0;
  int xy[64];
  /* (0,0) -> (4,0) through the gap (2,3), which only (1,3) and (3,3) reach without cutting the
     wall's corner: sqrt(2) + 2 down to (1,3), 2 across, 2 + sqrt(2) up to (4,0). */
  const double before = 6 + 2 * sqrt(2.0);
  CHECK_RC(wm_plan(planner, 0, 0, 4, 0, &cost, xy, 32, &count), WM_OK);
  CHECK(fabs(cost - before) < 1e-9);
  CHECK(valid_path(grid, xy, count, 0, 0, 4, 0));
  const int full = count;

  /* A buffer too small: the count still says how many, the buffer holds what fits. */
  int small_xy[6] = {-7, -7, -7, -7, -7, -7};
  CHECK_RC(wm_plan(planner, 0, 0, 4, 0, &cost, small_xy, 2, &count), WM_BUFFER_TOO_SMALL);
  CHECK(count == full);
  CHECK(small_xy[0] == 0 && small_xy[1] == 0 && small_xy[4] == -7);
  CHECK(contains(wm_last_error(), "cells"));
  CHECK_RC(wm_plan(planner, 0, 0, 4, 0, &cost, NULL, 0, &count), WM_OK);
  CHECK(count == full);
  CHECK_RC(wm_plan(planner, 0, 0, 4, 0, NULL, NULL, 0, NULL), WM_OK);
  CHECK_RC(wm_plan(planner, 0, 0, 4, 0, &cost, NULL, 5, &count), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_plan(planner, 0, 0, 4, 0, &cost, xy, -1, &count), WM_ERROR_INVALID_ARGUMENT);

  /* Out-of-range and blocked ends: a distinct code, INFINITY, no cells. */
  CHECK_RC(wm_plan(planner, -1, 0, 4, 0, &cost, xy, 32, &count), WM_OUT_OF_BOUNDS);
  CHECK(isinf(cost) && count == 0);
  CHECK(contains(wm_last_error(), "(-1, 0)"));
  CHECK_RC(wm_plan(planner, 0, 0, 5, 0, &cost, xy, 32, &count), WM_OUT_OF_BOUNDS);
  CHECK_RC(wm_plan(planner, 0, 0, 0x7fffffff, 0x7fffffff, &cost, xy, 32, &count), WM_OUT_OF_BOUNDS);
  CHECK_RC(wm_plan(planner, 2, 0, 4, 0, &cost, xy, 32, &count), WM_START_BLOCKED);
  CHECK(isinf(cost));
  CHECK_RC(wm_plan(planner, 0, 0, 2, 1, &cost, xy, 32, &count), WM_GOAL_BLOCKED);
  CHECK(isinf(cost) && count == 0);
  CHECK_RC(wm_plan(NULL, 0, 0, 4, 0, &cost, xy, 32, &count), WM_ERROR_INVALID_HANDLE);
  CHECK(isinf(cost));

  /* ---- edits: a closed gap makes the planner stale until it syncs; then no path ---- */
  int stale = -1;
  uint64_t version = 99;
  CHECK_RC(wm_grid_version(grid, &version), WM_OK);
  CHECK(version == 0);
  CHECK_RC(wm_grid_set_blocked(grid, 2, 3, 1), WM_OK);
  CHECK_RC(wm_grid_set_blocked(grid, 9, 3, 1), WM_OUT_OF_BOUNDS);
  CHECK_RC(wm_grid_version(grid, &version), WM_OK);
  CHECK(version == 1);
  CHECK_RC(wm_planner_stale(planner, &stale), WM_OK);
  CHECK(stale == 1);
  CHECK_RC(wm_plan(planner, 0, 0, 4, 0, &cost, xy, 32, &count), WM_STALE_WORLD);
  CHECK(isinf(cost));
  uint64_t recomputed = 0;
  CHECK_RC(wm_planner_sync(planner, &recomputed), WM_OK);
  CHECK(recomputed > 0);
  CHECK_RC(wm_planner_stale(planner, &stale), WM_OK);
  CHECK(stale == 0);
  CHECK_RC(wm_plan(planner, 0, 0, 4, 0, &cost, xy, 32, &count), WM_NO_PATH);
  CHECK(isinf(cost) && count == 0);
  CHECK(contains(wm_last_error(), "unreachable"));
  CHECK_RC(wm_grid_set_blocked(grid, 2, 3, 0), WM_OK);
  CHECK_RC(wm_planner_sync(planner, NULL), WM_OK);
  CHECK_RC(wm_plan(planner, 0, 0, 4, 0, &cost, xy, 32, &count), WM_OK);

  /* Costs: A* pays them; a jump search refuses the map with the reason. */
  double multiplier = 0;
  CHECK_RC(wm_grid_set_cost(grid, 2, 3, 10), WM_OK);
  CHECK_RC(wm_grid_set_cost(grid, 2, 3, 0), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_grid_set_cost(grid, 2, 3, NAN), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_grid_set_cost(grid, 2, 3, INFINITY), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_grid_set_cost(grid, -3, 3, 2), WM_OUT_OF_BOUNDS);
  CHECK_RC(wm_grid_cost(grid, 2, 3, &multiplier), WM_OK);
  CHECK(multiplier == 10);
  CHECK_RC(wm_planner_sync(planner, NULL), WM_OK);
  CHECK_RC(wm_plan(planner, 0, 0, 4, 0, &cost, xy, 32, &count), WM_OK);
  CHECK(fabs(cost - (before + 9)) < 1e-9); /* into and out of the gap at (1 + 10) / 2 each */
  wm_planner* jps = NULL;
  CHECK_RC(wm_planner_create(grid, "jps", &jps), WM_OK);
  CHECK_RC(wm_planner_supported(jps), WM_UNSUPPORTED);
  CHECK(strlen(wm_last_error()) > 0);
  CHECK_RC(wm_plan(jps, 0, 0, 4, 0, &cost, xy, 32, &count), WM_UNSUPPORTED);
  CHECK(isinf(cost));
  wm_planner_release(jps);
  CHECK_RC(wm_grid_set_cost(grid, 2, 3, 1), WM_OK);
  CHECK_RC(wm_planner_sync(planner, NULL), WM_OK);

  /* ---- options ---- */
  wm_planner_options po = wm_planner_options_default();
  CHECK(po.version == WM_PLANNER_OPTIONS_VERSION && po.algorithm == NULL && po.diagonal == WM_DIAGONAL_NO_CORNER_CUTTING);
  wm_planner* four = NULL;
  po.diagonal = WM_DIAGONAL_NEVER;
  CHECK_RC(wm_planner_create_with(grid, &po, &four), WM_OK);
  CHECK_RC(wm_plan(four, 0, 0, 4, 0, &cost, xy, 32, &count), WM_OK);
  CHECK(fabs(cost - 10) < 1e-9); /* 3 down, 4 across, 3 up */
  wm_planner_release(four);
  po.diagonal = 7;
  CHECK_RC(wm_planner_create_with(grid, &po, &four), WM_ERROR_INVALID_ARGUMENT);
  po = wm_planner_options_default();
  po.heuristic = 9;
  CHECK_RC(wm_planner_create_with(grid, &po, &four), WM_ERROR_INVALID_ARGUMENT);
  po = wm_planner_options_default();
  po.version = 99;
  CHECK_RC(wm_planner_create_with(grid, &po, &four), WM_ERROR_INVALID_ARGUMENT);
  CHECK(contains(wm_last_error(), "wm_planner_options_default"));
  po = wm_planner_options_default();
  po.query.weight = 0.5;
  CHECK_RC(wm_planner_create_with(grid, &po, &four), WM_ERROR_INVALID_ARGUMENT);
  po.query.weight = NAN;
  CHECK_RC(wm_planner_create_with(grid, &po, &four), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_planner_create_with(grid, NULL, &four), WM_ERROR_INVALID_ARGUMENT);

  /* ---- searches: stepped under a budget, with events, cancelled ---- */
  wm_search* search = NULL;
  CHECK_RC(wm_search_create(planner, NULL, NULL, &search), WM_OK);
  CHECK_RC(wm_search_result(search), WM_INVALID_QUERY);
  int events = 0;
  CHECK_RC(wm_search_set_events(search, count_event, &events), WM_OK);
  CHECK_RC(wm_search_begin(search, 0, 0, 4, 0), WM_RUNNING);
  int steps = 0, rc = WM_RUNNING;
  while (rc == WM_RUNNING && steps < 1000) {
    rc = wm_search_step(search, 2, 0);
    ++steps;
  }
  CHECK(rc == WM_OK);
  CHECK(steps > 2);
  CHECK_RC(wm_search_result(search), WM_OK);
  CHECK_RC(wm_search_path(search, &cost, xy, 32, &count), WM_OK);
  CHECK(fabs(cost - before) < 1e-9 && count == full);
  wm_search_stats stats;
  CHECK_RC(wm_search_stats_get(search, &stats), WM_OK);
  CHECK(stats.expanded > 0 && stats.generated >= stats.expanded);
  CHECK(events_seen[WM_EVENT_EXPAND] == (int)stats.expanded);
  CHECK(events_seen[WM_EVENT_BEGIN] == 1 && events_seen[WM_EVENT_END] == 1 && events_seen[WM_EVENT_GOAL] == 1);
  CHECK(events_seen[WM_EVENT_SLICE_END] == steps - 1);
  CHECK(events > 0);
  CHECK_RC(wm_search_set_events(search, NULL, NULL), WM_OK);
  events = 0;
  CHECK_RC(wm_search_begin(search, 0, 0, 4, 0), WM_RUNNING);
  CHECK_RC(wm_search_step(search, 1, 0), WM_RUNNING);
  CHECK_RC(wm_search_cancel(search), WM_OK);
  CHECK_RC(wm_search_step(search, 0, 0), WM_CANCELLED);
  CHECK(events == 0);
  CHECK_RC(wm_search_step(search, 0, -1), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_search_step(search, 0, NAN), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_search_begin(search, 0, 0, 99, 0), WM_OUT_OF_BOUNDS);
  CHECK_RC(wm_search_path(search, &cost, xy, 32, &count), WM_OK);
  CHECK(count == 0 && isinf(cost));
  CHECK_RC(wm_search_begin(search, 0, 0, 4, 0), WM_RUNNING);
  CHECK_RC(wm_search_step(search, 0, 1e9), WM_OK);
  CHECK_RC(wm_search_stats_get(search, NULL), WM_ERROR_INVALID_ARGUMENT);

  /* A node limit, and a partial path when one is asked for. */
  wm_query_options qo = wm_query_options_default();
  CHECK(qo.version == WM_QUERY_OPTIONS_VERSION && qo.weight >= 1 && qo.max_nodes == 0);
  qo.max_nodes = 4;
  qo.partial_result = 1;
  wm_search* limited = NULL;
  CHECK_RC(wm_search_create(planner, "dijkstra", &qo, &limited), WM_OK);
  CHECK_RC(wm_search_begin(limited, 0, 0, 4, 0), WM_RUNNING);
  CHECK_RC(wm_search_step(limited, 0, 0), WM_BUDGET_EXHAUSTED);
  CHECK_RC(wm_search_path(limited, &cost, xy, 32, &count), WM_OK);
  CHECK(count >= 1 && xy[0] == 0 && xy[1] == 0);
  qo.version = 0;
  wm_search* refused = NULL;
  CHECK_RC(wm_search_create(planner, "astar", &qo, &refused), WM_ERROR_INVALID_ARGUMENT);
  CHECK_RC(wm_search_create(planner, "nope", NULL, &refused), WM_ERROR_INVALID_ARGUMENT);
  CHECK(refused == NULL);
  wm_search_release(limited);

  /* ---- handles: parents kept alive, any release order, released and forged handles refused ---- */
  wm_grid_release(grid); /* the planner keeps it */
  CHECK_RC(wm_grid_size(grid, &width, &height), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_plan(planner, 0, 0, 4, 0, &cost, xy, 32, &count), WM_OK);
  CHECK(fabs(cost - before) < 1e-9);
  wm_planner_release(planner); /* the search keeps it */
  CHECK_RC(wm_plan(planner, 0, 0, 4, 0, &cost, xy, 32, &count), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_search_begin(search, 0, 0, 4, 0), WM_RUNNING);
  CHECK_RC(wm_search_step(search, 0, 0), WM_OK);
  CHECK_RC(wm_search_path(search, &cost, xy, 32, &count), WM_OK);
  CHECK(fabs(cost - before) < 1e-9);
  wm_search_release(search);
  CHECK_RC(wm_search_step(search, 0, 0), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_search_result(search), WM_ERROR_INVALID_HANDLE);
  wm_search_release(search); /* twice: nothing */
  wm_planner_release(planner);
  wm_grid_release(grid);
  wm_grid_release(NULL);
  wm_planner_release(NULL);
  wm_search_release(NULL);
  CHECK_RC(wm_grid_retain(grid), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_planner_create(grid, "astar", &planner), WM_ERROR_INVALID_HANDLE);
  CHECK(contains(wm_last_error(), "released"));
  /* Forged handles and a handle of another kind. */
  CHECK_RC(wm_grid_size((wm_grid*)(uintptr_t)0x12345, &width, &height), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_grid_size((wm_grid*)(uintptr_t)UINTPTR_MAX, &width, &height), WM_ERROR_INVALID_HANDLE);
  wm_planner* arena_planner = NULL;
  CHECK_RC(wm_planner_create(arena, "astar", &arena_planner), WM_OK);
  CHECK_RC(wm_grid_size((const wm_grid*)arena_planner, &width, &height), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_plan((wm_planner*)arena, 0, 0, 1, 1, &cost, xy, 32, &count), WM_ERROR_INVALID_HANDLE);
  /* Retain: two references, two releases. */
  CHECK_RC(wm_grid_retain(arena), WM_OK);
  wm_grid_release(arena);
  CHECK_RC(wm_grid_size(arena, &width, &height), WM_OK);
  wm_grid_release(arena);
  CHECK_RC(wm_grid_size(arena, &width, &height), WM_ERROR_INVALID_HANDLE);
  CHECK_RC(wm_planner_retain(arena_planner), WM_OK);
  wm_planner_release(arena_planner);
  CHECK_RC(wm_plan(arena_planner, 19, 26, 19, 29, &cost, NULL, 0, &count), WM_OK); /* arena.map.scen: 3 */
  CHECK(fabs(cost - 3) < 1e-9 && count == 4);
  wm_planner_release(arena_planner);
  CHECK_RC(wm_planner_retain(arena_planner), WM_ERROR_INVALID_HANDLE);
  wm_clear_error();
  CHECK(strcmp(wm_last_error(), "") == 0);

  /* The handle limit: 2^20 - 1 live handles, then WM_ERROR_LIMIT; a released one frees a slot. */
  {
    enum { most = (1 << 20) - 1 };
    wm_grid** many = malloc(sizeof(wm_grid*) * (size_t)most);
    const unsigned char one_cell[1] = {0};
    int made = 0;
    rc = WM_OK;
    while (made < most + 8 && many != NULL) {
      wm_grid* g = NULL;
      rc = wm_grid_from_cells(1, 1, one_cell, &g);
      if (rc != WM_OK) break;
      many[made++] = g;
    }
    CHECK(rc == WM_ERROR_LIMIT && contains(wm_last_error(), "1048575"));
    CHECK(made >= most - 16 && made <= most); /* a few slots are held by the handles above */
    if (made > 0) {
      wm_grid_release(many[0]);
      wm_grid* again = NULL;
      CHECK_RC(wm_grid_from_cells(1, 1, one_cell, &again), WM_OK);
      many[0] = again;
    }
    for (int i = 0; i < made; ++i) wm_grid_release(many[i]);
    free(many);
  }

  road_graphs(argv[1]);
  navmeshes(argv[1]);
  queues(argv[1]);
  simulations();

  printf("%d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
