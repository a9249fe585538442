#include "waymark/steer/obstacle_world.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "waymark/core/clip.hpp"
#include "waymark/core/grid_walk.hpp"
#include "waymark/grid/grid_map.hpp"

namespace waymark::steer {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr std::uint32_t no_entry = std::numeric_limits<std::uint32_t>::max();
/// The fewest broad-phase cells the world may use before it widens them.
constexpr double min_cell_cap = 65536;
/// Cells per collider the broad phase may use before it widens them.
constexpr double cells_per_collider = 16;
/// A rebuild pads the covered box by this share of its extent on every side, so a world
/// growing outwards rebuilds O(log n) times.
constexpr double cover_padding = 0.125;
/// Cell-edge crossings are computed to a few ulps; the ray walk looks this far (× the cell
/// side) past where it could stop, so rounding never hides a hit in the next cell.
constexpr double walk_slack = 1e-9;

/// A hit of one shape: the distance along the unit direction and the normal facing the ray.
struct Hit {
  double t = 0;
  Vec2 normal;
};

Vec2 perp(Vec2 v) { return {-v.y, v.x}; }
/// `v` in the frame whose x axis is `axis` (unit), and back.
Vec2 to_local(Vec2 v, Vec2 axis) { return {dot(v, axis), dot(v, perp(axis))}; }
Vec2 to_world(Vec2 v, Vec2 axis) { return axis * v.x + perp(axis) * v.y; }

// ---- rays against one shape (unit direction d) ----------------------------------------------

bool ray_circle(const Circle& c, Vec2 o, Vec2 d, Hit& h) {
  const Vec2 m = o - c.centre;
  const double b = dot(m, d);
  const double cc = dot(m, m) - c.radius * c.radius;
  if (cc < 0) {
    h = {0, -d};
    return true;
  }
  if (b >= 0) return false;  // on or outside the circle, heading away or along it
  const double disc = b * b - cc;
  if (disc < 0) return false;
  // The smaller root as cc / (larger root): no cancellation when the origin is near the rim.
  h.t = cc / (-b + std::sqrt(disc));
  h.normal = normalized(m + d * h.t);
  if (h.normal == Vec2{}) h.normal = -d;  // a circle of radius 0
  return true;
}

/// Slab test against the closed box [lo, hi].
bool ray_box(Vec2 lo, Vec2 hi, Vec2 o, Vec2 d, Hit& h) {
  if (o.x > lo.x && o.x < hi.x && o.y > lo.y && o.y < hi.y) {
    h = {0, -d};
    return true;
  }
  double t_in = -infinity, t_out = infinity;
  Vec2 n;
  if (d.x == 0) {
    if (o.x < lo.x || o.x > hi.x) return false;
  } else {
    const bool forward = d.x > 0;
    t_in = ((forward ? lo.x : hi.x) - o.x) / d.x;
    t_out = ((forward ? hi.x : lo.x) - o.x) / d.x;
    n = {forward ? -1.0 : 1.0, 0.0};
  }
  if (d.y == 0) {
    if (o.y < lo.y || o.y > hi.y) return false;
  } else {
    const bool forward = d.y > 0;
    const double t0 = ((forward ? lo.y : hi.y) - o.y) / d.y;
    const double t1 = ((forward ? hi.y : lo.y) - o.y) / d.y;
    if (t0 > t_in) {
      t_in = t0;
      n = {0.0, forward ? -1.0 : 1.0};
    }
    t_out = std::min(t_out, t1);
  }
  // t_in < 0: the origin is on the surface heading out, or the box is behind.
  if (!(t_in >= 0) || t_in > t_out) return false;
  h = {t_in, n};
  return true;
}

bool ray_oriented_box(const OrientedBox& b, Vec2 axis, Vec2 o, Vec2 d, Hit& h) {
  const Vec2 local = to_local(o - b.centre, axis);
  if (std::abs(local.x) < b.half_extents.x && std::abs(local.y) < b.half_extents.y) {
    h = {0, -d};
    return true;
  }
  if (!ray_box(-b.half_extents, b.half_extents, local, to_local(d, axis), h)) return false;
  h.normal = to_world(h.normal, axis);
  return true;
}

/// A wall without thickness, hit from either side; touching at the origin counts.
bool ray_segment(Vec2 a, Vec2 b, Vec2 o, Vec2 d, Hit& h) {
  const Vec2 e = b - a, ao = a - o;
  const double denom = cross(d, e);
  if (denom == 0) {
    if (cross(ao, d) != 0) return false;  // parallel and apart
    // Along the segment's line: its nearest point at or ahead of the origin.
    const double ta = dot(ao, d), tb = dot(b - o, d);
    if (ta < 0 && tb < 0) return false;
    h = {std::max(0.0, std::min(ta, tb)), -d};
    return true;
  }
  const double t = cross(ao, e) / denom;
  const double u = cross(ao, d) / denom;
  if (!(t >= 0 && u >= 0 && u <= 1)) return false;
  h.t = t;
  h.normal = normalized(perp(e));
  if (dot(h.normal, d) > 0) h.normal = -h.normal;
  return true;
}

bool ray_polygon(const Polygon& p, double orientation, Vec2 o, Vec2 d, Hit& h) {
  if (polygon_contains(p.corners, o)) {
    h = {0, -d};
    return true;
  }
  bool found = false;
  const std::size_t n = p.corners.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 a = p.corners[j], b = p.corners[i];
    // Only edges the ray enters through: from outside the first crossing is one, and an
    // origin on the boundary heading out hits nothing.
    const Vec2 outward = Vec2{b.y - a.y, a.x - b.x} * orientation;
    if (orientation != 0 && dot(outward, d) >= 0) continue;
    Hit edge;
    if (ray_segment(a, b, o, d, edge) && (!found || edge.t < h.t)) {
      h = edge;
      found = true;
    }
  }
  return found;
}

