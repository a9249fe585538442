#include "waymark/recast/carving.hpp"

#include <recastnavigation/Recast.h>

#include <algorithm>
#include <atomic>
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

/// The cells of `chf` whose plan square meets [lo, hi] (x, z relative to Recast's origin) and
/// the span floors from lo.y to hi.y (in cell heights, as Recast's rcMark*Area count them),
/// each clamped into the heightfield in double: an obstacle of any size or distance gives
/// the cells it covers, or none (Recast's own marking casts (bmin - chf.bmin) / cs to int,
/// which wraps past 2^31 cells, and computes in floats, whose step passes a cell there).
struct MarkRange {
  int x0, z0, x1, z1, y0, y1;
  [[nodiscard]] bool empty() const { return x0 > x1 || z0 > z1 || y0 > y1; }
};

MarkRange mark_range(const rcCompactHeightfield& chf, Vec3 lo, Vec3 hi) {
  const double cs = chf.cs, ch = chf.ch;
  const auto cell = [](double v, double base, double size, int n) {  // -1 below, n above
    return static_cast<int>(std::clamp(std::floor((v - base) / size), -1.0, static_cast<double>(n)));
  };
  constexpr int floors = 0xffff + 1;  // span floors are unsigned shorts
  MarkRange r{cell(lo.x, chf.bmin[0], cs, chf.width), cell(lo.z, chf.bmin[2], cs, chf.height),
              cell(hi.x, chf.bmin[0], cs, chf.width), cell(hi.z, chf.bmin[2], cs, chf.height),
              cell(lo.y, chf.bmin[1], ch, floors),    cell(hi.y, chf.bmin[1], ch, floors)};
  r.x0 = std::max(r.x0, 0);
  r.z0 = std::max(r.z0, 0);
  r.y0 = std::max(r.y0, 0);
  r.x1 = std::min(r.x1, chf.width - 1);
  r.z1 = std::min(r.z1, chf.height - 1);
  return r;
}

/// Marks unwalkable every walkable span of `chf` in `r` whose cell centre (x, z, relative to
/// Recast's origin) is `inside`.
template <class Inside>
void mark_spans(rcCompactHeightfield& chf, const MarkRange& r, Inside&& inside) {
  if (r.empty()) return;
  const double cs = chf.cs, bx = chf.bmin[0], bz = chf.bmin[2];
  for (int z = r.z0; z <= r.z1; ++z) {
    const double cz = bz + (z + 0.5) * cs;
    for (int x = r.x0; x <= r.x1; ++x) {
      if (!inside(bx + (x + 0.5) * cs, cz)) continue;
      const rcCompactCell& c = chf.cells[x + z * chf.width];
      for (unsigned i = c.index, end = c.index + c.count; i < end; ++i) {
        if (chf.spans[i].y >= r.y0 && chf.spans[i].y <= r.y1) chf.areas[i] = RC_NULL_AREA;
      }
    }
  }
}

