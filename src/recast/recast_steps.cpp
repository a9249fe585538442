#include "recast_steps.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <new>

#include "waymark/core/text.hpp"

namespace waymark::recast::detail {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw BuildError("Recast parameter " + what);
}

template <class T>
Owned<T> owned(T* p) {
  if (!p) throw std::bad_alloc();
  return Owned<T>(p);
}

/// Throws BuildError when the filtered heightfield holds more walkable spans than Recast's
/// compact heightfield indexes, in all or over one cell.
void check_spans(const rcHeightfield& solid) {
  std::size_t total = 0;
  int deepest = 0;
  for (int c = 0; c < solid.width * solid.height; ++c) {
    int here = 0;
    for (const rcSpan* s = solid.spans[c]; s != nullptr; s = s->next) here += s->area != RC_NULL_AREA ? 1 : 0;
    total += static_cast<std::size_t>(here);
    deepest = std::max(deepest, here);
  }
  if (total > max_heightfield_spans) {
    throw BuildError("the heightfield has " + number_text(total) + " walkable spans, more than Recast indexes (recast::max_heightfield_spans = " +
                     number_text(max_heightfield_spans) + "; raise cell_size or build in smaller tiles)");
  }
  if (deepest > max_column_spans) {
    throw BuildError("the heightfield has " + number_text(deepest) + " walkable floors over one cell, more than Recast links (recast::max_column_spans = " +
                     number_text(max_column_spans) + "; raise cell_height or agent_height)");
  }
}

/// Throws BuildError when rcBuildRegions ran out of region ids: ids from 0x8000 carry
/// Recast's border bit, so their regions would silently become borders. Border regions
/// (1 to 4, with the bit) are Recast's own padding.
void check_regions(const rcCompactHeightfield& chf) {
  for (int i = 0; i < chf.spanCount; ++i) {
    const unsigned reg = chf.spans[i].reg;
    if ((reg & RC_BORDER_REG) != 0 && ((reg & ~unsigned{RC_BORDER_REG}) == 0 || (reg & ~unsigned{RC_BORDER_REG}) > 4)) {
      throw BuildError("the heightfield has more than " + number_text(max_regions) +
                       " regions, more than Recast's region ids hold (recast::max_regions; raise region_min_size or build in smaller tiles)");
    }
  }
}

/// Throws BuildError when a contour has more corners than Recast's polygon step takes in
/// bounded time (it is cubic in them).
void check_contours(const rcContourSet& contours) {
  int most = 0;
  for (int i = 0; i < contours.nconts; ++i) most = std::max(most, contours.conts[i].nverts);
  if (most > max_contour_vertices) {
    throw BuildError("a region's outline has " + number_text(most) + " corners, more than Recast's polygon step takes in bounded time (recast::max_contour_vertices = " +
                     number_text(max_contour_vertices) + ": its time is cubic in them; build in tiles, --tile-size, or raise region_min_size or agent_radius)");
  }
}

}  // namespace

void Context::step(bool ok, const char* what) const {
  if (!ok) throw BuildError(std::string("Recast could not ") + what + (last_error.empty() ? "" : ": " + last_error));
}

void Context::begin(const char* what) const {
  if (passed(deadline_)) {
    throw BuildError(std::string("the solo build passed its deadline (a time limit) before Recast could ") + what +
                     ": give it more time, a larger cell size, or build in tiles (--tile-size)");
  }
}

Reached reached_by(const rcCompactHeightfield& chf) {
  Reached r = chf.spanCount > 0 ? Reached::filtered_span : Reached::walkable_span;
  for (int i = 0; i < chf.spanCount; ++i) {
    if (chf.areas[i] == RC_NULL_AREA) continue;
    const unsigned reg = chf.spans[i].reg;
    if (reg != 0 && (reg & RC_BORDER_REG) == 0) return Reached::region;
    r = Reached::eroded_span;
  }
  return r;
}