bool ray_shape(const Shape& shape, Vec2 axis, double orientation, Vec2 o, Vec2 d, Hit& h) {
  switch (shape.index()) {
    case 0: return ray_circle(*std::get_if<Circle>(&shape), o, d, h);
    case 1: {
      const Box& b = *std::get_if<Box>(&shape);
      return ray_box(b.min, b.max, o, d, h);
    }
    case 2: return ray_oriented_box(*std::get_if<OrientedBox>(&shape), axis, o, d, h);
    case 3: return ray_polygon(*std::get_if<Polygon>(&shape), orientation, o, d, h);
    default: {
      const Segment2& s = *std::get_if<Segment2>(&shape);
      return ray_segment(s.a, s.b, o, d, h);
    }
  }
}

// ---- distances and disc contacts --------------------------------------------------------------

/// Separation of a disc from a solid: `depth` > 0 is an overlap.
struct Push {
  Vec2 normal;
  double depth = 0;
};

double box_distance(Vec2 lo, Vec2 hi, Vec2 p) {
  const double dx = std::max({lo.x - p.x, 0.0, p.x - hi.x});
  const double dy = std::max({lo.y - p.y, 0.0, p.y - hi.y});
  return std::sqrt(dx * dx + dy * dy);
}

/// The disc (centre c, radius r) against the closed box [lo, hi].
Push box_push(Vec2 lo, Vec2 hi, Vec2 c, double r) {
  const Vec2 q{std::clamp(c.x, lo.x, hi.x), std::clamp(c.y, lo.y, hi.y)};
  if (q != c) {
    const double dist = distance(c, q);
    return {(c - q) / dist, r - dist};
  }
  // Inside: out through the nearest face.
  const double faces[4] = {c.x - lo.x, hi.x - c.x, c.y - lo.y, hi.y - c.y};
  const Vec2 normals[4] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  const auto nearest = static_cast<std::size_t>(std::min_element(faces, faces + 4) - faces);
  return {normals[nearest], r + faces[nearest]};
}

/// The polygon's nearest boundary point to `p`, and the edge it lies on (its start corner).
struct NearestEdge {
  Vec2 point;
  double distance = infinity;
  std::size_t edge = 0;
};
NearestEdge nearest_edge(const Polygon& p, Vec2 c) {
  NearestEdge best;
  double best_sq = infinity;
  const std::size_t n = p.corners.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 q = Segment2{p.corners[j], p.corners[i]}.closest_point(c);
    const double sq = length_squared(c - q);
    if (sq < best_sq) {
      best_sq = sq;
      best.point = q;
      best.edge = j;
    }
  }
  best.distance = std::sqrt(best_sq);
  return best;
}

