// Obstacles that carve the navmesh: the time to add an obstacle and bring the mesh up to date,
// and to remove it again, waymark's CarvedNavMesh against Detour's TileCache (the peer), on the
// same level, Recast parameters and tile size, one thread each. Obstacles are cylinders (radius
// 1, height 2, as RecastDemo's Temp Obstacles sample drops them) at points drawn on Detour's
// mesh with a fixed seed; waymark carves them ungrown, as the TileCache does. waymark's time
// is split into the tile rebuilds (update) and the stitching of the world's next snapshot,
// which a planner's sync() does. Prints one JSON line per level.
//
//   waymark_bench_carve [--obstacles N] [--tile-size N] [mesh.obj ...]
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "support/detour_tile_cache.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/recast/carving.hpp"
#include "waymark/recast/recast_build.hpp"

namespace {

using namespace waymark;

/// Detour's findRandomPoint takes a plain function: it draws from this engine (fixed seed).
std::mt19937 random_engine(31);
float draw_unit() { return std::uniform_real_distribution<float>(0.0f, 1.0f)(random_engine); }

/// Points on Detour's mesh, drawn with a fixed seed.
std::vector<Vec3> random_points(dtNavMeshQuery& query, std::size_t count) {
  const dtQueryFilter filter;
  std::vector<Vec3> points;
  for (std::size_t i = 0; points.size() < count && i < count * 10; ++i) {
    dtPolyRef ref = 0;
    float p[3];
    if (dtStatusSucceed(query.findRandomPoint(&filter, draw_unit, &ref, p))) points.push_back({p[0], p[1], p[2]});
  }
  return points;
}

nlohmann::ordered_json bench_level(const std::string& path, int tile_size, std::size_t obstacles) {
  const TriangleMesh model = io::load_obj(path);
  const recast::RecastParams params;
  const Stopwatch build;
  test::DetourTileCache cache(model, params, tile_size);
  const double build_s = build.seconds();
  const std::vector<Vec3> at = random_points(*cache.nav_query(), obstacles);
  double add_s = 0, remove_s = 0;
  int add_updates = 0, remove_updates = 0;
  std::vector<dtObstacleRef> refs;
  for (const Vec3& p : at) {
    const Stopwatch t;
    const dtObstacleRef ref = cache.add_cylinder({p.x, p.y - 0.5, p.z}, 1.0, 2.0);
    add_updates += cache.update_all();
    add_s += t.seconds();
    if (ref) refs.push_back(ref);
  }
  for (const dtObstacleRef ref : refs) {
    const Stopwatch t;
    cache.remove(ref);
    remove_updates += cache.update_all();
    remove_s += t.seconds();
  }
  // waymark: the same obstacles, one at a time, each rebuilt and stitched before the next.
  const Stopwatch ours;
  recast::CarvedNavMesh carved(model, {.recast = params, .tile_size = tile_size, .threads = 1},
                               {.grow_by_agent_radius = false});
  (void)carved.world().snapshot();
  const double our_build_s = ours.seconds();
  double our_add_s = 0, our_add_stitch_s = 0, our_remove_s = 0, our_remove_stitch_s = 0;
  std::size_t our_add_tiles = 0, our_remove_tiles = 0;
  std::vector<std::uint32_t> ids;
  for (const Vec3& p : at) {
    const Stopwatch t;
    const auto id = carved.add_obstacle(navmesh::CylinderObstacle{{p.x, p.y - 0.5, p.z}, 1.0, 2.0});
    our_add_tiles += carved.update().rebuilt;
    our_add_s += t.seconds();
    const Stopwatch s;
    (void)carved.world().snapshot();
    our_add_stitch_s += s.seconds();
    if (id) ids.push_back(*id);
  }
  for (const std::uint32_t id : ids) {
    const Stopwatch t;
    carved.remove_obstacle(id);
    our_remove_tiles += carved.update().rebuilt;
    our_remove_s += t.seconds();
    const Stopwatch s;
    (void)carved.world().snapshot();
    our_remove_stitch_s += s.seconds();
  }
  const double n = static_cast<double>(std::max<std::size_t>(at.size(), 1));
  nlohmann::ordered_json out;
  out["level"] = path.substr(path.find_last_of('/') + 1);
  out["tile_size"] = tile_size;
  out["tiles"] = cache.tiles_x() * cache.tiles_z();
  out["obstacles"] = at.size();
  out["detour_build_ms"] = build_s * 1e3;
  out["detour_layer_bytes"] = cache.layer_bytes();
  out["detour_add_us"] = add_s * 1e6 / n;
  out["detour_add_update_calls"] = add_updates / n;
  out["detour_remove_us"] = remove_s * 1e6 / n;
  out["detour_remove_update_calls"] = remove_updates / n;
  out["waymark_build_ms"] = our_build_s * 1e3;
  out["waymark_kept_bytes"] = carved.kept_bytes();
  out["waymark_kept_tiles"] = carved.kept_tiles();
  out["waymark_add_us"] = our_add_s * 1e6 / n;
  out["waymark_add_stitch_us"] = our_add_stitch_s * 1e6 / n;
  out["waymark_add_tiles"] = static_cast<double>(our_add_tiles) / n;
  out["waymark_remove_us"] = our_remove_s * 1e6 / n;
  out["waymark_remove_stitch_us"] = our_remove_stitch_s * 1e6 / n;
  out["waymark_remove_tiles"] = static_cast<double>(our_remove_tiles) / n;
  out["add_ratio"] = (our_add_s + our_add_stitch_s) / std::max(add_s, 1e-12);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int tile_size = 48;
  std::size_t obstacles = 100;
  std::vector<std::string> levels;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--tile-size") == 0 && i + 1 < argc) {
      tile_size = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--obstacles") == 0 && i + 1 < argc) {
      obstacles = static_cast<std::size_t>(std::atol(argv[++i]));
    } else {
      levels.emplace_back(argv[i]);
    }
  }
  if (levels.empty()) levels = {WAYMARK_DATA_DIR "/meshes/dungeon.obj", WAYMARK_DATA_DIR "/meshes/nav_test.obj"};
  for (const std::string& level : levels) std::cout << bench_level(level, tile_size, obstacles).dump() << "\n";
}