BuildError no_polygons(Reached reached, const RecastParams& p, bool tiled) {
  std::string why;
  switch (reached) {
    case Reached::nothing:
      why = "no triangle faces up within agent_max_slope (" + number_text(p.agent_max_slope) + " degrees; --agent-slope)";
      break;
    case Reached::walkable_triangle:
      why = "the walkable triangles cover no cell's centre (raise cell_size, --cell-size)";
      break;
    case Reached::walkable_span:
      why = "every walkable floor is a ledge over a drop higher than agent_max_climb (" + number_text(p.agent_max_climb) +
            ") or has less than agent_height (" + number_text(p.agent_height) + ") clear above it (--agent-climb, --agent-height)";
      break;
    case Reached::filtered_span:
      why = "eroding the floors by agent_radius (" + number_text(p.agent_radius) +
            ") left none: every floor is narrower than twice that (--agent-radius)";
      break;
    case Reached::eroded_span:
      why = "every region has fewer than region_min_size squared cells (" + number_text(p.region_min_size) + " x " +
            number_text(p.region_min_size) + "; --region-min-size)";
      break;
    case Reached::region:
    case Reached::polygon:
      why = "Recast outlined none of its regions (each is a cell or two: lower cell_size, --cell-size)";
      break;
  }
  return BuildError(std::string("no walkable area: Recast made no polygons") + (tiled ? " in any tile" : "") + ": " + why);
}

BuildError deadline_error(std::size_t begun, std::size_t tiles) {
  return BuildError("the tiled build passed its deadline (a time limit) with " + number_text(begun) + " of " +
                    number_text(tiles) + " tiles begun: give it more time, a larger cell or tile size, or a smaller level");
}

void Context::doLog(const rcLogCategory category, const char* msg, const int len) {
  if (category == RC_LOG_ERROR) last_error.assign(msg, static_cast<std::size_t>(std::max(len, 0)));
}

void check(const RecastParams& p) {
  const auto fin = [](double v) { return std::isfinite(v); };
  require(fin(p.cell_size) && p.cell_size > 0 && p.cell_size <= max_cell_size,
          "cell_size must be > 0 and at most recast::max_cell_size (" + number_text(max_cell_size) + ")");
  require(fin(p.cell_height) && p.cell_height > 0 && p.cell_height <= max_cell_size,
          "cell_height must be > 0 and at most recast::max_cell_size (" + number_text(max_cell_size) + ")");
  require(fin(p.agent_height) && p.agent_height >= 0, "agent_height must be finite and >= 0");
  require(fin(p.agent_radius) && p.agent_radius >= 0, "agent_radius must be finite and >= 0");
  require(fin(p.agent_max_climb) && p.agent_max_climb >= 0, "agent_max_climb must be finite and >= 0");
  require(p.agent_max_slope >= 0 && p.agent_max_slope < 90, "agent_max_slope must be from 0 to below 90 degrees");
  require(fin(p.region_min_size) && p.region_min_size >= 0 && p.region_min_size < max_region_size,
          "region_min_size must be from 0 to below " + number_text(max_region_size) + " (recast::max_region_size)");
  require(fin(p.region_merge_size) && p.region_merge_size >= 0 && p.region_merge_size < max_region_size,
          "region_merge_size must be from 0 to below " + number_text(max_region_size) + " (recast::max_region_size)");
  require(fin(p.edge_max_len) && p.edge_max_len >= 0, "edge_max_len must be finite and >= 0");
  require(fin(p.edge_max_error) && p.edge_max_error >= 0, "edge_max_error must be finite and >= 0");
  require(p.verts_per_poly >= 3 && p.verts_per_poly <= 6, "verts_per_poly must be from 3 to 6");
  require(fin(p.detail_sample_dist) && p.detail_sample_dist >= 0, "detail_sample_dist must be finite and >= 0");
  require(fin(p.detail_sample_max_error) && p.detail_sample_max_error >= 0,
          "detail_sample_max_error must be finite and >= 0");
  // Recast's narrow fields (recast_build.hpp names each limit).
  require(p.agent_radius / p.cell_size <= max_radius_cells,
          "agent_radius is " + number_text(std::ceil(p.agent_radius / p.cell_size)) + " cells, more than Recast erodes by (recast::max_radius_cells = " +
              number_text(max_radius_cells) + "; raise cell_size or lower agent_radius)");
  require(p.agent_height / p.cell_height <= max_agent_height_cells,
          "agent_height is " + number_text(std::ceil(p.agent_height / p.cell_height)) +
              " cell heights, more than Recast's spans hold (recast::max_agent_height_cells = " +
              number_text(max_agent_height_cells) + "; raise cell_height or lower agent_height)");
  require(p.agent_max_climb / p.cell_height <= max_climb_cells,
          "agent_max_climb is " + number_text(std::floor(p.agent_max_climb / p.cell_height)) +
              " cell heights, more than Recast's spans hold (recast::max_climb_cells = " + number_text(max_climb_cells) +
              "; raise cell_height or lower agent_max_climb)");
  require(p.edge_max_len / p.cell_size <= max_edge_len_cells,
          "edge_max_len is " + number_text(p.edge_max_len / p.cell_size) + " cells, more than Recast squares in an int (recast::max_edge_len_cells = " +
              number_text(max_edge_len_cells) + "; raise cell_size or lower edge_max_len)");
  require(p.edge_max_error <= max_edge_error_cells, "edge_max_error must be at most " + number_text(max_edge_error_cells) +
                                                        " cells (recast::max_edge_error_cells: the detail mesh searches that far)");
}