/// The unit normal of the edge from corner `edge` pointing out of the polygon (left of the
/// edge for a degenerate one).
Vec2 outward_normal(const Polygon& p, double orientation, std::size_t edge) {
  const Vec2 a = p.corners[edge], b = p.corners[(edge + 1) % p.corners.size()];
  const Vec2 n = normalized(Vec2{b.y - a.y, a.x - b.x} * (orientation != 0 ? orientation : -1.0));
  return n == Vec2{} ? Vec2{1, 0} : n;
}

double shape_distance(const Shape& shape, Vec2 axis, Vec2 p) {
  switch (shape.index()) {
    case 0: {
      const Circle& c = *std::get_if<Circle>(&shape);
      return std::max(0.0, distance(p, c.centre) - c.radius);
    }
    case 1: {
      const Box& b = *std::get_if<Box>(&shape);
      return box_distance(b.min, b.max, p);
    }
    case 2: {
      const OrientedBox& b = *std::get_if<OrientedBox>(&shape);
      return box_distance(-b.half_extents, b.half_extents, to_local(p - b.centre, axis));
    }
    case 3: {
      const Polygon& poly = *std::get_if<Polygon>(&shape);
      return polygon_contains(poly.corners, p) ? 0.0 : nearest_edge(poly, p).distance;
    }
    default: return std::get_if<Segment2>(&shape)->distance_to(p);
  }
}

Push shape_push(const Shape& shape, Vec2 axis, double orientation, Vec2 c, double r) {
  switch (shape.index()) {
    case 0: {
      const Circle& circle = *std::get_if<Circle>(&shape);
      const Vec2 m = c - circle.centre;
      const double len = length(m);
      return {len > 0 ? m / len : Vec2{1, 0}, r + circle.radius - len};
    }
    case 1: {
      const Box& b = *std::get_if<Box>(&shape);
      return box_push(b.min, b.max, c, r);
    }
    case 2: {
      const OrientedBox& b = *std::get_if<OrientedBox>(&shape);
      Push push = box_push(-b.half_extents, b.half_extents, to_local(c - b.centre, axis), r);
      push.normal = to_world(push.normal, axis);
      return push;
    }
    case 3: {
      const Polygon& poly = *std::get_if<Polygon>(&shape);
      const NearestEdge e = nearest_edge(poly, c);
      const bool inside = polygon_contains(poly.corners, c);
      if (e.distance == 0) return {outward_normal(poly, orientation, e.edge), r};
      if (inside) return {(e.point - c) / e.distance, r + e.distance};
      return {(c - e.point) / e.distance, r - e.distance};
    }
    default: {
      const Segment2& s = *std::get_if<Segment2>(&shape);
      const Vec2 q = s.closest_point(c);
      const double dist = distance(c, q);
      if (dist > 0) return {(c - q) / dist, r - dist};
      const Vec2 side = normalized(perp(s.direction()));
      return {side == Vec2{} ? Vec2{1, 0} : side, r};
    }
  }
}

// ---- validation ----------------------------------------------------------------------------

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("ObstacleWorld: " + what); }

bool sane(double v) { return std::isfinite(v) && std::abs(v) <= ObstacleWorld::max_coordinate; }
bool sane(Vec2 v) { return sane(v.x) && sane(v.y); }

void check_layer(int layer) {
  if (layer < 0 || layer >= layer_count) refuse("layer " + std::to_string(layer) + " is not in 0-31");
}

ColliderRef shape_ref(std::uint32_t id) { return {ColliderRef::Kind::shape, ColliderId{id}, CellId{}}; }
ColliderRef cell_ref(CellId cell) { return {ColliderRef::Kind::cell, ColliderId{}, cell}; }

}  // namespace

/// The nearest hit so far; hits beyond `limit` (max_distance, then the nearest hit's
/// distance) are ignored.
struct ObstacleWorld::Best {
  double limit;
  bool found = false;
  RayHit hit{};

  void offer(double t, Vec2 point, Vec2 normal, ColliderRef ref) {
    if (!(t <= limit)) return;
    limit = t;
    found = true;
    hit = {point, normal, t, ref};
  }
};

ObstacleWorld::ObstacleWorld(ObstacleWorldParams params) : params_(params) {
  if (!(params.broad_phase_cell > 0 && params.broad_phase_cell <= max_coordinate)) {
    refuse("broad_phase_cell must be > 0 and finite");
  }
  if (params.max_cells_per_collider < 1) refuse("max_cells_per_collider must be >= 1");
}

