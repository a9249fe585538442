#include "waymark/visibility/visibility_graph.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <span>
#include <utility>

#include "waymark/core/clip.hpp"
#include "waymark/core/text.hpp"

namespace waymark::visibility {
namespace {

/// Most grid cells along one side of the broad phase (memory: side² cell heads).
constexpr std::uint32_t max_grid_side = 1024;
/// Normals closer than this (radians) are one: the corner is straight.
constexpr double straight_angle = 1e-9;
/// Largest accepted tolerance, world units.
constexpr double max_tolerance = 1e-3;
constexpr double min_arc_step_degrees = 1;
constexpr double max_arc_step_degrees = 90;
/// Tolerances above this share of the largest coordinate are far above the rounding of a
/// crossing test: points farther than the tolerance from a polygon's boundary are inside by
/// any ray's count.
constexpr double off_boundary_rounding = 1e-12;

std::string point_text(Vec2 p) { return pair_text(p.x, p.y); }

bool coordinate_ok(double v) { return std::isfinite(v) && std::abs(v) <= max_abs_coordinate; }

/// The outward unit normal of the edge a → b of a counter-clockwise polygon (its right side).
Vec2 outward_normal(Vec2 a, Vec2 b) {
  const Vec2 e = normalized(b - a);
  return {e.y, -e.x};
}

Vec2 rotated(Vec2 v, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {v.x * c - v.y * s, v.x * s + v.y * c};
}

/// The polygon circumscribed about the disc of `radius` around `v` whose tangent directions
/// include both edges' normals (so the edges' rectangles continue its sides) and are at most
/// `step` radians apart, counter-clockwise.
void corner_polygon(Vec2 v, Vec2 n1, Vec2 n2, double radius, double step, std::vector<Vec2>& normals,
                    std::vector<Vec2>& out) {
  normals.clear();
  const auto sweep = [&](Vec2 from, double angle) {  // the normals strictly inside the sweep
    const int pieces = static_cast<int>(std::ceil(angle / step - straight_angle));  // 90/90 is one piece, not two
    for (int k = 1; k < pieces; ++k) normals.push_back(rotated(from, angle * k / pieces));
  };
  double phi = std::atan2(cross(n1, n2), dot(n1, n2));  // counter-clockwise from n1 to n2
  if (phi < 0) phi += 2 * std::numbers::pi;
  normals.push_back(n1);
  if (phi > straight_angle && 2 * std::numbers::pi - phi > straight_angle) {
    sweep(n1, phi);
    normals.push_back(n2);
    sweep(n2, 2 * std::numbers::pi - phi);
  } else {
    sweep(n1, 2 * std::numbers::pi);
  }
  out.clear();
  for (std::size_t k = 0; k < normals.size(); ++k) {
    const Vec2 a = normals[k], b = normals[(k + 1) % normals.size()];
    out.push_back(v + (a + b) * (radius / (1 + dot(a, b))));  // where the two tangent lines meet
  }
}

/// The cuts the edge p → q makes in the segment a + t·d (length len), kept when within
/// [lo, hi] and inside (0, 1): where it crosses the edge (both ends farther than the tolerance,
/// on opposite sides), and where p lies within the tolerance of the segment's line.
void add_cuts(Vec2 p, Vec2 q, Vec2 a, Vec2 d, double len, double tol, double lo, double hi, std::vector<double>& cuts) {
  const auto keep = [&](double t) {
    if (t > 0 && t < 1 && t >= lo && t <= hi) cuts.push_back(t);
  };
  const double sp = cross(d, p - a) / len, sq = cross(d, q - a) / len;
  if ((sp > tol && sq < -tol) || (sp < -tol && sq > tol)) keep(cross(p - a, q - p) / cross(d, q - p));
  if (std::abs(sp) <= tol) keep(dot(p - a, d) / (len * len));
}

/// A pseudo-angle of d in [0, 4), increasing counter-clockwise from +x: one division, and the
/// same number for d and c·d wherever |x| + |y| is exact (integers, say). d must not be zero
/// (0/0 would be NaN, which no order sorts).
double direction_key(Vec2 d) {
  const double p = d.x / (std::abs(d.x) + std::abs(d.y));
  return d.y >= 0 ? 1 - p : 3 + p;
}

/// Whether the point at a lies on the segment from 0 to b, before b: the same direction,
/// nearer, and off the line by no more than rounding (and a thousandth of the tolerance).
bool lies_before(Vec2 a, Vec2 b, double tolerance) {
  const double ab = cross(a, b), aa = dot(a, a), bb = dot(b, b);
  constexpr double rounding = 8 * std::numeric_limits<double>::epsilon();
  return dot(a, b) > 0 && aa < bb && ab * ab <= std::min(rounding * rounding * aa, 1e-6 * tolerance * tolerance) * bb;
}

// ---- the shadow sweep (docs/visibility.md, "Shadows") ---------------------------------------

/// A convex part shrunk by twice the tolerance and this share of the world's largest
/// coordinate casts a shadow: a segment through that shrunk inside passes farther than the
/// tolerance and rounding inside the part, so the segment test finds it blocked.
constexpr double shadow_rounding = 1e-10;
/// The sweep grid: about this many points a cell, and at most this many cells a point.
constexpr double sweep_points_per_cell = 1;
constexpr double sweep_cells_per_point = 4;
/// Cells at least this many shadow margins wide (a run's box widened by the margin must stay
/// clear of the point the sweep is around).
constexpr double sweep_min_side_margins = 64;

/// The directions from `v` to the points of `ps`, all in one open half-plane around v (v
/// outside their hull): the clockwise-most and counter-clockwise-most as pseudo-angle keys.
/// Keys lo > hi: the directions pass +x.
std::pair<double, double> cone_of(Vec2 v, std::span<const Vec2> ps) {
  Vec2 lo = ps[0] - v, hi = lo;
  for (std::size_t k = 1; k < ps.size(); ++k) {
    const Vec2 d = ps[k] - v;
    if (cross(lo, d) < 0) lo = d;
    if (cross(hi, d) > 0) hi = d;
  }
  return {direction_key(lo), direction_key(hi)};
}

/// cone_of for the box [lo, hi] (v outside it): its two silhouette corners, by where v lies.
std::pair<double, double> box_cone(Vec2 v, Vec2 lo, Vec2 hi) {
  Vec2 cw, ccw;  // the clockwise-most and counter-clockwise-most corners
  if (v.y > hi.y) {  // above: looking down
    cw = {lo.x, v.x < lo.x ? lo.y : hi.y};
    ccw = {hi.x, v.x > hi.x ? lo.y : hi.y};
  } else if (v.y < lo.y) {  // below: looking up
    cw = {hi.x, v.x > hi.x ? hi.y : lo.y};
    ccw = {lo.x, v.x < lo.x ? hi.y : lo.y};
  } else if (v.x < lo.x) {  // left, looking towards +x
    cw = lo;
    ccw = {lo.x, hi.y};
  } else {  // right, looking towards −x
    cw = hi;
    ccw = {hi.x, lo.y};
  }
  return {direction_key(cw - v), direction_key(ccw - v)};
}

/// A direction whose pseudo-angle key (direction_key) is `key`, in [0, 4].
Vec2 key_direction(double key) {
  key = std::clamp(key, 0.0, 4.0);
  if (key <= 2) {
    const double p = 1 - key;
    return {p, 1 - std::abs(p)};
  }
  const double p = key - 3;
  return {p, std::abs(p) - 1};
}

/// Sets of directions (pseudo-angle keys, [0, 4)) as sorted open spans, overlapping spans
/// merged; a span across +x is kept as two, [lo, 5) and (−1, hi], so that a full turn merges
/// into one span holding [0, 4]. Spans that only touch stay apart: the direction between
/// them is not covered.
class DirectionSpans {
 public:
  void clear() { spans_.clear(); }
  void add(double lo, double hi) {
    if (lo <= hi) {
      insert(lo, hi);
    } else {
      insert(lo, past_turn);
      insert(before_turn, hi);
    }
  }
  /// Whether the directions from lo counter-clockwise to hi lie strictly inside one span.
  [[nodiscard]] bool covers(double lo, double hi) const {
    if (lo <= hi) return inside(lo, hi);
    return inside(lo, turn) && inside(0, hi);
  }
  /// Calls f(g0, g1) for each stretch [g0, g1] of directions within [lo, hi] (lo <= hi) that
  /// no span covers (closed: a span's ends, and the point where two spans touch, are not
  /// covered), in order.
  template <class F>
  void for_each_gap(double lo, double hi, F&& f) const {
    double at = lo;
    for (auto it = std::partition_point(spans_.begin(), spans_.end(), [&](const Span& s) { return s.hi <= lo; });
         it != spans_.end(); ++it) {
      if (it->lo < at) {  // at lies inside this span: uncovered again from its end
        at = it->hi;
        if (at > hi) return;
        continue;
      }
      f(at, std::min(it->lo, hi));
      if (it->lo >= hi) return;
      at = it->hi;
      if (at > hi) return;
    }
    f(at, hi);
  }
  /// Whether every direction is covered.
  [[nodiscard]] bool full() const { return spans_.size() == 1 && spans_[0].lo < 0 && spans_[0].hi > turn; }
  [[nodiscard]] bool empty() const { return spans_.empty(); }

