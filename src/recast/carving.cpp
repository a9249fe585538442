#include "waymark/recast/carving.hpp"

#include <recastnavigation/Recast.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>
#include <variant>

#include "recast_steps.hpp"
#include "waymark/core/parallel.hpp"
#include "waymark/core/stopwatch.hpp"

namespace waymark::recast {

using navmesh::BoxObstacle;
using navmesh::CylinderObstacle;
using navmesh::NavObstacle;
using navmesh::PrismObstacle;
using navmesh::TileCoord;

/// One tile's eroded compact heightfield, and its areas as first built (restored before the
/// obstacles over it are marked again).
struct CarvedNavMesh::Kept {
  CompactTile heightfield;
  std::vector<unsigned char> areas;
};

namespace {

/// A convex polygon (counter-clockwise in plan) grown outwards by `by`: each corner moves out
/// along its two edges' normals (one point where the corner is blunt, two, bevelled, where it
/// is sharp), so the result holds every point within `by` of the polygon but for the bevels'
/// small corners.
std::vector<Vec2> grown(std::vector<Vec2> ccw, double by) {
  if (by <= 0) return ccw;
  const std::size_t n = ccw.size();
  std::vector<Vec2> out;
  out.reserve(2 * n);
  const auto normal = [](Vec2 a, Vec2 b) {
    const Vec2 d = b - a;
    const double len = std::hypot(d.x, d.y);
    return Vec2{d.y / len, -d.x / len};  // outwards, for a counter-clockwise polygon
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 prev = ccw[(i + n - 1) % n], here = ccw[i], next = ccw[(i + 1) % n];
    const Vec2 n1 = normal(prev, here), n2 = normal(here, next);
    const double c = dot(n1, n2);  // cos of the turn
    if (c > -0.5) {  // a miter no longer than twice `by`
      out.push_back(here + (n1 + n2) * (by / (1 + c)));
    } else {
      out.push_back(here + n1 * by);
      out.push_back(here + n2 * by);
    }
  }
  return out;
}

/// Marks `obstacle` (grown by `grow` in plan) unwalkable on `chf`, over floors from its bottom
/// less `climb` to its top; `origin` is the world point of the heightfield's (0, 0, 0).
void mark(rcContext& ctx, const NavObstacle& obstacle, double grow, double climb, Vec3 origin, rcCompactHeightfield& chf) {
  const auto f = [](double v) { return static_cast<float>(v); };
  const auto fx = [&](double x) { return f(x - origin.x); };
  const auto fy = [&](double y) { return f(y - origin.y); };
  const auto fz = [&](double z) { return f(z - origin.z); };
  if (const auto* c = std::get_if<CylinderObstacle>(&obstacle)) {
    const float pos[3] = {fx(c->foot.x), fy(c->foot.y - climb), fz(c->foot.z)};
    rcMarkCylinderArea(&ctx, pos, f(c->radius + grow), f(c->height + climb), RC_NULL_AREA, chf);
  } else if (const auto* b = std::get_if<BoxObstacle>(&obstacle)) {
    const float lo[3] = {fx(b->min.x - grow), fy(b->min.y - climb), fz(b->min.z - grow)};
    const float hi[3] = {fx(b->max.x + grow), fy(b->max.y), fz(b->max.z + grow)};
    rcMarkBoxArea(&ctx, lo, hi, RC_NULL_AREA, chf);
  } else {
    const auto& p = std::get<PrismObstacle>(obstacle);
    std::vector<Vec2> ccw(p.corners.begin(), p.corners.end());
    if (polygon_signed_area(ccw) < 0) std::reverse(ccw.begin(), ccw.end());
    std::vector<float> verts;
    for (const Vec2 v : grown(std::move(ccw), grow)) verts.insert(verts.end(), {fx(v.x), fy(p.min_y), fz(v.y)});
    rcMarkConvexPolyArea(&ctx, verts.data(), static_cast<int>(verts.size() / 3), fy(p.min_y - climb), fy(p.max_y),
                         RC_NULL_AREA, chf);
  }
}

std::size_t heightfield_bytes(const rcCompactHeightfield& chf) {
  const auto spans = static_cast<std::size_t>(chf.spanCount), cells = static_cast<std::size_t>(chf.width) * chf.height;
  return cells * sizeof(rcCompactCell) + spans * (sizeof(rcCompactSpan) + sizeof(unsigned short) + 2);
}

}  // namespace

CarvedNavMesh::CarvedNavMesh(const TriangleMesh& mesh, const TiledParams& params, const CarveOptions& options)
    : input_(mesh, params), options_(options) {
  const TileLayout& l = input_.layout();
  kept_.resize(l.tile_count());
  is_pending_.assign(l.tile_count(), 0);
  std::vector<std::optional<navmesh::NavTile>> built(l.tile_count());
  detail::each_index_on_threads(l.tile_count(), params.threads, [&](std::size_t i) {
    std::optional<CompactTile> chf = CompactTile::rasterize(input_, l.coord(i));
    if (!chf) return;
    const rcCompactHeightfield& h = chf->heightfield();
    std::vector<unsigned char> areas(h.areas, h.areas + h.spanCount);
    if (const std::optional<RecastMeshes> meshes = chf->build_meshes(input_)) built[i] = to_nav_tile(*meshes, input_, l.coord(i));
    kept_[i] = std::make_unique<Kept>(Kept{std::move(*chf), std::move(areas)});
  });
  for (std::size_t i = 0; i < built.size(); ++i) {
    if (built[i]) world_.set_tile(std::move(*built[i]));
    if (kept_[i]) {
      kept_bytes_ += heightfield_bytes(kept_[i]->heightfield.heightfield()) + kept_[i]->areas.size();
      ++kept_tiles_;
    }
  }
  if (world_.tile_count() == 0) throw BuildError("no walkable area: Recast made no polygons in any tile");
}

CarvedNavMesh::~CarvedNavMesh() = default;

std::optional<std::uint32_t> CarvedNavMesh::add_obstacle(const NavObstacle& obstacle) {
  if (obstacles_.size() >= max_carved_obstacles || navmesh::find_obstacle_problem(obstacle)) return std::nullopt;
  const std::uint32_t id = next_id_++;
  touch(obstacles_.emplace(id, obstacle).first->second);
  return id;
}

bool CarvedNavMesh::remove_obstacle(std::uint32_t id) {
  const auto it = obstacles_.find(id);
  if (it == obstacles_.end()) return false;
  touch(it->second);
  obstacles_.erase(it);
  return true;
}

void CarvedNavMesh::touch(const NavObstacle& obstacle) {
  const UniformGrid grid = input_.layout().grid();
  const double grow = options_.grow_by_agent_radius ? input_.params().recast.agent_radius : 0;
  const Aabb3 box = navmesh::bounds(obstacle);
  // The tiles whose inside the grown box meets (none when it lies off the level). A tile
  // whose border alone it meets keeps its polygons: the border is cut off them (Recast's
  // borderSize), and a mark there would only change where its regions meet inside.
  const Vec2 lo{box.min.x - grow, box.min.z - grow}, hi{box.max.x + grow, box.max.z + grow};
  const Vec2 top = grid.max();
  if (hi.x < grid.origin.x || hi.y < grid.origin.y || lo.x >= top.x || lo.y >= top.y) return;
  const UniformGrid::Range r = grid.cells_of(lo, hi);
  for (int z = r.y0; z <= r.y1; ++z) {
    for (int x = r.x0; x <= r.x1; ++x) {
      const std::size_t i = grid.index(x, z);
      if (!kept_[i] || is_pending_[i]) continue;
      is_pending_[i] = 1;
      pending_.push_back(i);
    }
  }
}

CarveUpdate CarvedNavMesh::update(const CarveBudget& budget) {
  CarveUpdate done;
  const Stopwatch clock;
  while (!pending_.empty() && done.rebuilt + done.failed < budget.max_tiles &&
         (done.rebuilt + done.failed == 0 || clock.seconds() < budget.max_seconds)) {
    const std::size_t i = pending_.front();
    pending_.pop_front();
    is_pending_[i] = 0;
    if (rebuild(i)) {
      ++done.rebuilt;
    } else {
      ++done.failed;
    }
  }
  done.pending = pending_.size();
  return done;
}

bool CarvedNavMesh::rebuild(std::size_t index) {
  const TileLayout& l = input_.layout();
  const TileCoord coord = l.coord(index);
  Kept& kept = *kept_[index];
  rcCompactHeightfield& chf = kept.heightfield.heightfield();
  std::copy(kept.areas.begin(), kept.areas.end(), chf.areas);
  const RecastParams& p = input_.params().recast;
  const double grow = options_.grow_by_agent_radius ? p.agent_radius : 0;
  // The obstacles that touch() queues this tile for: its polygons depend on those alone.
  const Vec2 lo = l.tile_min(coord) - Vec2{grow, grow}, hi = l.tile_max(coord) + Vec2{grow, grow};
  detail::Context ctx;
  for (const auto& [id, obstacle] : obstacles_) {
    const Aabb3 box = navmesh::bounds(obstacle);
    if (box.max.x < lo.x || box.min.x > hi.x || box.max.z < lo.y || box.min.z > hi.y) continue;
    mark(ctx, obstacle, grow, p.agent_max_climb, input_.recast_origin(), chf);
  }
  try {
    const std::optional<RecastMeshes> meshes = kept.heightfield.build_meshes(input_);
    if (meshes) {
      world_.set_tile(to_nav_tile(*meshes, input_, coord));
    } else {
      world_.remove_tile(coord);
    }
  } catch (const BuildError&) {
    return false;
  }
  return true;
}

}  // namespace waymark::recast