ColliderId ObstacleWorld::add(Shape shape, int layer) {
  check_layer(layer);
  if (shapes_.size() >= no_entry - 1) refuse("too many colliders");
  Bounds b;
  Prepared prep;
  switch (shape.index()) {
    case 0: {
      const Circle& c = *std::get_if<Circle>(&shape);
      if (!sane(c.centre) || !sane(c.radius)) refuse("circle with non-finite values");
      if (c.radius < 0) refuse("circle with a negative radius");
      b = {c.centre - Vec2{c.radius, c.radius}, c.centre + Vec2{c.radius, c.radius}};
      break;
    }
    case 1: {
      const Box& box = *std::get_if<Box>(&shape);
      if (!sane(box.min) || !sane(box.max)) refuse("box with non-finite corners");
      if (box.max.x < box.min.x || box.max.y < box.min.y) refuse("box with a negative extent");
      b = {box.min, box.max};
      break;
    }
    case 2: {
      const OrientedBox& box = *std::get_if<OrientedBox>(&shape);
      if (!sane(box.centre) || !sane(box.half_extents) || !std::isfinite(box.angle)) {
        refuse("oriented box with non-finite values");
      }
      if (box.half_extents.x < 0 || box.half_extents.y < 0) refuse("oriented box with a negative extent");
      prep.axis = {std::cos(box.angle), std::sin(box.angle)};
      const Vec2 reach{std::abs(prep.axis.x) * box.half_extents.x + std::abs(prep.axis.y) * box.half_extents.y,
                       std::abs(prep.axis.y) * box.half_extents.x + std::abs(prep.axis.x) * box.half_extents.y};
      b = {box.centre - reach, box.centre + reach};
      break;
    }
    case 3: {
      const Polygon& poly = *std::get_if<Polygon>(&shape);
      if (poly.corners.size() < 3) refuse("polygon with fewer than 3 corners");
      b = {poly.corners[0], poly.corners[0]};
      for (const Vec2 c : poly.corners) {
        if (!sane(c)) refuse("polygon with non-finite corners");
        b.min = {std::min(b.min.x, c.x), std::min(b.min.y, c.y)};
        b.max = {std::max(b.max.x, c.x), std::max(b.max.y, c.y)};
      }
      const double area = polygon_signed_area(poly.corners);
      prep.orientation = area > 0 ? 1.0 : area < 0 ? -1.0 : 0.0;
      break;
    }
    default: {
      const Segment2& s = *std::get_if<Segment2>(&shape);
      if (!sane(s.a) || !sane(s.b)) refuse("segment with non-finite ends");
      b = {{std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y)}, {std::max(s.a.x, s.b.x), std::max(s.a.y, s.b.y)}};
      break;
    }
  }

  const auto id = static_cast<std::uint32_t>(shapes_.size());
  shapes_.push_back(std::move(shape));
  layers_.push_back(static_cast<std::uint8_t>(layer));
  bounds_.push_back(b);
  prepared_.push_back(prep);
  ranges_.push_back({});

  // Large at the requested cell side: kept off the grid whatever side the grid ends up with,
  // so one huge wall neither floods the cells nor stretches the covered box.
  const double span = ((b.max.x - b.min.x) / params_.broad_phase_cell + 1) *
                      ((b.max.y - b.min.y) / params_.broad_phase_cell + 1);
  if (span > static_cast<double>(params_.max_cells_per_collider)) {
    prepared_.back().large = true;
    large_.push_back(id);
    return ColliderId{id};
  }
  const bool fits = !cells_.empty() && b.min.x >= cells_.origin.x && b.min.y >= cells_.origin.y &&
                    b.max.x <= cells_.origin.x + cells_.columns * cells_.side && b.max.y <= cells_.origin.y + cells_.rows * cells_.side;
  // Cells widened for a few far-flung colliders are narrowed again as colliders arrive.
  const bool coarse = cells_.side > params_.broad_phase_cell && shapes_.size() >= 2 * built_for_;
  if (fits && !coarse) {
    occupied_ = occupied_.min.x > occupied_.max.x
                    ? b
                    : Bounds{{std::min(occupied_.min.x, b.min.x), std::min(occupied_.min.y, b.min.y)},
                             {std::max(occupied_.max.x, b.max.x), std::max(occupied_.max.y, b.max.y)}};
    insert(id);
  } else {
    rebuild();
  }
  return ColliderId{id};
}

void ObstacleWorld::set_grid(const grid::GridMap* map, int layer) {
  check_layer(layer);
  grid_ = map;
  grid_layer_ = layer;
}