 private:
  static constexpr double turn = 4, past_turn = 5, before_turn = -1;
  struct Span {
    double lo, hi;
  };
  void insert(double lo, double hi) {
    // The first span ending after lo, then every span starting before hi: merged into one.
    auto first = std::partition_point(spans_.begin(), spans_.end(), [&](const Span& s) { return s.hi <= lo; });
    auto last = first;
    for (; last != spans_.end() && last->lo < hi; ++last) {
      lo = std::min(lo, last->lo);
      hi = std::max(hi, last->hi);
    }
    first = spans_.erase(first, last);
    spans_.insert(first, Span{lo, hi});
  }
  [[nodiscard]] bool inside(double lo, double hi) const {
    auto it = std::partition_point(spans_.begin(), spans_.end(), [&](const Span& s) { return s.lo < lo; });
    if (it == spans_.begin()) return false;
    --it;
    return hi < it->hi;
  }
  std::vector<Span> spans_;
};

}  // namespace

std::optional<PolygonProblem> polygon_problem(std::span<const Vec2> p, double tolerance) {
  const std::size_t n = p.size();
  if (n < 3) return PolygonProblem{number_text(n) + " vertices; at least 3 are needed", 0};
  for (std::size_t k = 0; k < n; ++k) {
    if (!std::isfinite(p[k].x) || !std::isfinite(p[k].y)) return PolygonProblem{"vertex " + number_text(k) + " is not finite", k};
    if (!coordinate_ok(p[k].x) || !coordinate_ok(p[k].y))
      return PolygonProblem{"vertex " + number_text(k) + " lies outside ±" + number_text(max_abs_coordinate), k};
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (distance(p[k], p[(k + n - 1) % n]) > tolerance) continue;
    if (k == 0) return PolygonProblem{"the last vertex repeats the first (polygons close by themselves: leave it out)", n - 1};
    return PolygonProblem{"vertex " + number_text(k) + " repeats vertex " + number_text(k - 1), k};
  }
  for (std::size_t k = 0; k < n; ++k) {
    const Vec2 a = p[(k + n - 1) % n], b = p[k], c = p[(k + 1) % n];
    if (Segment2{b, c}.distance_to(a) <= tolerance || Segment2{a, b}.distance_to(c) <= tolerance)
      return PolygonProblem{"the edges at vertex " + number_text(k) + " fold back over each other", k};
  }
  for (std::size_t i = 0; i < n; ++i) {
    const Segment2 s{p[i], p[(i + 1) % n]};
    Aabb2 box = Aabb2::around(s.a, s.b);
    box.min -= Vec2{tolerance, tolerance};
    box.max += Vec2{tolerance, tolerance};
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // adjacent through the closing edge
      const Segment2 t{p[j], p[(j + 1) % n]};
      if (!box.overlaps(Aabb2::around(t.a, t.b)) || segment_distance(s, t) > tolerance) continue;
      return PolygonProblem{"edges " + number_text(i) + "-" + number_text((i + 1) % n) + " and " +
                                number_text(j) + "-" + number_text((j + 1) % n) + " cross or touch (not a simple polygon)",
                            j};
    }
  }
  double perimeter = 0;
  for (std::size_t k = 0; k < n; ++k) perimeter += distance(p[k], p[(k + 1) % n]);
  if (std::abs(polygon_signed_area(p)) <= tolerance * perimeter) return PolygonProblem{"no area", 0};
  return std::nullopt;
}

