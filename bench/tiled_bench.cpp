// Tiled navmeshes (Recast's tiled pipeline, stitched by TiledNavMesh): per-tile build time and
// memory, the whole build on all cores, the stitching time per change, and query times on the
// stitched mesh against Detour's own tiled mesh (dtNavMesh with one tile per Recast tile, same
// parameters). Prints one JSON object per level and tile size.
//
//   waymark_bench_tiled [--rounds N]                       dungeon.obj and nav_test.obj, tiles 32 and 64
//   waymark_bench_tiled --obj FILE [--tile-size N (128)] [--threads N] [--queries N (200)]
//                                                          one level (a large one: bench/large_world.cpp)
#include <recastnavigation/Recast.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/detour_reference.hpp"
#include "support/navmesh_support.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"
#include "waymark/recast/tiled_build.hpp"

namespace {

using namespace waymark;
using navmesh::NavMeshQuery;
using navmesh::NavMode;
using navmesh::NavTile;
using navmesh::TileCoord;

/// This process's peak resident set (VmHWM), in MB.
double peak_rss_mb() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      double kb = 0;
      status >> kb;
      return kb / 1024;
    }
  }
  return 0;
}

std::size_t tile_bytes(const NavTile& t) {
  const navmesh::NavMeshData& d = t.data;
  return d.vertices.size() * sizeof(Vec3) + d.poly_begin.size() * 4 + d.corners.size() * 4 + d.neighbors.size() * sizeof(PolyId) +
         d.areas.size() + d.flags.size() * 2 + d.detail_begin.size() * 4 + d.detail.size() * sizeof(d.detail[0]);
}

std::size_t heightfield_bytes(const rcCompactHeightfield& chf) {
  return static_cast<std::size_t>(chf.width) * static_cast<std::size_t>(chf.height) * sizeof(rcCompactCell) +
         static_cast<std::size_t>(chf.spanCount) * (sizeof(rcCompactSpan) + 1 + 2);  // spans, areas, distances
}

/// Mean µs per query of `run` (which runs all `n` queries), the best of `rounds`.
template <class F>
double best_us(int rounds, std::size_t n, F&& run) {
  double best = 1e300;
  for (int r = 0; r < rounds; ++r) {
    const Stopwatch t;
    run();
    best = std::min(best, t.seconds() * 1e6 / static_cast<double>(n));
  }
  return best;
}

nlohmann::ordered_json bench_level(const std::string& name, const TriangleMesh& model, int tile_size,
                                   const std::vector<std::pair<Vec3, Vec3>>* given, int rounds) {
  const recast::TiledInput input(model, {.tile_size = tile_size});
  const recast::TileLayout& l = input.layout();
  // One thread, tile by tile: each step timed, the memory each tile holds while it builds.
  std::vector<std::pair<TileCoord, recast::RecastMeshes>> meshes;
  navmesh::TiledNavMesh world;
  double raster_s = 0, polys_s = 0, worst_tile_s = 0;
  std::size_t chf_bytes = 0, chf_worst = 0, nav_bytes = 0;
  for (std::size_t i = 0; i < l.tile_count(); ++i) {
    const TileCoord t = l.coord(i);
    const Stopwatch a;
    auto chf = recast::CompactTile::rasterize(input, t);
    const double ra = a.seconds();
    raster_s += ra;
    if (!chf) continue;
    const Stopwatch b;
    auto m = chf->build_meshes(input);
    NavTile tile;
    if (m) tile = recast::to_nav_tile(*m, input, t);
    const double pb = b.seconds();
    polys_s += pb;
    worst_tile_s = std::max(worst_tile_s, ra + pb);
    chf_bytes += heightfield_bytes(chf->heightfield());
    chf_worst = std::max(chf_worst, heightfield_bytes(chf->heightfield()));
    if (!m) continue;
    nav_bytes += tile_bytes(tile);
    world.set_tile(std::move(tile));
    meshes.emplace_back(t, std::move(*m));
  }
  const std::size_t built = meshes.size();
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  double all_cores_s = 1e300;
  for (int r = 0; r < std::min(rounds, 3); ++r) {
    const Stopwatch t;
    const auto tiles = recast::build_tiles(input);
    all_cores_s = std::min(all_cores_s, t.seconds());
  }
  // Stitching after one tile changed (the whole world is stitched again).
  double stitch_s = 1e300;
  for (int r = 0; r < rounds; ++r) {
    NavTile again = *world.tile(meshes[built / 2].first);
    world.set_tile(std::move(again));
    const Stopwatch t;
    (void)world.snapshot();
    stitch_s = std::min(stitch_s, t.seconds());
  }
  const auto snap = world.snapshot();
  std::vector<std::pair<TileCoord, const recast::RecastMeshes*>> tiles;
  for (const auto& [t, m] : meshes) tiles.emplace_back(t, &m);
  test::DetourReference detour(tiles, l.origin, l.cell_size * l.tile_size, l.tile_count());
  const auto queries = given ? *given : test::centroid_pairs(snap->mesh, 1000);
  NavMeshQuery shortest(snap->mesh, {.query = {.partial_result = true}});
  NavMeshQuery funnel(snap->mesh, {.mode = NavMode::funnel, .query = {.partial_result = true}});
  test::DetourReference::Result ref;
  double sink = 0;
  const auto run = [&](NavMeshQuery& q) {
    return [&] {
      for (const auto& [from, to] : queries) {
        q.find_path(from, to, navmesh::QueryFilter{.include = 0x3});
        sink += q.path().length;
      }
    };
  };
  const double detour_us = best_us(rounds, queries.size(), [&] {
    for (const auto& [from, to] : queries) {
      detour.find_path(from, to, 0x3, 0, ref);
      sink += ref.length;
    }
  });
  const double shortest_us = best_us(rounds, queries.size(), run(shortest));
  const double funnel_us = best_us(rounds, queries.size(), run(funnel));
  const auto per_tile = static_cast<double>(built);
  return {{"mesh", name},
          {"tile_size", tile_size},
          {"tiles", l.tile_count()},
          {"tiles_built", built},
          {"polygons", snap->mesh.poly_count()},
          {"joined_edges", snap->joined_edges},
          {"tile_build_ms_mean", (raster_s + polys_s) * 1e3 / per_tile},
          {"tile_build_ms_worst", worst_tile_s * 1e3},
          {"rasterise_share", raster_s / (raster_s + polys_s)},
          {"compact_heightfield_kb_mean", static_cast<double>(chf_bytes) / 1024 / per_tile},
          {"compact_heightfield_kb_worst", static_cast<double>(chf_worst) / 1024},
          {"nav_tile_kb_mean", static_cast<double>(nav_bytes) / 1024 / per_tile},
          {"build_ms_one_thread", (raster_s + polys_s) * 1e3},
          {"build_ms_all_cores", all_cores_s * 1e3},
          {"cores", cores},
          {"stitch_ms", stitch_s * 1e3},
          {"queries", queries.size()},
          {"detour_tiled_us", detour_us},
          {"shortest_us", shortest_us},
          {"funnel_us", funnel_us},
          {"shortest_over_detour", shortest_us / detour_us},
          {"funnel_over_detour", funnel_us / detour_us},
          {"checksum", sink}};
}