void ObstacleWorld::insert(std::uint32_t id) {
  const CellRange r = cells_of(bounds_[id]);
  ranges_[id] = r;
  for (int y = r.y0; y <= r.y1; ++y) {
    for (int x = r.x0; x <= r.x1; ++x) {
      const std::size_t cell = cells_.index(x, y);
      entries_.push_back({id, heads_[cell]});
      heads_[cell] = static_cast<std::uint32_t>(entries_.size() - 1);
    }
  }
}

void ObstacleWorld::rebuild() {
  // The gridded shapes' union (the last one added is one of them).
  Bounds tight{{infinity, infinity}, {-infinity, -infinity}};
  for (std::size_t i = 0; i < shapes_.size(); ++i) {
    if (prepared_[i].large) continue;
    const Bounds& b = bounds_[i];
    tight = {{std::min(tight.min.x, b.min.x), std::min(tight.min.y, b.min.y)},
             {std::max(tight.max.x, b.max.x), std::max(tight.max.y, b.max.y)}};
  }
  occupied_ = tight;
  const Vec2 extent = tight.max - tight.min;
  const Vec2 pad{std::max(extent.x * cover_padding, params_.broad_phase_cell),
                 std::max(extent.y * cover_padding, params_.broad_phase_cell)};
  cells_.origin = tight.min - pad;
  const Vec2 cover = extent + pad * 2;
  const double cap = std::max(min_cell_cap, cells_per_collider * static_cast<double>(shapes_.size()));
  cells_.side = params_.broad_phase_cell;
  while (std::ceil(cover.x / cells_.side) * std::ceil(cover.y / cells_.side) > cap) cells_.side *= 2;
  cells_.columns = static_cast<int>(std::ceil(cover.x / cells_.side));
  cells_.rows = static_cast<int>(std::ceil(cover.y / cells_.side));
  built_for_ = shapes_.size();

  heads_.assign(cells_.cell_count(), no_entry);
  entries_.clear();
  for (std::uint32_t i = 0; i < shapes_.size(); ++i) {
    if (!prepared_[i].large) insert(i);
  }
}

void ObstacleWorld::test_shape(std::uint32_t id, Vec2 o, Vec2 d, Best& best) const {
  const Shape& shape = shapes_[id];
  if (shape.index() == 3) {  // polygons: their bounds first, the edges only when the ray gets there
    const Bounds& b = bounds_[id];
    double t0 = 0, t1 = best.limit;
    if (!clip_to_box(o, d, b.min, b.max, t0, t1)) return;
  }
  Hit h;
  if (ray_shape(shape, prepared_[id].axis, prepared_[id].orientation, o, d, h)) {
    best.offer(h.t, h.t == 0 ? o : o + d * h.t, h.normal, shape_ref(id));
  }
}

void ObstacleWorld::raycast_shapes(Vec2 o, Vec2 d, LayerMask mask, Best& best) const {
  for (const std::uint32_t id : large_) {
    if (mask & layer_bit(layers_[id])) test_shape(id, o, d, best);
  }
  if (cells_.empty()) return;
  const double slack = walk_slack * cells_.side;
  double t0 = 0, t1 = best.limit;
  if (!clip_to_box(o, d, occupied_.min - Vec2{slack, slack}, occupied_.max + Vec2{slack, slack}, t0, t1)) return;

  // The broad-phase cells from where the ray enters the occupied box.
  const Vec2 start = o + d * std::max(0.0, t0 - slack);
  CellWalk walk(cells_.origin, cells_.side, o, d, cells_.column_of(start.x), cells_.row_of(start.y));
  int px = -1, py = -1;  // the cell visited before this one
  for (;;) {
    for (std::uint32_t e = heads_[cells_.index(walk.x(), walk.y())]; e != no_entry; e = entries_[e].next) {
      const std::uint32_t id = entries_[e].shape;
      if (!(mask & layer_bit(layers_[id]))) continue;
      // A shape that also covers the cell before was tested there (or in the one before that).
      if (ranges_[id].contains(px, py)) continue;
      test_shape(id, o, d, best);
    }
    if (walk.exit() > std::min(best.limit, t1) + slack) return;
    px = walk.x();
    py = walk.y();
    walk.step();
    if (walk.x() < 0 || walk.x() >= cells_.columns || walk.y() < 0 || walk.y() >= cells_.rows) return;
  }
}

