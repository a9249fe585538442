// Stitching tiles into one navmesh (TiledNavMesh::snapshot): the edges on shared tile border
// lines joined, T-junctions split, the corners across a join welded.

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>

#include "waymark/core/text.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"

#include "disjoint_sets.hpp"

namespace waymark::navmesh {

namespace {

/// A wall edge on a tile border line.
struct BorderEdge {
  // The pair of tiles the line lies between: axis 0 a line of constant x between tile (lx, lz)
  // and (lx + 1, lz); axis 1 a line of constant z between (lx, lz) and (lx, lz + 1).
  int axis = 0;
  std::int64_t lx = 0, lz = 0;
  bool high = false;  // on the higher tile's side
  double line = 0;    // the line's coordinate
  std::uint32_t corner = 0;  // the edge: corner index in the stitched data
  std::uint32_t va = 0, vb = 0;
  double ta = 0, tb = 0;  // along the line
  double ya = 0, yb = 0;
  double climb = 0;

  [[nodiscard]] double lo() const { return std::min(ta, tb); }
  [[nodiscard]] double hi() const { return std::max(ta, tb); }
  [[nodiscard]] double y_at(double t) const { return ta == tb ? ya : ya + (yb - ya) * (t - ta) / (tb - ta); }
  /// The edge's own vertex at t, if it ends there.
  [[nodiscard]] std::optional<std::uint32_t> vertex_at(double t) const {
    if (t == ta) return va;
    if (t == tb) return vb;
    return std::nullopt;
  }
};

/// A joined piece of an edge: from the vertex `from` (at distance `along` from the edge's
/// first corner, in line units) to `to`, with `neighbor` across.
struct Join {
  std::uint32_t corner = 0;
  double along = 0;
  std::uint32_t from = 0, to = 0;
  PolyId neighbor;
};

/// The vertices welded across borders: the root of each set is the vertex kept.
using Welds = detail::DisjointSets;

/// Appends `tile`'s data to `d`, indices shifted; polygons without detail get their fan as
/// detail when `detail` is set.
void append_tile(const NavTile& tile, bool detail, NavMeshData& d, std::vector<TileCoord>& poly_tiles) {
  const NavMeshData& t = tile.data;
  constexpr std::size_t most = PolyId::invalid_value;  // indices are 32 bits, the last meaning none
  if (d.vertices.size() + t.vertices.size() >= most || d.areas.size() + t.areas.size() >= most ||
      d.corners.size() + t.corners.size() >= most) {
    throw BuildError("stitching: the world has more than 2^32 - 1 vertices, polygons or corners");
  }
  const auto v0 = static_cast<std::uint32_t>(d.vertices.size()), p0 = static_cast<std::uint32_t>(d.areas.size());
  d.vertices.insert(d.vertices.end(), t.vertices.begin(), t.vertices.end());
  for (std::uint32_t c : t.corners) d.corners.push_back(c + v0);
  for (PolyId q : t.neighbors) d.neighbors.push_back(q.valid() ? PolyId{q.value + p0} : PolyId{});
  const auto k0 = d.poly_begin.back();
  for (std::size_t i = 1; i < t.poly_begin.size(); ++i) d.poly_begin.push_back(t.poly_begin[i] + k0);
  d.areas.insert(d.areas.end(), t.areas.begin(), t.areas.end());
  d.flags.insert(d.flags.end(), t.flags.begin(), t.flags.end());
  poly_tiles.insert(poly_tiles.end(), t.areas.size(), tile.coord);
  d.links.insert(d.links.end(), t.links.begin(), t.links.end());
  d.climb = std::max(d.climb, t.climb);
  if (!detail) return;
  for (std::size_t p = 0; p + 1 < t.poly_begin.size(); ++p) {
    if (!t.detail_begin.empty()) {
      d.detail.insert(d.detail.end(), t.detail.begin() + t.detail_begin[p], t.detail.begin() + t.detail_begin[p + 1]);
    } else {
      for (std::uint32_t k = t.poly_begin[p] + 1; k + 1 < t.poly_begin[p + 1]; ++k) {
        d.detail.push_back({t.vertices[t.corners[t.poly_begin[p]]], t.vertices[t.corners[k]], t.vertices[t.corners[k + 1]]});
      }
    }
    d.detail_begin.push_back(static_cast<std::uint32_t>(d.detail.size()));
  }
}

/// The wall edges of tile `tile` (its polygons from p0, corners from k0 in `d`) on its border.
void border_edges(const NavTile& tile, const NavMeshData& d, std::uint32_t p0, std::uint32_t p1, std::vector<BorderEdge>& out) {
  for (std::uint32_t p = p0; p < p1; ++p) {
    const std::uint32_t b = d.poly_begin[p], e = d.poly_begin[p + 1];
    for (std::uint32_t k = b; k < e; ++k) {
      if (d.neighbors[k].valid()) continue;
      const std::uint32_t va = d.corners[k], vb = d.corners[k + 1 == e ? b : k + 1];
      const Vec3 a = d.vertices[va], c = d.vertices[vb];
      BorderEdge edge{.corner = k, .va = va, .vb = vb, .ya = a.y, .yb = c.y, .climb = tile.data.climb};
      const std::int64_t x = tile.coord.x, z = tile.coord.z;
      if (a.x == c.x && (a.x == tile.max.x || a.x == tile.min.x)) {
        edge.axis = 0;
        edge.high = a.x == tile.min.x;
        edge.lx = edge.high ? x - 1 : x;
        edge.lz = z;
        edge.line = a.x;
        edge.ta = a.z;
        edge.tb = c.z;
      } else if (a.z == c.z && (a.z == tile.max.y || a.z == tile.min.y)) {
        edge.axis = 1;
        edge.high = a.z == tile.min.y;
        edge.lx = x;
        edge.lz = edge.high ? z - 1 : z;
        edge.line = a.z;
        edge.ta = a.x;
        edge.tb = c.x;
      } else {
        continue;
      }
      out.push_back(edge);
    }
  }
}

/// A point on a line, its vertex: the corners and splits at one place and height are one.
struct LinePoint {
  double t = 0, y = 0;
  std::uint32_t vertex = 0;
};

class LineStitcher {
 public:
  LineStitcher(NavMeshData& d, Welds& welds, std::vector<Join>& joins) : d_(d), welds_(welds), joins_(joins) {}