VisibilityGraph::VisibilityGraph(const Obstacles& obstacles, const VisibilityParams& params) : params_(params) {
  using Item = InputError::Item;
  const double r = params.radius;
  if (!(std::isfinite(r) && r >= 0 && r <= max_abs_coordinate))
    throw InputError(Item::params, 0, "radius must be a finite number from 0 to " + number_text(max_abs_coordinate) + ", got " + number_text(r));
  if (!(params.arc_step_degrees >= min_arc_step_degrees && params.arc_step_degrees <= max_arc_step_degrees))
    throw InputError(Item::params, 0, "arc step must be from 1 to 90 degrees, got " + number_text(params.arc_step_degrees));
  if (!(params.tolerance > 0 && params.tolerance <= max_tolerance))
    throw InputError(Item::params, 0, "tolerance must be above 0 and at most 1e-3, got " + number_text(params.tolerance));
  if (params.max_edges < 1) throw InputError(Item::params, 0, "max_edges must be at least 1");
  if (!(params.max_seconds > 0))
    throw InputError(Item::params, 0, "max_seconds must be above 0, got " + number_text(params.max_seconds));
  if (obstacles.bounds) {
    const Aabb2& b = *obstacles.bounds;
    if (!(coordinate_ok(b.min.x) && coordinate_ok(b.min.y) && coordinate_ok(b.max.x) && coordinate_ok(b.max.y) &&
          b.min.x < b.max.x && b.min.y < b.max.y))
      throw InputError(Item::bounds, 0, "bounds must be finite, within ±" + number_text(max_abs_coordinate) + ", with min < max");
    Aabb2 inner = b;
    inner.min += Vec2{r, r};
    inner.max -= Vec2{r, r};
    if (!(inner.min.x <= inner.max.x && inner.min.y <= inner.max.y))
      throw InputError(Item::bounds, 0, "bounds leave no room for an agent of radius " + number_text(r));
    bounds_ = b;
    centre_bounds_ = inner;
  }

  // The obstacles, counter-clockwise, then the parts: each polygon, and with a radius its
  // edges' rectangles and its vertices' circumscribed polygons.
  for (std::size_t i = 0; i < obstacles.polygons.size(); ++i) {
    const auto& poly = obstacles.polygons[i];
    if (const auto problem = polygon_problem(poly, params.tolerance))
      throw InputError(Item::polygon, i, "polygon " + number_text(i) + ": " + problem->reason);
    if (polygon_signed_area(poly) > 0) {
      obstacle_vertices_.insert(obstacle_vertices_.end(), poly.begin(), poly.end());
    } else {
      obstacle_vertices_.insert(obstacle_vertices_.end(), poly.rbegin(), poly.rend());
    }
    obstacle_begin_.push_back(static_cast<std::uint32_t>(obstacle_vertices_.size()));
  }
  struct Candidate {
    Vec2 at;
    Corner corner;
  };
  std::vector<Candidate> candidates;
  std::vector<Vec2> normals, piece;
  const double step = params.arc_step_degrees * std::numbers::pi / 180;
  for (std::uint32_t i = 0; i < obstacle_count(); ++i) {
    const std::span<const Vec2> p = obstacle(i);
    const std::size_t n = p.size();
    add_part(p, i, polygon_convex_ccw(p));
    for (std::size_t k = 0; k < n; ++k) {
      const Vec2 prev = p[(k + n - 1) % n], v = p[k], next = p[(k + 1) % n];
      if (r == 0) {
        if (params.corner_points && cross(v - prev, next - v) > 0) candidates.push_back({v, {prev, next}});
        continue;
      }
      const Vec2 n2 = outward_normal(v, next);
      add_part(std::array{v + n2 * r, next + n2 * r, next - n2 * r, v - n2 * r}, i, true);
      corner_polygon(v, outward_normal(prev, v), n2, r, step, normals, piece);
      add_part(piece, i, true);
      if (!params.corner_points) continue;
      for (std::size_t c = 0; c < piece.size(); ++c) {
        candidates.push_back({piece[c], {piece[(c + piece.size() - 1) % piece.size()], piece[(c + 1) % piece.size()]}});
      }
    }
  }
  index_parts();

  // Corners on no part's inside, once each, then the hand-placed points.
  std::sort(candidates.begin(), candidates.end(),
            [](const Candidate& a, const Candidate& b) { return a.at.x < b.at.x || (a.at.x == b.at.x && a.at.y < b.at.y); });
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (c > 0 && candidates[c].at == candidates[c - 1].at) continue;
    if (!standable(candidates[c].at) || on_part_side(candidates[c].at)) continue;
    points_.push_back(candidates[c].at);
    corners_.push_back(candidates[c].corner);
  }
  for (std::size_t i = 0; i < obstacles.points.size(); ++i) {
    const Vec2 q = obstacles.points[i];
    const std::string name = "point " + number_text(i) + " " + point_text(q);
    if (!coordinate_ok(q.x) || !coordinate_ok(q.y))
      throw InputError(Item::point, i, name + " is not finite or lies outside ±" + number_text(max_abs_coordinate));
    if (const auto inside = obstacle_at(q))
      throw InputError(Item::point, i, name + " lies inside obstacle " + number_text(*inside) + " inflated by radius " + number_text(r));
    if (!standable(q)) throw InputError(Item::point, i, name + " lies outside the bounds shrunk by radius " + number_text(r));
    points_.push_back(q);
  }
  build_arcs();
}