void ObstacleWorld::raycast_grid(Vec2 o, Vec2 d, Best& best) const {
  const grid::GridMap& map = *grid_;
  const double s = map.cell_size();
  const Vec2 origin = map.params().origin;
  const double u = (o.x - origin.x) / s, v = (o.y - origin.y) / s;
  // The cell the ray is in just after the origin: on a cell edge, the one it heads into.
  const double fx = d.x < 0 ? std::ceil(u) - 1 : std::floor(u);
  const double fy = d.y < 0 ? std::ceil(v) - 1 : std::floor(v);
  if (!(fx >= 0 && fy >= 0 && fx < map.width() && fy < map.height())) {
    best.offer(0, o, -d, cell_ref(CellId{}));
    return;
  }
  const int ix = static_cast<int>(fx), iy = static_cast<int>(fy);
  if (!map.passable(ix, iy)) {
    best.offer(0, o, -d, cell_ref(map.cell(ix, iy)));
    return;
  }
  CellWalk walk(origin, s, o, d, ix, iy);
  for (;;) {
    if (std::max(walk.exit(), 0.0) > best.limit) return;
    const CellWalk::Step step = walk.step();
    const double t = std::max(step.t, 0.0);
    const Vec2 point = step.across_x ? Vec2{step.border, o.y + d.y * t} : Vec2{o.x + d.x * t, step.border};
    const Vec2 normal = step.across_x ? Vec2{static_cast<double>(-walk.step_x()), 0.0}
                                      : Vec2{0.0, static_cast<double>(-walk.step_y())};
    if (!map.in_bounds(walk.x(), walk.y())) {
      best.offer(t, point, normal, cell_ref(CellId{}));  // the map's border
      return;
    }
    const CellId cell = map.cell(walk.x(), walk.y());
    if (!map.passable(cell)) {
      best.offer(t, point, normal, cell_ref(cell));
      return;
    }
  }
}

std::optional<RayHit> ObstacleWorld::raycast(Vec2 origin, Vec2 direction, double max_distance, LayerMask mask) const {
  const double len = length(direction);
  if (!(len > 0) || !std::isfinite(len) || !(max_distance >= 0) || !std::isfinite(origin.x) ||
      !std::isfinite(origin.y)) {
    return std::nullopt;
  }
  const Vec2 d = direction / len;
  Best best{max_distance};
  raycast_shapes(origin, d, mask, best);
  if (grid_ != nullptr && (mask & layer_bit(grid_layer_))) raycast_grid(origin, d, best);
  if (!best.found) return std::nullopt;
  return best.hit;
}

std::size_t ObstacleWorld::disc_contacts(Vec2 c, double radius, LayerMask mask, std::vector<Contact>& out) const {
  out.clear();
  if (!(radius > 0) || !std::isfinite(radius) || !std::isfinite(c.x) || !std::isfinite(c.y)) return 0;
  const Vec2 reach{radius, radius};
  const auto consider = [&](std::uint32_t id) {
    const Bounds& b = bounds_[id];
    if (b.min.x >= c.x + radius || b.max.x <= c.x - radius || b.min.y >= c.y + radius || b.max.y <= c.y - radius) return;
    const Push p = shape_push(shapes_[id], prepared_[id].axis, prepared_[id].orientation, c, radius);
    if (p.depth > 0) out.push_back({p.normal, p.depth, shape_ref(id)});
  };
  for (const std::uint32_t id : large_) {
    if (mask & layer_bit(layers_[id])) consider(id);
  }
  if (!cells_.empty() && occupied_.min.x < c.x + radius && occupied_.max.x > c.x - radius &&
      occupied_.min.y < c.y + radius && occupied_.max.y > c.y - radius) {
    const CellRange q = cells_of({c - reach, c + reach});
    for (int y = q.y0; y <= q.y1; ++y) {
      for (int x = q.x0; x <= q.x1; ++x) {
        for (std::uint32_t e = heads_[cells_.index(x, y)]; e != no_entry; e = entries_[e].next) {
          const std::uint32_t id = entries_[e].shape;
          if (!(mask & layer_bit(layers_[id]))) continue;
          // Each shape once: in the first of its cells the query rectangle visits.
          const CellRange& r = ranges_[id];
          if (x != std::max(r.x0, q.x0) || y != std::max(r.y0, q.y0)) continue;
          consider(id);
        }
      }
    }
  }

  if (grid_ == nullptr || !(mask & layer_bit(grid_layer_))) return out.size();
  const grid::GridMap& map = *grid_;
  const double s = map.cell_size();
  const Vec2 lo = map.params().origin;
  const Vec2 hi = lo + Vec2{map.width() * s, map.height() * s};
  // Outside the map: the half-planes beyond its four sides.
  const double inward[4] = {c.x - lo.x, hi.x - c.x, c.y - lo.y, hi.y - c.y};
  const Vec2 normals[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  for (int i = 0; i < 4; ++i) {
    if (inward[i] < radius) out.push_back({normals[i], radius - inward[i], cell_ref(CellId{})});
  }
  const auto index = [&](double w, double o, int n) {
    return static_cast<int>(std::clamp(std::floor((w - o) / s), 0.0, static_cast<double>(n - 1)));
  };
  if (c.x + radius <= lo.x || c.x - radius >= hi.x || c.y + radius <= lo.y || c.y - radius >= hi.y) return out.size();
  const int x0 = index(c.x - radius, lo.x, map.width()), x1 = index(c.x + radius, lo.x, map.width());
  const int y0 = index(c.y - radius, lo.y, map.height()), y1 = index(c.y + radius, lo.y, map.height());
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const CellId cell = map.cell(x, y);
      if (map.passable(cell)) continue;
      const Vec2 cell_lo = lo + Vec2{x * s, y * s};
      const Push p = box_push(cell_lo, cell_lo + Vec2{s, s}, c, radius);
      if (p.depth > 0) out.push_back({p.normal, p.depth, cell_ref(cell)});
    }
  }
  return out.size();
}

