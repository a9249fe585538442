// Navmesh queries side by side with Detour on the same Recast-built polygon mesh: mean µs per
// query (nearest polygon for both ends, the path, its corners), waymark's shortest and funnel
// modes against Detour's findNearestPoly + findPath + findStraightPath, with how the lengths
// compare, and the build time against Recast alone. Prints one JSON object.
//
// Meshes: RecastDemo's nav_test.obj (its 21 queries) and dungeon.obj (1,000 seeded pairs of polygon
// centres), and a procedural hilly terrain with pillars (1,000 seeded pairs of random points).
//
//   waymark_bench_navmesh [--rounds N] [--only detour|shortest|funnel] [--mesh TEXT] [--cpu-time]
//   (--only, --mesh: for a profiler; --cpu-time: thread CPU time, for a shared machine)
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "support/detour_reference.hpp"
#include "support/navmesh_support.hpp"
#include "support/terrain_mesh.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/recast/recast_build.hpp"

namespace {

using namespace waymark;
using navmesh::NavMesh;
using navmesh::NavMeshQuery;
using navmesh::NavMode;

struct Query {
  Vec3 from, to;
  std::uint16_t include = 0xffff, exclude = 0;
};

/// --only MODE: time only that mode (detour, shortest, funnel), lengths not compared: for a
/// profiler. --mesh TEXT: only the meshes whose name contains TEXT.
std::string only_mode, only_mesh;
/// --cpu-time: time by the thread's CPU clock instead of the wall clock (on a shared machine).
bool cpu_time = false;

/// The mean µs per query of one run of `run_all`, which runs every query once.
template <class F>
double mean_us(std::size_t queries, F&& run_all) {
  if (cpu_time) {
    const auto now = [] {
      timespec ts{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
      return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    };
    const double start = now();
    run_all();
    return (now() - start) * 1e6 / static_cast<double>(queries);
  }
  const Stopwatch t;
  run_all();
  return t.seconds() * 1e6 / static_cast<double>(queries);
}

/// Times the queries on `model` (named `name`): `given`, else 1,000 seeded pairs of polygon
/// centres, or with `random_points` 1,000 seeded pairs of random points on the mesh.
nlohmann::ordered_json bench_mesh(const std::string& name, const TriangleMesh& model, const std::vector<Query>* given,
                                  int rounds, bool random_points = false) {
  double recast_s = 1e300, convert_s = 1e300;
  std::optional<recast::RecastMeshes> built;  // the last build is the one queried
  std::optional<NavMesh> converted;
  for (int r = 0; r < 3; ++r) {  // Recast alone, then the conversion to waymark's mesh
    converted.reset();  // freeing the last round's meshes is not timed
    built.reset();
    const Stopwatch t;
    built.emplace(recast::build_recast_meshes(model));
    recast_s = std::min(recast_s, t.seconds());
    const Stopwatch c;
    converted.emplace(recast::to_nav_mesh(*built));
    convert_s = std::min(convert_s, c.seconds());
  }
  const NavMesh& nav = *converted;
  test::DetourReference detour(*built);
  std::vector<Query> queries;
  if (given) {
    queries = *given;
  } else if (random_points) {
    for (const auto& [from, to] : test::random_point_pairs(nav, 1000)) queries.push_back({from, to});
  } else {
    for (const auto& [from, to] : test::centroid_pairs(nav, 1000)) queries.push_back({from, to});
  }

  // Partial paths asked for, as Detour's findPath always makes one.
  NavMeshQuery shortest(nav, {.mode = NavMode::shortest, .query = {.partial_result = true}}),
      funnel(nav, {.mode = NavMode::funnel, .query = {.partial_result = true}});
  test::DetourReference::Result ref;
  double sink = 0;  // keeps the work observable
  const auto run_detour = [&] {
    for (const Query& q : queries) {
      detour.find_path(q.from, q.to, q.include, q.exclude, ref);
      sink += ref.length;
    }
  };
  const auto run = [&](NavMeshQuery& query) {
    return [&] {
      for (const Query& q : queries) {
        query.find_path(q.from, q.to, navmesh::QueryFilter{.include = q.include, .exclude = q.exclude});
        sink += query.path().length;
      }
    };
  };
  // Alternating rounds, so both see the same machine state.
  double detour_us = 1e300, shortest_us = 1e300, funnel_us = 1e300;
  const auto timed = [&](const char* mode) { return only_mode.empty() || only_mode == mode; };
  for (int r = 0; r < rounds; ++r) {
    if (timed("detour")) detour_us = std::min(detour_us, mean_us(queries.size(), run_detour));
    if (timed("shortest")) shortest_us = std::min(shortest_us, mean_us(queries.size(), run(shortest)));
    if (timed("funnel")) funnel_us = std::min(funnel_us, mean_us(queries.size(), run(funnel)));
  }

  // Lengths: waymark against Detour, query by query (equal: within 1e-3 + 0.5%).
  nlohmann::ordered_json lengths;
  for (NavMeshQuery* q : {&shortest, &funnel}) {
    if (!only_mode.empty()) break;  // profiling: only the timed queries run
    test::LengthTally t;
    for (const Query& query : queries) {
      detour.find_path(query.from, query.to, query.include, query.exclude, ref);
      const Status s = q->find_path(query.from, query.to, navmesh::QueryFilter{.include = query.include, .exclude = query.exclude});
      if (ref.found && !ref.partial && s.succeeded()) t.add(q->path().length, ref.length);
    }
    lengths[q == &shortest ? "shortest" : "funnel"] = {{"compared", t.compared},
                                                        {"equal", t.equal},
                                                        {"shorter", t.shorter},
                                                        {"longer", t.longer},
                                                        {"most_shorter_by", t.most_shorter_by},
                                                        {"worst_longer_ratio", t.worst_longer_ratio}};
  }
  return {{"mesh", name},
          {"polygons", nav.poly_count()},
          {"queries", queries.size()},
          {"detour_us", detour_us},
          {"shortest_us", shortest_us},
          {"funnel_us", funnel_us},
          {"shortest_over_detour", shortest_us / detour_us},
          {"funnel_over_detour", funnel_us / detour_us},
          {"lengths", lengths},
          {"recast_build_ms", recast_s * 1e3},
          {"waymark_build_ms", (recast_s + convert_s) * 1e3},
          {"build_over_recast", (recast_s + convert_s) / recast_s},
          {"checksum", sink}};
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 5;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::max(1, std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--only") == 0) only_mode = argv[i + 1];
    if (std::strcmp(argv[i], "--mesh") == 0) only_mesh = argv[i + 1];
  }
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--cpu-time") == 0) cpu_time = true;
  }
  std::vector<Query> recast_demo;
  for (const io::NavQueryLine& q : io::load_nav_queries(WAYMARK_DATA_DIR "/meshes/nav_mesh_test.txt")) {
    recast_demo.push_back({q.from, q.to, q.include, q.exclude});
  }
  // RecastDemo's 21 queries are too few to time one by one: each round runs them 50 times.
  std::vector<Query> repeated;
  for (int r = 0; r < 50; ++r) repeated.insert(repeated.end(), recast_demo.begin(), recast_demo.end());
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const auto obj = [](const char* name) { return io::load_obj(std::string(WAYMARK_DATA_DIR "/meshes/") + name); };
  const auto wanted = [](const char* name) { return std::string(name).find(only_mesh) != std::string::npos; };
  if (wanted("nav_test.obj")) out.push_back(bench_mesh("nav_test.obj", obj("nav_test.obj"), &repeated, rounds));
  if (wanted("dungeon.obj")) out.push_back(bench_mesh("dungeon.obj", obj("dungeon.obj"), nullptr, rounds));
  // A mesh nobody tuned for: a procedural hilly terrain with pillars (tests/support/terrain_mesh.hpp).
  if (wanted("hilly terrain")) {
    out.push_back(bench_mesh("hilly terrain (seed 31)", test::hilly_terrain(31, 120, 100), nullptr, rounds, true));
  }
  std::cout << out.dump(2) << "\n";
}
