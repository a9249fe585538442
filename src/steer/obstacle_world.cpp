// The obstacle world's colliders: checking them as they are added and keeping the broad phase
// (a uniform grid of cells, each a list of the colliders overlapping it). Its queries are in
// obstacle_queries.cpp, the narrow phase per shape in obstacle_shapes.cpp.
#include "waymark/steer/obstacle_world.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"


namespace waymark::steer {
namespace {

/// The fewest broad-phase cells the world may use before it widens them.
constexpr double min_cell_cap = 65536;
/// Cells per collider the broad phase may use before it widens them.
constexpr double cells_per_collider = 16;
/// A rebuild pads the covered box by this share of its extent on every side, so a world
/// growing outwards rebuilds O(log n) times.
constexpr double cover_padding = 0.125;

// ---- validation ----------------------------------------------------------------------------

[[noreturn]] void refuse(const std::string& what) { throw BuildError("ObstacleWorld: " + what); }

/// Refuses `v`, the `what` of a `shape`, when it is not finite or lies outside
/// ±ObstacleWorld::max_coordinate, saying which.
void check(double v, const char* shape, const std::string& what) {
  if (!std::isfinite(v)) refuse(std::string(shape) + " with " + what + " not finite (" + number_text(v) + ")");
  if (std::abs(v) > ObstacleWorld::max_coordinate) {
    refuse(std::string(shape) + " with " + what + " " + number_text(v) + ", outside ±" +
           number_text(ObstacleWorld::max_coordinate) + " (ObstacleWorld::max_coordinate)");
  }
}
void check(Vec2 v, const char* shape, const std::string& what) {
  check(v.x, shape, what + " x");
  check(v.y, shape, what + " y");
}

void check_layer(int layer) {
  if (layer < 0 || layer >= layer_count) refuse("layer " + number_text(layer) + " is not in 0-31");
}

}  // namespace

ObstacleWorld::ObstacleWorld(ObstacleWorldParams params) : params_(params) {
  if (!(params.broad_phase_cell > 0 && params.broad_phase_cell <= max_coordinate)) {
    refuse("broad_phase_cell must be above 0 and at most " + number_text(max_coordinate) +
           " (ObstacleWorld::max_coordinate), got " + number_text(params.broad_phase_cell));
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
      check(c.centre, "circle", "centre");
      check(c.radius, "circle", "radius");
      if (c.radius < 0) refuse("circle with a negative radius (" + number_text(c.radius) + ")");
      b = {c.centre - Vec2{c.radius, c.radius}, c.centre + Vec2{c.radius, c.radius}};
      break;
    }
    case 1: {
      const Box& box = *std::get_if<Box>(&shape);
      check(box.min, "box", "min");
      check(box.max, "box", "max");
      if (box.max.x < box.min.x || box.max.y < box.min.y) refuse("box with a negative extent");
      b = {box.min, box.max};
      break;
    }
    case 2: {
      const OrientedBox& box = *std::get_if<OrientedBox>(&shape);
      check(box.centre, "oriented box", "centre");
      check(box.half_extents, "oriented box", "half extent");
      if (!std::isfinite(box.angle)) refuse("oriented box with angle not finite (" + number_text(box.angle) + ")");
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
      for (std::size_t k = 0; k < poly.corners.size(); ++k) {
        const Vec2 c = poly.corners[k];
        check(c, "polygon", "corner " + number_text(k));
        b.min = {std::min(b.min.x, c.x), std::min(b.min.y, c.y)};
        b.max = {std::max(b.max.x, c.x), std::max(b.max.y, c.y)};
      }
      const double area = polygon_signed_area(poly.corners);
      prep.orientation = area > 0 ? 1.0 : area < 0 ? -1.0 : 0.0;
      if (poly.corners.size() > params_.polygon_grid_above) {
        prep.edges = std::make_shared<const PolygonEdgeGrid>(poly.corners);
      }
      break;
    }
    default: {
      const Segment2& s = *std::get_if<Segment2>(&shape);
      check(s.a, "segment", "end a");
      check(s.b, "segment", "end b");
      b = {{std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y)}, {std::max(s.a.x, s.b.x), std::max(s.a.y, s.b.y)}};
      break;
    }
  }

  ++version_;
  const auto id = static_cast<std::uint32_t>(shapes_.size());
  shapes_.push_back(std::move(shape));
  layers_.push_back(static_cast<std::uint8_t>(layer));
  bounds_.push_back(b);
  prepared_.push_back(std::move(prep));
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
  ++version_;
}

bool ObstacleWorld::remove(ColliderId id) {
  if (!contains(id)) return false;
  const std::uint32_t i = id.value;
  Prepared& prep = prepared_[i];
  prep.removed = true;
  ++version_;
  if (prep.large) {
    large_.erase(std::find(large_.begin(), large_.end(), i));
    return true;
  }
  // Unlink it from every cell it was listed in (its entries stay unused in entries_ until the
  // next rebuild, which lists only the colliders left).
  const CellRange r = ranges_[i];
  for (int y = r.y0; y <= r.y1; ++y) {
    for (int x = r.x0; x <= r.x1; ++x) {
      std::uint32_t* link = &heads_[cells_.index(x, y)];
      while (*link != no_entry) {
        Entry& e = entries_[*link];
        if (e.shape == i) {
          *link = e.next;
        } else {
          link = &e.next;
        }
      }
    }
  }
  return true;
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
  constexpr double huge = std::numeric_limits<double>::infinity();
  Bounds tight{{huge, huge}, {-huge, -huge}};
  for (std::size_t i = 0; i < shapes_.size(); ++i) {
    if (prepared_[i].large || prepared_[i].removed) continue;
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
    if (!prepared_[i].large && !prepared_[i].removed) insert(i);
  }
}

}  // namespace waymark::steer