void VisibilityGraph::add_part(std::span<const Vec2> ccw, std::uint32_t obstacle, bool convex) {
  Part part;
  part.begin = static_cast<std::uint32_t>(part_vertices_.size());
  part.obstacle = obstacle;
  part.convex = convex;
  for (const Vec2 v : ccw) {
    if (part_vertices_.size() > part.begin && part_vertices_.back() == v) continue;
    part_vertices_.push_back(v);
    part.box.expand(v);
  }
  while (part_vertices_.size() > part.begin + 1 && part_vertices_.back() == part_vertices_[part.begin]) part_vertices_.pop_back();
  part.end = static_cast<std::uint32_t>(part_vertices_.size());
  if (!convex && part.end - part.begin > params_.polygon_grid_above) {
    part.edges = static_cast<std::uint32_t>(edge_grids_.size());
    const std::span<const Vec2> corners(part_vertices_.data() + part.begin, part.end - part.begin);
    edge_grids_.emplace_back(corners, params_.tolerance);
  }
  for (std::uint32_t k = part.begin; k < part.end; ++k) {
    const Vec2 a = part_vertices_[k], b = part_vertices_[part.next(k)];
    const Vec2 n = outward_normal(a, b);
    planes_.push_back({n, dot(n, a)});
  }
  largest_part_ = std::max<std::size_t>(largest_part_, part.end - part.begin);
  parts_.push_back(part);
}

void VisibilityGraph::index_parts() {
  Aabb2 all;
  for (const Part& p : parts_) all.expand(p.box);
  if (all.empty()) {
    cells_.build(0, 0, [](std::size_t, auto&&) {});
    return;
  }
  const Vec2 size = all.size();
  const double area = std::max(size.x, params_.tolerance) * std::max(size.y, params_.tolerance);
  grid_.side = std::max({std::sqrt(area / static_cast<double>(parts_.size())), std::max(size.x, size.y) / max_grid_side,
                         params_.tolerance});
  grid_.origin = all.min;
  const auto side = [&](double extent) {
    return static_cast<int>(std::min<std::uint32_t>(max_grid_side, static_cast<std::uint32_t>(extent / grid_.side) + 1));
  };
  grid_.columns = side(size.x);
  grid_.rows = side(size.y);
  // A part is listed in every cell its box, widened by the tolerance, touches: walks and point
  // lookups that round across a cell border still find it.
  const double margin = params_.tolerance + grid_.side * 1e-9;
  cells_.build(grid_.cell_count(), parts_.size(), [&](std::size_t i, auto&& add) {
    const Aabb2& b = parts_[i].box;
    const UniformGrid::Range r = grid_.cells_of(b.min - Vec2{margin, margin}, b.max + Vec2{margin, margin});
    for (int y = r.y0; y <= r.y1; ++y) {
      for (int x = r.x0; x <= r.x1; ++x) add(grid_.index(x, y));
    }
  });
}

std::size_t VisibilityGraph::cell_of(Vec2 p) const {
  if (grid_.empty()) return SIZE_MAX;
  const double fx = std::floor((p.x - grid_.origin.x) / grid_.side), fy = std::floor((p.y - grid_.origin.y) / grid_.side);
  if (!(fx >= 0 && fy >= 0 && fx < grid_.columns && fy < grid_.rows)) return SIZE_MAX;
  return grid_.index(static_cast<int>(fx), static_cast<int>(fy));
}

bool VisibilityGraph::inside_part(std::uint32_t i, Vec2 p) const {
  const Part& part = parts_[i];
  if (!part.box.contains(p)) return false;
  const double tol = params_.tolerance;
  if (part.convex) {
    for (std::uint32_t k = part.begin; k < part.end; ++k) {
      if (!(dot(planes_[k].n, p) < planes_[k].offset - tol)) return false;
    }
    return true;
  }
  if (part.edges != no_grid) {
    // Outside, or within rounding of the boundary (then within the tolerance too): not inside
    // either way, so the crossings go first, by the shortest scan where the tolerance is far
    // above rounding (then it answers as polygon_contains), else exactly by the row.
    const PolygonEdgeGrid& g = edge_grids_[part.edges];
    const Vec2 lo = g.grid().origin, hi = g.grid().max();
    const double largest = std::max({std::abs(lo.x), std::abs(lo.y), std::abs(hi.x), std::abs(hi.y)});
    if (!(tol > off_boundary_rounding * largest ? g.contains_off_boundary(p) : g.contains(p))) return false;
    // The edges within the tolerance are listed in p's cell.
    for (const std::uint32_t e : g.edges_near(p)) {
      // Farther than twice the tolerance from the edge's box: farther than it from the edge,
      // rounding included (the cell lists many such edges; this skips their distances).
      const Segment2 s = g.edge(e);
      if (p.x < std::min(s.a.x, s.b.x) - 2 * tol || p.x > std::max(s.a.x, s.b.x) + 2 * tol ||
          p.y < std::min(s.a.y, s.b.y) - 2 * tol || p.y > std::max(s.a.y, s.b.y) + 2 * tol)
        continue;
      if (s.distance_to(p) <= tol) return false;
    }
    return true;
  }
  for (std::uint32_t k = part.begin; k < part.end; ++k) {
    const Segment2 e{part_vertices_[k], part_vertices_[part.next(k)]};
    if (e.distance_to(p) <= tol) return false;
  }
  return polygon_contains(this->part(i), p);
}

bool VisibilityGraph::on_part_side(Vec2 p) const {
  const std::size_t c = cell_of(p);
  if (c == SIZE_MAX) return false;
  const double tol = params_.tolerance;
  const auto on_side = [&](const Segment2& e) {
    return e.distance_to(p) <= tol && distance(e.a, p) > tol && distance(e.b, p) > tol;
  };
  for (const std::uint32_t i : cells_.in(c)) {
    const Part& part = parts_[i];
    if (part.edges != no_grid) {  // the edges within the tolerance are listed in p's cell
      const PolygonEdgeGrid& g = edge_grids_[part.edges];
      for (const std::uint32_t e : g.edges_near(p)) {
        if (on_side(g.edge(e))) return true;
      }
      continue;
    }
    for (std::uint32_t v = part.begin; v < part.end; ++v) {
      if (on_side({part_vertices_[v], part_vertices_[part.next(v)]})) return true;
    }
  }
  return false;
}