  /// Joins the low-side and high-side edges of one tile pair's line.
  void stitch(std::span<const BorderEdge> low, std::span<const BorderEdge> high, std::vector<PolyId>& poly_of_corner) {
    points_.clear();
    taken_.clear();
    for (const BorderEdge& e : low) {
      for (const BorderEdge& f : high) {
        if (e.line != f.line) continue;
        const double s0 = std::max(e.lo(), f.lo()), s1 = std::min(e.hi(), f.hi());
        if (!(s1 - s0 > 1e-9)) continue;
        const double climb = std::max(e.climb, f.climb);
        if (std::abs(e.y_at(s0) - f.y_at(s0)) > climb || std::abs(e.y_at(s1) - f.y_at(s1)) > climb) continue;
        if (taken(e, s0, s1) || taken(f, s0, s1)) continue;  // another floor already joined there
        const std::uint32_t v0 = point(e, f, s0), v1 = point(e, f, s1);
        add(e, s0, s1, v0, v1, poly_of_corner[f.corner]);
        add(f, s0, s1, v0, v1, poly_of_corner[e.corner]);
        ++joined;
      }
    }
  }
  std::size_t joined = 0;

 private:
  /// The vertex at t on the line between e and f: one already there at e's height, else e's
  /// or f's corner there, else a new one (on e).
  std::uint32_t point(const BorderEdge& e, const BorderEdge& f, double t) {
    const double y = e.y_at(t);
    const double climb = std::max(e.climb, f.climb);
    const std::optional<std::uint32_t> ve = e.vertex_at(t), vf = f.vertex_at(t);
    std::uint32_t id = 0;
    const auto it = std::find_if(points_.begin(), points_.end(),
                                 [&](const LinePoint& p) { return p.t == t && std::abs(p.y - y) <= climb; });
    if (it != points_.end()) {
      id = it->vertex;
    } else {
      if (ve) {
        id = *ve;
      } else if (vf) {
        id = *vf;
      } else {
        id = static_cast<std::uint32_t>(d_.vertices.size());
        d_.vertices.push_back(e.axis == 0 ? Vec3{e.line, y, t} : Vec3{t, y, e.line});
        welds_.parent.push_back(id);
      }
      points_.push_back({t, y, id});
    }
    if (ve) welds_.join(*ve, id);
    if (vf) welds_.join(*vf, id);
    return id;
  }
  /// Whether edge e already has a join overlapping (s0, s1).
  bool taken(const BorderEdge& e, double s0, double s1) const {
    return std::any_of(taken_.begin(), taken_.end(), [&](const auto& j) {
      return j.first == e.corner && j.second.first < s1 && s0 < j.second.second;
    });
  }
  void add(const BorderEdge& e, double s0, double s1, std::uint32_t v0, std::uint32_t v1, PolyId neighbor) {
    taken_.push_back({e.corner, {s0, s1}});
    const bool up = e.ta < e.tb;  // the edge runs towards larger t
    joins_.push_back({e.corner, up ? s0 - e.ta : e.ta - s1, up ? v0 : v1, up ? v1 : v0, neighbor});
  }

