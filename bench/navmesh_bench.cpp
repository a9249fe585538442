// Navmesh queries side by side with Detour on the same Recast-built polygon mesh: mean µs per
// query (nearest polygon for both ends, the path, its corners), waymark's shortest and funnel
// modes against Detour's findNearestPoly + findPath + findStraightPath, with how the lengths
// compare, and the build time against Recast alone. Prints one JSON object.
//
//   waymark_bench_navmesh [--rounds N]
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "support/detour_reference.hpp"
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

/// Seeded random pairs of polygon centres (the 1,000 pairs on dungeon.obj).
std::vector<Query> random_pairs(const NavMesh& nav, int count) {
  std::mt19937_64 rng(2017);
  std::uniform_int_distribution<std::uint32_t> any_poly(0, static_cast<std::uint32_t>(nav.poly_count() - 1));
  std::vector<Query> out;
  for (int i = 0; i < count; ++i) out.push_back({nav.centroid(PolyId{any_poly(rng)}), nav.centroid(PolyId{any_poly(rng)})});
  return out;
}

/// The least over `rounds` of the mean µs per query of `run_all` (which runs every query once).
template <class F>
double best_mean_us(int rounds, std::size_t queries, F&& run_all) {
  double best = 1e300;
  for (int r = 0; r < rounds; ++r) {
    const Stopwatch t;
    run_all();
    best = std::min(best, t.seconds() * 1e6 / static_cast<double>(queries));
  }
  return best;
}

nlohmann::ordered_json bench_mesh(const std::string& name, const std::vector<Query>* given, int rounds) {
  const TriangleMesh model = io::load_obj(std::string(WAYMARK_DATA_DIR "/meshes/") + name);
  double recast_s = 1e300, convert_s = 1e300;
  for (int r = 0; r < 3; ++r) {  // Recast alone, then the conversion to waymark's mesh
    const Stopwatch t;
    const recast::RecastMeshes m = recast::build_recast_meshes(model);
    recast_s = std::min(recast_s, t.seconds());
    const Stopwatch c;
    const NavMesh n = recast::to_nav_mesh(m);
    convert_s = std::min(convert_s, c.seconds());
  }
  const recast::RecastMeshes meshes = recast::build_recast_meshes(model);
  const NavMesh nav = recast::to_nav_mesh(meshes);
  test::DetourReference detour(meshes);
  const std::vector<Query> queries = given ? *given : random_pairs(nav, 1000);

  NavMeshQuery shortest(nav, {.mode = NavMode::shortest}), funnel(nav, {.mode = NavMode::funnel});
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
  for (int r = 0; r < rounds; ++r) {
    detour_us = std::min(detour_us, best_mean_us(1, queries.size(), run_detour));
    shortest_us = std::min(shortest_us, best_mean_us(1, queries.size(), run(shortest)));
    funnel_us = std::min(funnel_us, best_mean_us(1, queries.size(), run(funnel)));
  }

  // Lengths: waymark against Detour, query by query (equal: within 1e-3 + 0.5%).
  nlohmann::ordered_json lengths;
  for (NavMeshQuery* q : {&shortest, &funnel}) {
    int compared = 0, equal = 0, shorter = 0, longer = 0;
    double saved = 0, worst = 1;
    for (const Query& query : queries) {
      detour.find_path(query.from, query.to, query.include, query.exclude, ref);
      const Status s = q->find_path(query.from, query.to, navmesh::QueryFilter{.include = query.include, .exclude = query.exclude});
      if (!ref.found || ref.partial || !s.succeeded()) continue;
      ++compared;
      const double ours = q->path().length;
      if (std::abs(ours - ref.length) <= 1e-3 + 0.005 * ref.length) {
        ++equal;
      } else if (ours < ref.length) {
        ++shorter;
        saved = std::max(saved, 1 - ours / ref.length);
      } else {
        ++longer;
        worst = std::max(worst, ours / ref.length);
      }
    }
    lengths[q == &shortest ? "shortest" : "funnel"] = {{"compared", compared},     {"equal", equal},
                                                        {"shorter", shorter},       {"longer", longer},
                                                        {"most_shorter_by", saved}, {"worst_longer_ratio", worst}};
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
  }
  std::vector<Query> recast_demo;
  for (const io::NavQueryLine& q : io::load_nav_queries(WAYMARK_DATA_DIR "/meshes/nav_mesh_test.txt")) {
    recast_demo.push_back({q.from, q.to, q.include, q.exclude});
  }
  // RecastDemo's 21 queries are too few to time one by one: each round runs them 50 times.
  std::vector<Query> repeated;
  for (int r = 0; r < 50; ++r) repeated.insert(repeated.end(), recast_demo.begin(), recast_demo.end());
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  out.push_back(bench_mesh("nav_test.obj", &repeated, rounds));
  out.push_back(bench_mesh("dungeon.obj", nullptr, rounds));
  std::cout << out.dump(2) << "\n";
}