namespace {

/// Where Recast's coordinates start on one axis: the level's low bound rounded to the nearest
/// multiple of `quantum`, a power of two. So a level within half a quantum of the world's origin
/// builds exactly as it always did (the shift is 0), the shift is exact, and a level moved by a
/// multiple of the quantum builds bit for bit the same, moved.
double shift(double lo, double quantum) { return std::round(lo / quantum) * quantum; }

/// The largest power of two at most `v` (v > 0).
double power_of_two_below(double v) { return std::exp2(std::floor(std::log2(v))); }

}  // namespace

RecastInput recast_input(const TriangleMesh& mesh, const RecastParams& params) {
  if (mesh.vertices.size() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 3) ||
      mesh.triangles.size() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 3)) {
    throw BuildError("too many vertices or triangles for Recast");
  }
  if (mesh.triangles.empty()) throw BuildError("no triangles to build a navmesh from");
  // The level's bounds in double; Recast sees it moved near its origin, where a float's step is
  // far below a cell however far the level lies from the world's (max_level_extent_cells).
  Vec3 lo{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  Vec3 hi = -lo;
  for (const Vec3& v : mesh.vertices) {
    if (!finite(v)) throw BuildError("a vertex coordinate is not finite");
    lo = {std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z)};
    hi = {std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z)};
  }
  // Within a quantum of max_level_extent_cells / 2 cells of Recast's origin the level keeps
  // float steps of at most 1/16 cell (the extent check below bounds the rest).
  // Out of the range where a double keeps the cells apart: said before the level collapses.
  const auto farthest = [](double a, double b) { return std::abs(a) >= std::abs(b) ? a : b; };
  const double far_x = farthest(farthest(lo.x, hi.x), farthest(lo.z, hi.z)), far_y = farthest(lo.y, hi.y);
  const bool plan_far = !(std::abs(far_x) / params.cell_size <= max_world_cells);
  if (plan_far || !(std::abs(far_y) / params.cell_height <= max_world_cells)) {
    throw BuildError("the level is out of range: a coordinate of " + number_text(plan_far ? far_x : far_y) +
                     " lies more than recast::max_world_cells = 2^48 cells (of " +
                     (plan_far ? "cell_size " + number_text(params.cell_size) : "cell_height " + number_text(params.cell_height)) +
                     ") from the world's origin, where a double's step passes 1/8 cell (move the level nearer the origin)");
  }
  const double plan_quantum = power_of_two_below(params.cell_size * max_level_extent_cells / 2);
  const double height_quantum = power_of_two_below(params.cell_height * max_level_extent_cells / 2);
  RecastInput in;
  in.origin = {shift(lo.x, plan_quantum), shift(lo.y, height_quantum), shift(lo.z, plan_quantum)};
  const auto number = [](double v) { return number_text(std::ceil(v)); };
  const double tall = (hi.y - lo.y) / params.cell_height;
  if (!(tall <= max_level_height_cells)) {
    throw BuildError("the level is " + number(tall) + " cell heights tall, more than Recast's spans hold (recast::max_level_height_cells = " +
                     number_text(max_level_height_cells) + "; raise cell_height)");
  }
  const double across = std::max({std::abs(lo.x - in.origin.x), std::abs(hi.x - in.origin.x), std::abs(lo.z - in.origin.z),
                                  std::abs(hi.z - in.origin.z)}) / params.cell_size;
  if (!(across <= max_level_extent_cells)) {
    throw BuildError("the level is " + number(across) + " cells across, more than Recast's float coordinates keep apart (recast::max_level_extent_cells = " +
                     number(max_level_extent_cells) + "; raise cell_size or split the level)");
  }
  in.verts.reserve(mesh.vertices.size() * 3);
  for (const Vec3& v : mesh.vertices) {
    in.verts.insert(in.verts.end(), {static_cast<float>(v.x - in.origin.x), static_cast<float>(v.y - in.origin.y),
                                     static_cast<float>(v.z - in.origin.z)});
  }
  in.tris.reserve(mesh.triangles.size() * 3);
  for (const auto& t : mesh.triangles) {
    for (std::uint32_t v : t) {
      if (v >= mesh.vertices.size()) throw BuildError("a triangle names a vertex the mesh does not have");
      in.tris.push_back(static_cast<int>(v));
    }
  }
  in.vertex_count = static_cast<int>(mesh.vertices.size());
  in.triangle_count = static_cast<int>(mesh.triangles.size());
  rcCalcBounds(in.verts.data(), in.vertex_count, in.bmin, in.bmax);
  in.areas.assign(static_cast<std::size_t>(in.triangle_count), 0);
  Context ctx;
  rcMarkWalkableTriangles(&ctx, static_cast<float>(params.agent_max_slope), in.verts.data(), in.vertex_count, in.tris.data(),
                          in.triangle_count, in.areas.data());
  return in;
}