std::optional<std::uint32_t> VisibilityGraph::obstacle_at(Vec2 p) const {
  const std::size_t c = cell_of(p);
  if (c == SIZE_MAX) return std::nullopt;
  for (const std::uint32_t i : cells_.in(c)) {
    if (inside_part(i, p)) return parts_[i].obstacle;
  }
  return std::nullopt;
}

bool VisibilityGraph::standable(Vec2 p) const {
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) return false;
  if (centre_bounds_) {
    const double tol = params_.tolerance;
    const Aabb2& b = *centre_bounds_;
    if (p.x < b.min.x - tol || p.y < b.min.y - tol || p.x > b.max.x + tol || p.y > b.max.y + tol) return false;
  }
  return !obstacle_at(p);
}

bool VisibilityGraph::segment_enters(std::uint32_t i, Vec2 a, Vec2 b, ProbeScratch& scratch) const {
  const Part& part = parts_[i];
  if (!part.box.overlaps(Aabb2::around(a, b))) return false;
  const double tol = params_.tolerance;
  const Vec2 d = b - a;
  if (part.convex) {
    // The segment against the part shrunk by the tolerance (Cyrus-Beck): enters when the
    // parameters inside every edge's half-plane form an interval of positive length.
    double t0 = 0, t1 = 1;
    for (std::uint32_t k = part.begin; k < part.end; ++k) {
      const double num = dot(planes_[k].n, a) - planes_[k].offset + tol;  // < 0: a is inside this plane
      const double den = dot(planes_[k].n, d);
      if (den == 0) {
        if (num >= 0) return false;
        continue;
      }
      const double t = -num / den;
      if (den > 0) {
        t1 = std::min(t1, t);
      } else {
        t0 = std::max(t0, t);
      }
      if (!(t0 < t1)) return false;
    }
    return true;
  }
  // A simple polygon: cut the segment where it crosses or touches the boundary; between two
  // cuts it is wholly inside or outside, which its midpoint tells.
  const double len = length(d);
  if (len <= tol) return inside_part(i, a);
  if (part.edges != no_grid) return segment_enters_grid(i, a, b, scratch);
  auto& cuts = scratch.cuts;
  cuts.clear();
  cuts.push_back(0);
  cuts.push_back(1);
  for (std::uint32_t k = part.begin; k < part.end; ++k) {
    add_cuts(part_vertices_[k], part_vertices_[part.next(k)], a, d, len, tol, 0, 1, cuts);
  }
  std::sort(cuts.begin(), cuts.end());
  scratch.work += part.end - part.begin + cuts.size();
  for (std::size_t k = 1; k < cuts.size(); ++k) {
    if (cuts[k] - cuts[k - 1] <= 0) continue;
    if (inside_part(i, a + d * ((cuts[k] + cuts[k - 1]) / 2))) return true;
  }
  return false;
}

bool VisibilityGraph::segment_enters_grid(std::uint32_t i, Vec2 a, Vec2 b, ProbeScratch& scratch) const {
  const PolygonEdgeGrid& g = edge_grids_[parts_[i].edges];
  const double tol = params_.tolerance;
  const Vec2 d = b - a;
  const double len = length(d);
  // A cut at t comes from an edge listed in the cell the walk is in at t (the edges are listed
  // with the tolerance as margin): once the walk is past t by more than rounding, every cut
  // before t is known, and so is every interval before it.
  const double slack = (tol + 1e-9 * g.grid().side) / len;
  auto& cuts = scratch.cuts;  // met, not yet tested
  cuts.clear();
  double done = 0;  // the intervals up to this cut are tested
  const auto test_before = [&](double limit) {
    std::sort(cuts.begin(), cuts.end());
    scratch.work += cuts.size();
    std::size_t k = 0;
    for (; k < cuts.size() && cuts[k] < limit; ++k) {
      if (cuts[k] <= done) continue;
      if (inside_part(i, a + d * ((cuts[k] + done) / 2))) return true;
      done = cuts[k];
    }
    cuts.erase(cuts.begin(), cuts.begin() + static_cast<std::ptrdiff_t>(k));
    return false;
  };
  double entry = 0;
  const bool blocked = g.walk(a, d, 1, [&](std::span<const std::uint32_t> edges, double exit) {
    // Only the cuts within this cell's stretch: an edge listed along the whole segment adds
    // its cuts once or twice, not once per cell.
    scratch.work += 1 + edges.size();
    for (const std::uint32_t e : edges) {
      const Segment2 s = g.edge(e);
      add_cuts(s.a, s.b, a, d, len, tol, entry - slack, exit + slack, cuts);
    }
    entry = exit;
    return test_before(exit - slack);
  });
  if (blocked) return true;
  cuts.push_back(1);
  return test_before(2);
}

template <class F>
bool VisibilityGraph::walk_cells(Vec2 a, Vec2 b, F&& visit) const {
  return walk_grid(grid_, a, b - a, 1, [&](int x, int y, double) { return visit(grid_.index(x, y)); });
}

bool VisibilityGraph::visible(Vec2 a, Vec2 b, ProbeScratch& scratch) const {
  if (scratch.tested.size() != parts_.size()) scratch.tested.assign(parts_.size());  // not from make_scratch()
  scratch.tested.reset();
  std::uint64_t work = 1;
  // The last blocker first: blocked is blocked whichever part shows it (a part the segment
  // enters lies in a cell the walk visits), and the walk does not test it again.
  if (scratch.blocker < parts_.size()) {
    if (segment_enters(scratch.blocker, a, b, scratch)) {
      scratch.work += work;
      return false;
    }
    scratch.tested.insert(scratch.blocker);
  }
  const bool blocked = walk_cells(a, b, [&](std::size_t c) {
    work += 1 + cells_.in(c).size();
    for (const std::uint32_t part : cells_.in(c)) {
      if (scratch.tested.insert(part) && segment_enters(part, a, b, scratch)) {
        scratch.blocker = part;
        return true;
      }
    }
    return false;
  });
  scratch.work += work;
  return !blocked;
}