double ObstacleWorld::clearance(Vec2 p, double max_distance, LayerMask mask) const {
  if (!(max_distance > 0) || !std::isfinite(p.x) || !std::isfinite(p.y)) return 0;
  double best = max_distance;

  if (grid_ != nullptr && (mask & layer_bit(grid_layer_))) {
    const grid::GridMap& map = *grid_;
    const std::optional<grid::CellCoord> at = map.world_to_cell(p);
    if (!at || !map.passable(at->x, at->y)) return 0;
    const double s = map.cell_size();
    const Vec2 lo = map.params().origin;
    best = std::min({best, p.x - lo.x, lo.x + map.width() * s - p.x, p.y - lo.y, lo.y + map.height() * s - p.y});
    const UniformGrid map_cells{lo, s, map.width(), map.height()};
    for (int k = 1; ring_bound(map_cells, p, at->x, at->y, k) < best; ++k) {
      for_ring(at->x, at->y, k, map.width(), map.height(), [&](int x, int y) {
        if (map.passable(x, y)) return;
        const Vec2 cell_lo = lo + Vec2{x * s, y * s};
        best = std::min(best, box_distance(cell_lo, cell_lo + Vec2{s, s}, p));
      });
    }
  }

  const auto consider = [&](std::uint32_t id) {
    const Bounds& b = bounds_[id];
    if (box_distance(b.min, b.max, p) >= best) return;
    best = std::min(best, shape_distance(shapes_[id], prepared_[id].axis, p));
  };
  for (const std::uint32_t id : large_) {
    if (best > 0 && (mask & layer_bit(layers_[id]))) consider(id);
  }
  if (cells_.empty() || box_distance(occupied_.min, occupied_.max, p) >= best) return best;
  // Rings of broad-phase cells around p's cell (clamped onto the grid) until the next ring
  // lies farther than the nearest solid found.
  const int cx = cells_.column_of(p.x), cy = cells_.row_of(p.y);
  for (int k = 0; best > 0 && (k == 0 || ring_bound(cells_, p, cx, cy, k) < best); ++k) {
    for_ring(cx, cy, k, cells_.columns, cells_.rows, [&](int x, int y) {
      for (std::uint32_t e = heads_[cells_.index(x, y)]; e != no_entry; e = entries_[e].next) {
        const std::uint32_t id = entries_[e].shape;
        if (!(mask & layer_bit(layers_[id]))) continue;
        // Each shape once: in its cell nearest (cx, cy), the first ring that reaches it.
        const CellRange& r = ranges_[id];
        if (x != std::clamp(cx, r.x0, r.x1) || y != std::clamp(cy, r.y0, r.y1)) continue;
        consider(id);
      }
    });
  }
  return best;
}

}  // namespace waymark::steer
