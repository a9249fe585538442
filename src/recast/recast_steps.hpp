#pragma once
// The steps of Recast's pipeline that the solo build (recast_build.cpp) and the tiled build
// (tiled_build.cpp) share: parameter checks, the level in Recast's float arrays, the filters
// and erosion, regions to detail mesh, and Recast's polygons as NavMeshData.

#include <recastnavigation/Recast.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

#include "waymark/core/parallel.hpp"
#include "waymark/navmesh/nav_tile.hpp"
#include "waymark/recast/recast_build.hpp"

namespace waymark::recast {
class TiledInput;
}

namespace waymark::recast::detail {

/// Keeps Recast's last error message for the BuildError, and the build's deadline.
class Context : public rcContext {
 public:
  Context() : rcContext(true) {}
  explicit Context(std::chrono::steady_clock::time_point deadline) : rcContext(true), deadline_(deadline) {}
  std::string last_error;

  /// BuildError "Recast could not <what>: <Recast's message>" unless ok.
  void step(bool ok, const char* what) const;
  /// Before the step that would <what>: a BuildError saying so when the deadline has passed
  /// (never, for a Context without one: the tiled build checks its deadline per tile).
  void begin(const char* what) const;

 private:
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();

 protected:
  void doLog(rcLogCategory category, const char* msg, int len) override;
};

/// Frees the scratch Recast allocates while it builds.
struct Release {
  void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
  void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
  void operator()(rcContourSet* p) const { rcFreeContourSet(p); }
};
template <class T>
using Owned = std::unique_ptr<T, Release>;

/// Throws BuildError naming the first parameter that breaks its limits.
void check(const RecastParams& p);

/// The level as Recast takes it: float vertices relative to `origin`, int triangles, its bounds
/// (relative too), and each triangle's area (RC_WALKABLE_AREA when it faces up no steeper than
/// the agent's slope, else 0). Everything Recast builds from it is relative to `origin`.
struct RecastInput {
  Vec3 origin;  ///< world point of Recast's (0, 0, 0): 0 unless the level lies far from it
  std::vector<float> verts;
  std::vector<int> tris;
  std::vector<unsigned char> areas;
  int vertex_count = 0;
  int triangle_count = 0;
  float bmin[3] = {0, 0, 0};
  float bmax[3] = {0, 0, 0};
};
/// Throws BuildError when a coordinate is not finite, the level is taller than
/// max_level_height_cells or wider than max_level_extent_cells, a triangle names a missing
/// vertex, there are too many or no triangles.
[[nodiscard]] RecastInput recast_input(const TriangleMesh& mesh, const RecastParams& params);

/// The agent in voxels, as RecastDemo rounds it.
struct Voxels {
  int walkable_height = 0;
  int walkable_climb = 0;
  int walkable_radius = 0;
};
[[nodiscard]] Voxels voxels(const RecastParams& p);

/// Filters the rasterised heightfield, compacts it and erodes it by the agent radius: the
/// walkable area, where a later step may mark areas (obstacles) before regions are built.
/// Throws BuildError when, filtered, it holds more than max_heightfield_spans spans or more
/// than max_column_spans over one cell.
[[nodiscard]] Owned<rcCompactHeightfield> compact_walkable(Context& ctx, rcHeightfield& solid, const RecastParams& params);

/// Regions (watershed, `border_size` cells of padding ignored), contours, polygons and the
/// detail mesh from an eroded compact heightfield. Rewrites its distance field and regions,
/// nothing else, so it may run again on the same heightfield. Polygons get area 0 and
/// navmesh::walk_flag. `poly` has npolys == 0 when nothing was walkable. Throws BuildError when
/// a step fails or there are more than max_regions regions.
void build_polygons(Context& ctx, rcCompactHeightfield& chf, const RecastParams& params, int border_size, rcPolyMesh& poly,
                    rcPolyMeshDetail& detail);

/// Recast's polygons and detail heights as NavMeshData, counter-clockwise in plan, with
/// `vertex(v)` placing Recast's vertex v (three unsigned shorts) in the world, detail vertices
/// (Recast's floats) placed at `origin` + their coordinates. A neighbour marked as another
/// tile's (0x8000) is a wall.
template <class PlaceVertex>
navmesh::NavMeshData poly_mesh_data(const rcPolyMesh& pm, const rcPolyMeshDetail& dm, double climb, Vec3 origin, PlaceVertex&& vertex);

/// How far a build (or one tile) got towards polygons: what says why it made none.
enum class Reached : int {
  nothing,             ///< no triangle faces up within the agent's slope
  walkable_triangle,   ///< walkable triangles, but no walkable span
  walkable_span,       ///< walkable spans, none left by the ledge and clearance filters
  filtered_span,       ///< filtered spans, none left by the erosion
  eroded_span,         ///< eroded spans, in no region
  region,              ///< regions, none outlined
  polygon,
};
/// How far `chf` got: filtered_span (spans), eroded_span (walkable after erosion), region (a
/// span in a region that is not the border's); walkable_span when it has no span.
[[nodiscard]] Reached reached_by(const rcCompactHeightfield& chf);
/// How far a tile with no heightfield (CompactTile::rasterize's nullopt) got: walkable_triangle
/// when a triangle listed under it is walkable, else nothing.
[[nodiscard]] Reached reached_by_triangles(const TiledInput& input, navmesh::TileCoord t);
/// Raises `furthest` to `reached` (several threads may call it).
inline void reach(std::atomic<int>& furthest, Reached reached) {
  for (int f = furthest; static_cast<int>(reached) > f && !furthest.compare_exchange_weak(f, static_cast<int>(reached));) {
  }
}
/// "no walkable area: Recast made no polygons[ in any tile]: <why, and the option that changes it>".
[[nodiscard]] BuildError no_polygons(Reached reached, const RecastParams& params, bool tiled);

/// Whether a tiled build's `deadline` (TiledParams::deadline) has passed: a tile not yet begun
/// is then not begun.
[[nodiscard]] inline bool passed(std::chrono::steady_clock::time_point deadline) {
  return deadline != std::chrono::steady_clock::time_point::max() && std::chrono::steady_clock::now() >= deadline;
}
/// The BuildError of a tiled build that passed its deadline with `begun` of `tiles` tiles begun.
[[nodiscard]] BuildError deadline_error(std::size_t begun, std::size_t tiles);

/// Runs job(i) for i in [0, count) on `threads` threads (0: one per core), each index once;
/// after all have run, rethrows the error of the lowest index that threw (whichever thread
/// met it first), so a build fails the same way on any thread count.
template <class Job>
void each_index_on_threads(std::size_t count, unsigned threads, Job&& job) {
  threads = static_cast<unsigned>(worker_threads(threads));
  std::mutex lock;
  std::size_t failed_at = std::numeric_limits<std::size_t>::max();
  std::exception_ptr failure;
  share_indices(count, threads, [&](auto next) {
    for (std::size_t i = next(); i < count; i = next()) {
      try {
        job(i);
      } catch (...) {
        const std::lock_guard<std::mutex> hold(lock);
        if (i < failed_at) {
          failed_at = i;
          failure = std::current_exception();
        }
      }
    }
  });
  if (failure) std::rethrow_exception(failure);
}

/// The friend that makes RecastMeshes.
struct MeshesMaker {
  using Free = RecastMeshes::Free;
  static RecastMeshes make(rcPolyMesh* poly, rcPolyMeshDetail* detail, const RecastParams& params, Vec3 origin) {
    return RecastMeshes(poly, detail, params, origin);
  }
};

/// Appends polygon i of `pm` (its corners, links and detail triangles, placed at `origin`) to `d`.
void append_poly(const rcPolyMesh& pm, const rcPolyMeshDetail& dm, int i, Vec3 origin, navmesh::NavMeshData& d);

template <class PlaceVertex>
navmesh::NavMeshData poly_mesh_data(const rcPolyMesh& pm, const rcPolyMeshDetail& dm, double climb, Vec3 origin, PlaceVertex&& vertex) {
  navmesh::NavMeshData d;
  d.vertices.reserve(static_cast<std::size_t>(pm.nverts));
  for (int i = 0; i < pm.nverts; ++i) d.vertices.push_back(vertex(&pm.verts[i * 3]));
  d.climb = climb;
  if (dm.nmeshes >= pm.npolys) d.detail_begin.push_back(0);  // else heights come from the polygons
  for (int i = 0; i < pm.npolys; ++i) append_poly(pm, dm, i, origin, d);
  return d;
}

}  // namespace waymark::recast::detail