ProbeScratch VisibilityGraph::make_scratch() const {
  ProbeScratch s;
  s.tested.assign(parts_.size());
  // Both ends, a crossing and a touch per vertex; along an edge grid's walk, a cell's cuts and
  // those left from the cell before.
  s.cuts.reserve(4 * largest_part_ + 4);
  return s;
}

void VisibilityGraph::build_arcs() {
  const auto n = static_cast<std::uint32_t>(points_.size());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  ProbeScratch scratch = make_scratch();
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  const auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  std::uint32_t until_clock = 0;  // pairs, tests and cells before the clock is read again
  constexpr std::uint32_t tests_per_clock = 256;
  constexpr std::uint64_t start_tests = 16;  // before a row's work per test is compared
  // Above 2^32 work per test is never reached (and the product below stays in 64 bits).
  const bool by_line_at_all = params_.line_runs_above < (std::uint64_t{1} << 32);
  const std::uint64_t runs_above = by_line_at_all ? params_.line_runs_above : 0;
  const auto read_clock = [&](std::uint32_t i) {
    until_clock = tests_per_clock;
    const double t = seconds();
    if (t > params_.max_seconds)
      throw BudgetExceeded(BudgetExceeded::Limit::time, i, n, edges.size(), t,
                           "building the visibility graph took more than " + number_text(params_.max_seconds) +
                               " s (VisibilityParams::max_seconds, CLI --time-limit) after " + number_text(i) +
                               " of " + number_text(n) + " points, " + number_text(edges.size()) +
                               " edges found: raise the limit, or use fewer points or corners");
  };

  // The shadow sweep: the points, and the convex parts shrunk by the tolerance and a margin
  // above rounding, by the cells of one grid over both. Around point v, rings of cells
  // outwards; a part whose shrunk shape lies nearer than the ring casts its directions'
  // shadow (the cone from v round it), and a run of cells within one shadow is hidden: every
  // segment from v into it passes through the shrunk part (docs/visibility.md, "Shadows").
  double largest = 1;
  for (const Vec2 p : points_) largest = std::max({largest, std::abs(p.x), std::abs(p.y)});
  for (const Vec2 p : part_vertices_) largest = std::max({largest, std::abs(p.x), std::abs(p.y)});
  const double margin = params_.tolerance + shadow_rounding * largest;  // beyond the tolerance
  // A shadow shape: the shrunk part's box, centre and the radius of a circle round it there
  // (its reach from v is at most |v − centre| + radius: one square root a shape met), and its
  // corners in shadow_vertices; kept together, as the sweep meets them in any order.
  struct Shade {
    Aabb2 box;
    Vec2 centre;
    double radius = 0;
    std::uint32_t begin = 0, end = 0;
  };
  std::vector<Vec2> shadow_vertices;
  std::vector<Shade> shades;
  Aabb2 sweep_box;
  for (const Vec2 p : points_) sweep_box.expand(p);
  const bool sweep_at_all = params_.sweep_rows_above < n;
  if (sweep_at_all) {
    for (std::uint32_t i = 0; i < parts_.size(); ++i) {
      const Part& part = parts_[i];
      if (!part.convex) continue;
      // Each corner moved in along its bisector by tolerance + margin: the part's planes
      // shrunk by that much, kept only when every edge keeps its direction (none vanished).
      const double m = params_.tolerance + margin;
      const auto first = static_cast<std::uint32_t>(shadow_vertices.size());
      for (std::uint32_t k = part.begin; k < part.end; ++k) {
        const Vec2 n1 = planes_[k == part.begin ? part.end - 1 : k - 1].n, n2 = planes_[k].n;
        shadow_vertices.push_back(part_vertices_[k] - (n1 + n2) * (m / (1 + dot(n1, n2))));
      }
      const std::span<const Vec2> q(shadow_vertices.data() + first, part.end - part.begin);
      bool kept = polygon_signed_area(q) > 0;
      for (std::uint32_t k = 0; k < q.size() && kept; ++k) {
        const std::uint32_t at = part.begin + k;
        kept = dot(q[(k + 1) % q.size()] - q[k], part_vertices_[part.next(at)] - part_vertices_[at]) > 0;
      }
      if (!kept) {
        shadow_vertices.resize(first);
        continue;
      }
      Shade sh{.begin = first, .end = static_cast<std::uint32_t>(shadow_vertices.size())};
      for (const Vec2 c : q) {
        sh.box.expand(c);
        sh.centre += c;
      }
      sh.centre = sh.centre / static_cast<double>(q.size());
      for (const Vec2 c : q) sh.radius = std::max(sh.radius, distance(c, sh.centre));
      sh.radius = sh.radius * (1 + 1e-12) + margin;  // rounding of the distances
      shades.push_back(sh);
      sweep_box.expand(sh.box);
    }
  }
  const auto shadows = static_cast<std::uint32_t>(shades.size());
  const auto shadow = [&](const Shade& sh) {
    return std::span<const Vec2>(shadow_vertices.data() + sh.begin, sh.end - sh.begin);
  };
  UniformGrid sweep;
  CellLists sweep_points, sweep_shadows;
  if (shadows > 0) {
    const Vec2 size = sweep_box.size();
    const double count = static_cast<double>(n);
    sweep.side = std::max({std::sqrt(size.x * size.y * sweep_points_per_cell / count),
                           std::max(size.x, size.y) / (sweep_cells_per_point * count), sweep_min_side_margins * margin});
    sweep.origin = sweep_box.min;
    sweep.columns = static_cast<int>(size.x / sweep.side) + 1;
    sweep.rows = static_cast<int>(size.y / sweep.side) + 1;
    build_stats_.sweep_cells = sweep.cell_count();
    sweep_points.build(sweep.cell_count(), n, [&](std::size_t j, auto&& add) {
      add(sweep.index(sweep.column_of(points_[j].x), sweep.row_of(points_[j].y)));
    });
    sweep_shadows.build(sweep.cell_count(), shadows, [&](std::size_t t, auto&& add) {
      const UniformGrid::Range r = sweep.cells_of(shades[t].box.min, shades[t].box.max);
      for (int y = r.y0; y <= r.y1; ++y) {
        for (int x = r.x0; x <= r.x1; ++x) add(sweep.index(x, y));
      }
    });
  }
  // The shapes met around v, by the ring from which on they hide (their reach is then within
  // the ring's distance): one list per ring through `waiting_next`.
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> ring_first, waiting_next, waiting_shape;
  std::vector<std::pair<int, int>> cell_ranges;  // of one run: the cells to open
  DirectionSpans hidden;
  search::GenerationSet met;
  met.assign(shadows);

  // Row i: the points after i that could end an arc there (tangent at both ends), around i by
  // direction, then by distance. A point w on the segment from i to a farther point x of the
  // same row splits it: i sees x when i sees w and w sees x (the obstacles are open and w, a
  // point of visibility, lies in none; the segment test agrees but where w lies within the
  // tolerance of a concave part's boundary: docs/visibility.md), and w → x is a short
  // segment. So a run of points on one line (a comb's tooth tops, a row of boxes) costs one
  // full segment test and one short one per point, not one test passing every point before
  // it: without this, a row's tests pass O(n) corners each and the build is cubic
  // (docs/visibility.md, "Runs of points on one line").
  struct Target {
    double key = 0;  ///< direction: a pseudo-angle, equal for the exact multiples of one vector
    double distance_squared = 0;
    std::uint32_t j = 0;
  };
  std::vector<Target> row;
  std::vector<std::uint32_t> seen;
  row.reserve(n);
  seen.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const Vec2 v = points_[i];
    row.clear();
    seen.clear();
    // In the order met first; once this row's tests cost params_.line_runs_above each (on
    // average, after a start), the rest of it by direction.
    const std::uint64_t row_start = scratch.work;
    std::uint64_t tests = 0;
    const auto consider = [&](std::uint32_t j) __attribute__((always_inline)) {  // inlined: once per pair
      if (until_clock-- == 0) read_clock(i);
      if (!tangent_at(i, points_[j]) || !tangent_at(j, v)) return;
      const Vec2 d = points_[j] - v;
      if ((!row.empty() || (by_line_at_all && scratch.work - row_start >= runs_above * (tests + start_tests))) &&
          (d.x != 0 || d.y != 0)) {  // a point on v has no direction: tested below
        row.push_back({direction_key(d), dot(d, d), j});
        return;
      }
      ++tests;
      if (visible(v, points_[j], scratch)) seen.push_back(j);
    };
    const bool plain = shadows == 0 || n - i - 1 <= params_.sweep_rows_above;
    if (plain) {
      build_stats_.pairs += n - i - 1;
      for (std::uint32_t j = i + 1; j < n; ++j) consider(j);
    } else {
      // Rings of cells round v's; from ring 2 on (v then lies a cell or more outside every
      // run's box), only the cells a direction no shadow covers meets are opened, and their
      // points after i considered.
      ++build_stats_.swept_rows;
      hidden.clear();
      met.reset();
      const int cx = sweep.column_of(v.x), cy = sweep.row_of(v.y);
      const int rings = std::max({cx, sweep.columns - 1 - cx, cy, sweep.rows - 1 - cy});
      ring_first.assign(static_cast<std::size_t>(rings) + 1, none);
      waiting_next.clear();
      waiting_shape.clear();
      int ring = 0;  // the ring being swept
      const auto open_cell = [&](int x, int y) {
        if (until_clock-- == 0) read_clock(i);
        const std::size_t c = sweep.index(x, y);
        ++build_stats_.cells_opened;
        for (const std::uint32_t j : sweep_points.in(c)) {
          if (j <= i) continue;
          ++build_stats_.pairs;
          consider(j);
        }
        for (const std::uint32_t t : sweep_shadows.in(c)) {
          if (!met.insert(t)) continue;
          // The first ring k with (k − 1)·side − margin >= the reach, after this one.
          const double reach = distance(v, shades[t].centre) + shades[t].radius;
          const double from = std::ceil((reach + margin) / sweep.side) + 1;
          if (!(from <= rings)) continue;  // within no ring of the grid
          int k = std::max(static_cast<int>(from), ring + 1);
          if ((k - 1) * sweep.side - margin < reach) ++k;  // rounding
          if (k > rings) continue;
          waiting_shape.push_back(t);
          waiting_next.push_back(ring_first[static_cast<std::size_t>(k)]);
          ring_first[static_cast<std::size_t>(k)] = static_cast<std::uint32_t>(waiting_shape.size() - 1);
        }
      };
      // A shape within reach hides the cone from v round it, unless its part's box's cone is
      // hidden already, or v is not outside it by more than rounding (v lies outside the part
      // shrunk by the tolerance alone, so that is only rounding).
      const auto cast = [&](std::uint32_t t) {
        const Shade& sh = shades[t];
        if (!sh.box.contains(v)) {
          const auto [lo, hi] = box_cone(v, sh.box.min, sh.box.max);
          if (hidden.covers(lo, hi)) return;
        }
        // v beyond one of its edges' lines, by the margin less rounding at least.
        const std::span<const Vec2> q = shadow(sh);
        bool outside = false;
        for (std::size_t k = 0, prev = q.size() - 1; k < q.size() && !outside; prev = k++) {
          outside = cross(q[k] - q[prev], v - q[prev]) < 0;
        }
        if (!outside) return;
        const auto [lo, hi] = cone_of(v, q);
        hidden.add(lo, hi);
      };
      // A run of cells along one row or column, from (x0, y0) to (x1, y1), a cell or more
      // away from v's: the stretches of its directions that no hidden span covers, each
      // turned into the cells it crosses (widened by the margin, for rounding); the others
      // are hidden.
      const auto visit_run = [&](int x0, int y0, int x1, int y1) {
        if (hidden.empty()) {
          for (int y = y0; y <= y1; ++y) {
            for (int x = x0; x <= x1; ++x) open_cell(x, y);
          }
          return;
        }
        const Vec2 lo = sweep.cell_min(x0, y0) - Vec2{margin, margin};
        const Vec2 hi = sweep.cell_min(x1 + 1, y1 + 1) + Vec2{margin, margin};
        const bool along_x = y0 == y1;
        const int first = along_x ? x0 : y0, last = along_x ? x1 : y1;
        // Along a row the band lies above or below v, and a direction d meets it at
        // x = v.x + d.x (y − v.y) / d.y, monotone in the key and in y: the stretch's cells lie
        // between its four corners' (and likewise along a column).
        const double band_a = along_x ? lo.y : lo.x, band_b = along_x ? hi.y : hi.x;
        const double v_across = along_x ? v.y : v.x, v_along = along_x ? v.x : v.y;
        const double origin_along = along_x ? sweep.origin.x : sweep.origin.y;
        const auto along = [&](double key, double band) {
          const Vec2 d = key_direction(key);
          return v_along + (along_x ? d.x : d.y) * (band - v_across) / (along_x ? d.y : d.x);
        };
        cell_ranges.clear();
        const auto stretch = [&](double g0, double g1) {
          const double p = along(g0, band_a), q = along(g0, band_b), r = along(g1, band_a), t = along(g1, band_b);
          // Rounding of the key's direction and the crossing: far below the margin.
          const double c0 = std::floor((std::min({p, q, r, t}) - margin - origin_along) / sweep.side);
          const double c1 = std::floor((std::max({p, q, r, t}) + margin - origin_along) / sweep.side);
          if (!(c0 <= c1)) {  // NaN: a direction along the band (not met in exact arithmetic)
            cell_ranges.push_back({first, last});
            return;
          }
          cell_ranges.push_back({static_cast<int>(std::clamp(c0, double(first), double(last))),
                                 static_cast<int>(std::clamp(c1, double(first), double(last)))});
        };
        const auto [a, b] = box_cone(v, lo, hi);
        if (a <= b) {
          hidden.for_each_gap(a, b, stretch);
        } else {  // across +x
          hidden.for_each_gap(a, 4, stretch);
          hidden.for_each_gap(0, b, stretch);
        }
        if (cell_ranges.empty()) return;
        std::sort(cell_ranges.begin(), cell_ranges.end());
        int next = first;  // cells before it are opened
        for (const auto& [c0, c1] : cell_ranges) {
          for (int c = std::max(c0, next); c <= c1; ++c) along_x ? open_cell(c, y0) : open_cell(x0, c);
          next = std::max(next, c1 + 1);
        }
      };
      for (int k = 0; k <= rings; ++k) {
        ring = k;
        if (k < 2) {
          for_ring(cx, cy, k, sweep.columns, sweep.rows, open_cell);
          continue;
        }
        // Shapes within the distance of ring k (a cell or more away from v's cell) hide
        // what lies behind them in this ring and beyond.
        for (std::uint32_t w = ring_first[static_cast<std::size_t>(k)]; w != none; w = waiting_next[w]) cast(waiting_shape[w]);
        if (hidden.full()) break;
        const int x0 = std::max(cx - k, 0), x1 = std::min(cx + k, sweep.columns - 1);
        for (const int y : {cy - k, cy + k}) {
          if (y >= 0 && y < sweep.rows) visit_run(x0, y, x1, y);
        }
        const int y0 = std::max(cy - k + 1, 0), y1 = std::min(cy + k - 1, sweep.rows - 1);
        for (const int x : {cx - k, cx + k}) {
          if (x >= 0 && x < sweep.columns && y0 <= y1) visit_run(x, y0, x, y1);
        }
      }
    }
    std::sort(row.begin(), row.end(), [](const Target& a, const Target& b) {
      return a.key < b.key || (a.key == b.key && a.distance_squared < b.distance_squared);
    });
    bool last_seen = false;
    for (std::size_t k = 0; k < row.size(); ++k) {
      if (until_clock-- == 0) read_clock(i);
      const Vec2 w = points_[row[k].j];
      if (k > 0 && lies_before(points_[row[k - 1].j] - v, w - v, params_.tolerance)) {
        last_seen = last_seen && visible(points_[row[k - 1].j], w, scratch);
      } else {
        last_seen = visible(v, w, scratch);
      }
      ++tests;
      if (last_seen) seen.push_back(row[k].j);
    }
    build_stats_.segment_tests += tests;
    if (!plain || !row.empty()) std::sort(seen.begin(), seen.end());  // else found in order
    for (const std::uint32_t j : seen) {
      if (edges.size() >= params_.max_edges)
        throw BudgetExceeded(BudgetExceeded::Limit::edges, i, n, edges.size(), seconds(),
                             "the visibility graph has more than " + number_text(params_.max_edges) +
                                 " edges (VisibilityParams::max_edges, CLI --max-edges) after " + number_text(i) +
                                 " of " + number_text(n) + " points: raise the limit, or use fewer points");
      edges.emplace_back(i, j);
    }
  }
  build_stats_.seconds = seconds();
  arc_begin_.assign(n + 1, 0);
  for (const auto& [i, j] : edges) {
    ++arc_begin_[i + 1];
    ++arc_begin_[j + 1];
  }
  for (std::uint32_t i = 0; i < n; ++i) arc_begin_[i + 1] += arc_begin_[i];
  arcs_.resize(edges.size() * 2);
  std::vector<std::uint32_t> fill(arc_begin_.begin(), arc_begin_.end() - 1);
  for (const auto& [i, j] : edges) {
    const Cost c = distance(points_[i], points_[j]);
    arcs_[fill[i]++] = {j, c};
    arcs_[fill[j]++] = {i, c};
  }
}

std::size_t VisibilityGraph::memory_bytes() const {
  std::size_t grids = edge_grids_.capacity() * sizeof(PolygonEdgeGrid);
  for (const PolygonEdgeGrid& g : edge_grids_) grids += g.memory_bytes();
  return grids + obstacle_vertices_.capacity() * sizeof(Vec2) + obstacle_begin_.capacity() * sizeof(std::uint32_t) +
         parts_.capacity() * sizeof(Part) + part_vertices_.capacity() * sizeof(Vec2) + planes_.capacity() * sizeof(Plane) +
         cells_.memory_bytes() + points_.capacity() * sizeof(Vec2) +
         corners_.capacity() * sizeof(Corner) + arc_begin_.capacity() * sizeof(std::uint32_t) +
         arcs_.capacity() * sizeof(VisibilityArc);
}

}  // namespace waymark::visibility