  NavMeshData& d_;
  Welds& welds_;
  std::vector<Join>& joins_;
  std::vector<LinePoint> points_;
  std::vector<std::pair<std::uint32_t, std::pair<double, double>>> taken_;
};

}  // namespace

NavMeshData stitch_tiles(std::span<const NavTile* const> tiles, std::vector<TileCoord>& poly_tiles, std::size_t& joined) {
  NavMeshData d;
  poly_tiles.clear();
  joined = 0;
  const bool detail = std::any_of(tiles.begin(), tiles.end(), [](const NavTile* t) { return !t->data.detail_begin.empty(); });
  if (detail) d.detail_begin.push_back(0);
  std::vector<BorderEdge> edges;
  for (const NavTile* t : tiles) {
    const auto p0 = static_cast<std::uint32_t>(d.areas.size());
    append_tile(*t, detail, d, poly_tiles);
    border_edges(*t, d, p0, static_cast<std::uint32_t>(d.areas.size()), edges);
  }
  if (edges.empty()) return d;
  std::vector<PolyId> poly_of_corner(d.corners.size());
  for (std::uint32_t p = 0; p < d.areas.size(); ++p) {
    std::fill(poly_of_corner.begin() + d.poly_begin[p], poly_of_corner.begin() + d.poly_begin[p + 1], PolyId{p});
  }
  // One group per tile pair's line, low side first.
  std::sort(edges.begin(), edges.end(), [](const BorderEdge& a, const BorderEdge& b) {
    return std::tie(a.axis, a.lz, a.lx, a.high, a.corner) < std::tie(b.axis, b.lz, b.lx, b.high, b.corner);
  });
  Welds welds;
  welds.reset(d.vertices.size());
  std::vector<Join> joins;
  LineStitcher stitcher(d, welds, joins);
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    while (j < edges.size() && edges[j].axis == edges[i].axis && edges[j].lx == edges[i].lx && edges[j].lz == edges[i].lz) ++j;
    const auto mid = std::find_if(edges.begin() + static_cast<std::ptrdiff_t>(i), edges.begin() + static_cast<std::ptrdiff_t>(j),
                                  [](const BorderEdge& e) { return e.high; });
    const std::span<const BorderEdge> group(edges.data() + i, j - i);
    const auto split = static_cast<std::size_t>(mid - (edges.begin() + static_cast<std::ptrdiff_t>(i)));
    stitcher.stitch(group.first(split), group.subspan(split), poly_of_corner);
    i = j;
  }
  joined = stitcher.joined;
  if (joins.empty()) return d;

  // The polygons again, joined edges split at their pieces' ends, every corner welded.
  std::sort(joins.begin(), joins.end(), [](const Join& a, const Join& b) { return std::tie(a.corner, a.along) < std::tie(b.corner, b.along); });
  std::vector<std::uint32_t> corners, begin{0};
  std::vector<PolyId> neighbors;
  corners.reserve(d.corners.size() + 2 * joins.size());
  neighbors.reserve(corners.capacity());
  auto next_join = joins.begin();
  for (std::uint32_t p = 0; p < d.areas.size(); ++p) {
    for (std::uint32_t k = d.poly_begin[p]; k < d.poly_begin[p + 1]; ++k) {
      const std::uint32_t end = welds.find(d.corners[k + 1 == d.poly_begin[p + 1] ? d.poly_begin[p] : k + 1]);
      corners.push_back(welds.find(d.corners[k]));
      neighbors.push_back(d.neighbors[k]);
      for (; next_join != joins.end() && next_join->corner == k; ++next_join) {
        const std::uint32_t from = welds.find(next_join->from), to = welds.find(next_join->to);
        if (from != corners.back()) {  // a wall piece before it
          corners.push_back(from);
          neighbors.push_back(PolyId{});
        }
        neighbors.back() = next_join->neighbor;
        if (to != end) {  // a wall piece after it, unless another join follows
          corners.push_back(to);
          neighbors.push_back(PolyId{});
        }
      }
    }
    if (corners.size() - begin.back() > max_polygon_corners) {
      throw BuildError("stitching tiles: polygon " + number_text(p) + " would have more than " +
                       number_text(max_polygon_corners) + " corners");
    }
    begin.push_back(static_cast<std::uint32_t>(corners.size()));
  }
  d.corners = std::move(corners);
  d.neighbors = std::move(neighbors);
  d.poly_begin = std::move(begin);
  return d;
}

}  // namespace waymark::navmesh