Voxels voxels(const RecastParams& p) {
  return {static_cast<int>(std::ceil(p.agent_height / p.cell_height)), static_cast<int>(std::floor(p.agent_max_climb / p.cell_height)),
          static_cast<int>(std::ceil(p.agent_radius / p.cell_size))};
}

Owned<rcCompactHeightfield> compact_walkable(Context& ctx, rcHeightfield& solid, const RecastParams& params) {
  const Voxels v = voxels(params);
  ctx.begin("filter the heightfield");
  rcFilterLowHangingWalkableObstacles(&ctx, v.walkable_climb, solid);
  rcFilterLedgeSpans(&ctx, v.walkable_height, v.walkable_climb, solid);
  rcFilterWalkableLowHeightSpans(&ctx, v.walkable_height, solid);
  check_spans(solid);
  auto chf = owned(rcAllocCompactHeightfield());
  ctx.begin("build its compact heightfield");
  ctx.step(rcBuildCompactHeightfield(&ctx, v.walkable_height, v.walkable_climb, solid, *chf), "build its compact heightfield");
  ctx.begin("erode the walkable area");
  ctx.step(rcErodeWalkableArea(&ctx, v.walkable_radius, *chf), "erode the walkable area");
  return chf;
}

void build_polygons(Context& ctx, rcCompactHeightfield& chf, const RecastParams& params, int border_size, rcPolyMesh& poly,
                    rcPolyMeshDetail& detail) {
  ctx.begin("build the distance field");
  ctx.step(rcBuildDistanceField(&ctx, chf), "build the distance field");
  ctx.begin("build regions");
  const auto squared = [](double v) { return static_cast<int>(v * v); };
  ctx.step(rcBuildRegions(&ctx, chf, border_size, squared(params.region_min_size), squared(params.region_merge_size)),
           "build regions");
  check_regions(chf);
  const auto contours = owned(rcAllocContourSet());
  ctx.begin("build contours");
  ctx.step(rcBuildContours(&ctx, chf, static_cast<float>(params.edge_max_error),
                           static_cast<int>(params.edge_max_len / params.cell_size), *contours),
           "build contours");
  check_contours(*contours);
  ctx.begin("build the polygon mesh");
  ctx.step(rcBuildPolyMesh(&ctx, *contours, params.verts_per_poly, poly), "build the polygon mesh");
  // Below min_detail_sample_dist, no samples. Recast 1.5.1 hangs on 0 (its hull stays empty and
  // triangulateHull loops, allocating), so "none" is a spacing longer than any polygon: each
  // edge keeps its two ends, and no polygon is wide enough for inner samples.
  // Spacings past a float's range are clamped to its largest (a float cast of them is undefined).
  constexpr double float_max = std::numeric_limits<float>::max();
  const double sample = params.detail_sample_dist < min_detail_sample_dist
                            ? float_max
                            : std::min(params.cell_size * params.detail_sample_dist, float_max);
  ctx.begin("build the detail mesh");
  ctx.step(rcBuildPolyMeshDetail(&ctx, poly, chf, static_cast<float>(sample),
                                 static_cast<float>(std::min(params.cell_height * params.detail_sample_max_error, float_max)), detail),
           "build the detail mesh");
  for (int i = 0; i < poly.npolys; ++i) {  // RecastDemo's ground area and walk flag
    if (poly.areas[i] == RC_WALKABLE_AREA) poly.areas[i] = 0;
    poly.flags[i] = navmesh::walk_flag;
  }
}