/// One (large) level: build on all cores, stitch, query; the solo build's refusal.
nlohmann::ordered_json bench_large(const std::string& file, int tile_size, unsigned threads, int query_count) {
  const Stopwatch load;
  const TriangleMesh model = io::load_obj(file);
  const double load_s = load.seconds();
  std::string solo = "built";
  try {
    (void)recast::build_recast_meshes(model);
  } catch (const BuildError& e) {
    solo = e.what();
  }
  const Stopwatch build;
  const recast::TiledInput input(model, {.tile_size = tile_size, .threads = threads});
  std::vector<NavTile> tiles = recast::build_tiles(input);
  const double build_s = build.seconds();
  const std::size_t built = tiles.size();
  const double rss_after_build = peak_rss_mb();
  const navmesh::TiledNavMesh world(std::move(tiles));
  const Stopwatch stitch;
  const auto snap = world.snapshot();
  const double stitch_s = stitch.seconds();
  std::mt19937_64 rng(5);
  NavMeshQuery shortest(snap->mesh), funnel(snap->mesh, {.mode = NavMode::funnel});
  double shortest_s = 0, funnel_s = 0, length = 0;
  int found = 0, funnel_found = 0;
  for (int i = 0; i < query_count; ++i) {
    const auto a = snap->mesh.random_point(rng), b = snap->mesh.random_point(rng);
    Stopwatch t;
    const bool ok = shortest.find_path(a->point, b->point).succeeded();
    shortest_s += t.seconds();
    found += ok;
    length += ok ? shortest.path().length : 0;
    t = Stopwatch();
    funnel_found += funnel.find_path(a->point, b->point).succeeded();
    funnel_s += t.seconds();
  }
  const recast::TileLayout& l = input.layout();
  const double cells = (l.top.x - l.origin.x) / l.cell_size * ((l.top.z - l.origin.z) / l.cell_size);
  return {{"obj", file},
          {"triangles", model.triangles.size()},
          {"heightfield_cells", cells},
          {"solo_build", solo},
          {"tile_size", tile_size},
          {"tiles", l.tile_count()},
          {"tiles_built", built},
          {"threads", threads ? threads : std::max(1u, std::thread::hardware_concurrency())},
          {"load_s", load_s},
          {"build_s", build_s},
          {"peak_rss_mb_after_build", rss_after_build},
          {"stitch_s", stitch_s},
          {"polygons", snap->mesh.poly_count()},
          {"joined_edges", snap->joined_edges},
          {"queries", query_count},
          {"shortest_found", found},
          {"funnel_found", funnel_found},
          {"mean_length", found ? length / found : 0},
          {"shortest_ms", shortest_s * 1e3 / query_count},
          {"funnel_ms", funnel_s * 1e3 / query_count},
          {"peak_rss_mb", peak_rss_mb()}};
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 5, tile_size = 128, query_count = 200;
  unsigned threads = 0;
  std::string obj;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--rounds")) rounds = std::max(1, std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--obj")) obj = argv[i + 1];
    else if (!std::strcmp(argv[i], "--tile-size")) tile_size = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--threads")) threads = static_cast<unsigned>(std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--queries")) query_count = std::max(1, std::atoi(argv[i + 1]));
  }
  if (!obj.empty()) {
    std::cout << bench_large(obj, tile_size, threads, query_count).dump(2) << "\n";
    return 0;
  }
  const auto demo = test::recast_demo_queries();
  std::vector<std::pair<Vec3, Vec3>> repeated;  // 21 queries are too few to time: 50 times each
  for (int r = 0; r < 50; ++r) repeated.insert(repeated.end(), demo.begin(), demo.end());
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const int size : {32, 64}) {
    out.push_back(bench_level("nav_test.obj", io::load_obj(WAYMARK_DATA_DIR "/meshes/nav_test.obj"), size, &repeated, rounds));
    out.push_back(bench_level("dungeon.obj", io::load_obj(WAYMARK_DATA_DIR "/meshes/dungeon.obj"), size, nullptr, rounds));
  }
  std::cout << out.dump(2) << "\n";
}