/// Marks `obstacle` (grown by `grow` in plan) unwalkable on `chf`, over the floors from
/// `below` under its bottom up to its top; `origin` is the world point of the heightfield's
/// (0, 0, 0). A cylinder takes the cells whose centre lies inside its circle, a prism those
/// whose centre lies in its polygon (as Recast's rcMarkCylinderArea and rcMarkConvexPolyArea),
/// a box every cell its plan meets (rcMarkBoxArea); all in double.
void mark(const NavObstacle& obstacle, double grow, double below, Vec3 origin, rcCompactHeightfield& chf) {
  if (const auto* c = std::get_if<CylinderObstacle>(&obstacle)) {
    const Vec3 foot = c->foot - origin;
    const double r = c->radius + grow;
    mark_spans(chf, mark_range(chf, foot - Vec3{r, below, r}, foot + Vec3{r, c->height, r}), [&](double x, double z) {
      return (x - foot.x) * (x - foot.x) + (z - foot.z) * (z - foot.z) < r * r;
    });
  } else if (const auto* b = std::get_if<BoxObstacle>(&obstacle)) {
    mark_spans(chf, mark_range(chf, b->min - origin - Vec3{grow, below, grow}, b->max - origin + Vec3{grow, 0, grow}),
               [](double, double) { return true; });
  } else {
    const auto& p = std::get<PrismObstacle>(obstacle);
    std::vector<Vec2> ccw;
    ccw.reserve(p.corners.size());
    for (const Vec2 v : p.corners) ccw.push_back(v - Vec2{origin.x, origin.z});
    if (polygon_signed_area(ccw) < 0) std::reverse(ccw.begin(), ccw.end());
    const std::vector<Vec2> poly = grown(std::move(ccw), grow);
    Vec3 lo{poly[0].x, p.min_y - origin.y - below, poly[0].y}, hi{poly[0].x, p.max_y - origin.y, poly[0].y};
    for (const Vec2 v : poly) {
      lo = {std::min(lo.x, v.x), lo.y, std::min(lo.z, v.y)};
      hi = {std::max(hi.x, v.x), hi.y, std::max(hi.z, v.y)};
    }
    mark_spans(chf, mark_range(chf, lo, hi), [&](double x, double z) {
      for (std::size_t i = 0, n = poly.size(); i < n; ++i) {  // convex, counter-clockwise: left of every edge
        if (cross(poly[(i + 1) % n] - poly[i], Vec2{x, z} - poly[i]) < 0) return false;
      }
      return true;
    });
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
  std::atomic<std::size_t> skipped{0};
  std::atomic<int> furthest{0};  // how far the tile that got furthest got
  detail::each_index_on_threads(l.tile_count(), params.threads, [&](std::size_t i) {
    if (detail::passed(params.deadline)) {
      ++skipped;
      return;
    }
    std::optional<CompactTile> chf = CompactTile::rasterize(input_, l.coord(i));
    if (!chf) {
      detail::reach(furthest, detail::reached_by_triangles(input_, l.coord(i)));
      return;
    }
    const rcCompactHeightfield& h = chf->heightfield();
    std::vector<unsigned char> areas(h.areas, h.areas + h.spanCount);
    if (const std::optional<RecastMeshes> meshes = chf->build_meshes(input_)) {
      built[i] = to_nav_tile(*meshes, input_, l.coord(i));
      detail::reach(furthest, detail::Reached::polygon);
    } else {
      detail::reach(furthest, detail::reached_by(chf->heightfield()));
    }
    kept_[i] = std::make_unique<Kept>(Kept{std::move(*chf), std::move(areas)});
  });
  if (skipped > 0) throw detail::deadline_error(l.tile_count() - skipped, l.tile_count());
  for (std::size_t i = 0; i < built.size(); ++i) {
    if (built[i]) world_.set_tile(std::move(*built[i]));
    if (kept_[i]) {
      kept_bytes_ += heightfield_bytes(kept_[i]->heightfield.heightfield()) + kept_[i]->areas.size();
      ++kept_tiles_;
    }
  }
  if (world_.tile_count() == 0) throw detail::no_polygons(static_cast<detail::Reached>(furthest.load()), params.recast, true);
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
  // An agent standing on a floor up to its height under an obstacle's bottom would reach into
  // it (the climb, when higher, is the slack for a bottom placed a step above the floor).
  const double below = std::max(p.agent_height, p.agent_max_climb);
  // The obstacles that touch() queues this tile for: its polygons depend on those alone.
  const Vec2 lo = l.tile_min(coord) - Vec2{grow, grow}, hi = l.tile_max(coord) + Vec2{grow, grow};
  for (const auto& [id, obstacle] : obstacles_) {
    const Aabb3 box = navmesh::bounds(obstacle);
    if (box.max.x < lo.x || box.min.x > hi.x || box.max.z < lo.y || box.min.z > hi.y) continue;
    mark(obstacle, grow, below, input_.recast_origin(), chf);
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