void append_poly(const rcPolyMesh& pm, const rcPolyMeshDetail& dm, int i, Vec3 origin, navmesh::NavMeshData& d) {
  const unsigned short* p = &pm.polys[i * 2 * pm.nvp];
  std::array<std::uint32_t, 16> corner_array{};  // nvp <= 6 (checked with the parameters)
  std::uint32_t* corners = corner_array.data();
  std::array<PolyId, 16> links{};
  std::size_t n = 0;
  for (int j = 0; j < pm.nvp && p[j] != RC_MESH_NULL_IDX; ++j, ++n) {
    corners[n] = p[j];
    const unsigned short nb = p[pm.nvp + j];
    // 0x8000 marks a link to another tile: a wall until a tiled world stitches it.
    links[n] = nb == RC_MESH_NULL_IDX || (nb & 0x8000) != 0 ? PolyId{} : PolyId{nb};
  }
  if (!d.detail_begin.empty()) {  // heights as Detour takes them
    const unsigned int* m = &dm.meshes[i * 4];
    for (unsigned int t = 0; t < m[3]; ++t) {
      const unsigned char* tri = &dm.tris[(m[2] + t) * 4];
      std::array<Vec3, 3>& out = d.detail.emplace_back();
      for (std::size_t c = 0; c < 3; ++c) {
        // As Detour: the first detail vertices are the polygon's own, at its heights.
        const unsigned int j = tri[c];
        if (j < n) {
          out[c] = d.vertices[corners[j]];
        } else {
          const float* v = &dm.verts[(m[0] + j) * 3];
          out[c] = origin + Vec3{v[0], v[1], v[2]};
        }
      }
    }
    d.detail_begin.push_back(static_cast<std::uint32_t>(d.detail.size()));
  }
  // About the first corner: far from the world's origin the corners' own cross products are
  // huge and cancel (at 10^8 the sign came out wrong, and the polygon was turned the wrong way).
  double twice_area = 0;
  const Vec2 first = navmesh::plan(d.vertices[corners[0]]);
  for (std::size_t k = 1; k + 1 < n; ++k) {
    twice_area += cross(navmesh::plan(d.vertices[corners[k]]) - first, navmesh::plan(d.vertices[corners[k + 1]]) - first);
  }
  if (twice_area < 0) {
    // Reversed, edge k is the old edge n - 2 - k (mod n), run backwards: the links reversed,
    // then rotated by one.
    std::reverse(corners, corners + n);
    std::reverse(links.begin(), links.begin() + static_cast<std::ptrdiff_t>(n));
    std::rotate(links.begin(), links.begin() + 1, links.begin() + static_cast<std::ptrdiff_t>(n));
  }
  d.corners.insert(d.corners.end(), corners, corners + n);
  d.neighbors.insert(d.neighbors.end(), links.begin(), links.begin() + static_cast<std::ptrdiff_t>(n));
  d.poly_begin.push_back(static_cast<std::uint32_t>(d.corners.size()));
  d.areas.push_back(pm.areas[i]);
  d.flags.push_back(pm.flags[i]);
}

}  // namespace waymark::recast::detail
