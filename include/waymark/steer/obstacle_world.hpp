#pragma once
/// @file ObstacleWorld: the static colliders agents steer around — circles, axis-aligned and
/// oriented boxes, polygons, segments and the blocked cells of a GridMap — each on one of 32
/// layers, with raycasts filtered by a layer mask (`1u << 8` selects layer 8), disc contacts for
/// collision resolution and clearance queries. A uniform-grid broad phase keeps raycasts fast
/// with thousands of colliders; the map's cells are walked cell by cell. Queries are const and
/// keep no scratch, so any number of threads may query one world.

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "waymark/core/broad_phase.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/core/polygon_edge_grid.hpp"

namespace waymark::grid {
class GridMap;
}

namespace waymark::steer {

using LayerMask = std::uint32_t;
inline constexpr LayerMask all_layers = ~LayerMask{0};
inline constexpr int layer_count = 32;
/// The mask that selects one layer: layer_bit(8) == 1u << 8.
[[nodiscard]] constexpr LayerMask layer_bit(int layer) { return LayerMask{1} << layer; }

struct Circle {
  Vec2 centre;
  double radius = 0;
};
/// Axis-aligned box.
struct Box {
  Vec2 min;
  Vec2 max;
};
struct OrientedBox {
  Vec2 centre;
  Vec2 half_extents;
  double angle = 0;  ///< radians, anticlockwise from the x axis
};
/// A simple polygon (corners in either order, closing edge implied), solid inside.
struct Polygon {
  std::vector<Vec2> corners;
};
/// Segment2 (core/geometry.hpp): a wall without thickness.
using Shape = std::variant<Circle, Box, OrientedBox, Polygon, Segment2>;

using ColliderId = StrongId<struct ColliderTag>;

/// What a query hit: one of the added shapes, or a blocked cell of the map (the area outside
/// the map counts as blocked: `cell` is then invalid).
struct ColliderRef {
  enum class Kind : std::uint8_t { shape, cell };
  Kind kind = Kind::shape;
  ColliderId shape;
  CellId cell;
  friend bool operator==(const ColliderRef&, const ColliderRef&) = default;
};

struct RayHit {
  Vec2 point;
  Vec2 normal;      ///< unit, facing the ray's side of the surface
  double distance;  ///< from the origin along the unit direction
  ColliderRef collider;
};

/// A disc overlapping a collider: moving the disc `depth` along `normal` (unit) separates them.
struct Contact {
  Vec2 normal;
  double depth;
  ColliderRef collider;
};

struct ObstacleWorldParams {
  /// Side of a broad-phase cell, world units: a few times the typical collider size.
  /// [Limit: > 0, finite] The world widens it (doubling) when the colliders' bounds would need
  /// more than max(2^16, 16 × colliders) cells.
  double broad_phase_cell = 4.0;
  /// A collider whose bounds cover more broad-phase cells than this is kept off the grid and
  /// tested by every query instead (long walls, huge polygons). [Limit: >= 1]
  std::uint32_t max_cells_per_collider = 256;
  /// A polygon with more corners than this gets an edge grid (PolygonEdgeGrid, built in add()):
  /// raycasts, contacts and distances then look at the edges in the cells they need, not every
  /// edge, with the same answers. SIZE_MAX: never. [Limit: any]
  std::size_t polygon_grid_above = polygon_edge_grid_threshold;
};

class ObstacleWorld {
 public:
  /// Throws BuildError when `params` break their limits.
  explicit ObstacleWorld(ObstacleWorldParams params = {});

  /// Coordinates, radii and extents of colliders lie within ±this (their squares stay finite).
  static constexpr double max_coordinate = 1e100;

  /// Adds a collider on `layer` (0–31). Throws BuildError for a layer out of range,
  /// non-finite coordinates, a negative radius or extent, or a polygon of fewer than 3 corners
  /// (and for values beyond max_coordinate). Amortised O(cells the collider covers).
  ColliderId add(Shape shape, int layer = 0);
  /// Takes a collider out: no query sees it again. Its id is not reused (shape(id) keeps the
  /// shape). False, changing nothing, when `id` is not a collider of this world or was removed
  /// already. O(broad-phase cells it covered + their lists); allocates nothing.
  bool remove(ColliderId id);
  /// Whether `id` is a collider of this world that was not removed.
  [[nodiscard]] bool contains(ColliderId id) const { return id.value < shapes_.size() && !prepared_[id.value].removed; }
  /// Blocked cells of `map` (and everything outside it) become solid on `layer`. The map is
  /// read live, so its edits are seen; it must outlive the world. nullptr detaches it.
  /// Throws BuildError for a layer out of range.
  void set_grid(const grid::GridMap* map, int layer = 0);

  /// The nearest hit along the ray within max_distance on the layers in `mask`, or nullopt.
  /// `direction` need not be unit length; a zero direction hits nothing. A ray that starts
  /// inside a solid hits it at distance 0 with the normal facing back along the ray; one that
  /// starts on a surface hits at 0 only when it heads in (segments: always). Touching counts.
  /// Complexity: the broad-phase cells and map cells the ray crosses up to its first hit.
  [[nodiscard]] std::optional<RayHit> raycast(Vec2 origin, Vec2 direction, double max_distance,
                                              LayerMask mask = all_layers) const;
  /// Every contact of the disc with solids on the layers in `mask`, written to `out` (cleared
  /// first; no allocation once `out` has room). Returns their number. One contact per shape
  /// and per blocked cell the open disc overlaps; the area outside the map is four half-planes
  /// beyond its sides, one contact per side the disc crosses (normal pointing into the map).
  /// A radius that is not finite, or not > 0, gives no contacts.
  std::size_t disc_contacts(Vec2 centre, double radius, LayerMask mask, std::vector<Contact>& out) const;
  /// The distance from `p` to the nearest solid on the layers in `mask`, at most max_distance;
  /// 0 inside a solid (or for a non-finite `p`). Visits the cells within the answer's reach.
  [[nodiscard]] double clearance(Vec2 p, double max_distance, LayerMask mask = all_layers) const;

  /// Incremented by every add(), remove() and set_grid(): derived data (obstacle lines,
  /// planning layers) compares it with the version it was built from. The attached grid map has
  /// its own version.
  [[nodiscard]] std::uint64_t version() const { return version_; }
  /// Colliders ever added (removed ones included: ids run from 0 to size() - 1).
  [[nodiscard]] std::size_t size() const { return shapes_.size(); }
  [[nodiscard]] const Shape& shape(ColliderId id) const { return shapes_[id.value]; }
  [[nodiscard]] int layer(ColliderId id) const { return layers_[id.value]; }
  /// The axis-aligned bounds of collider `id`. [Limit: id < size(); unchecked]
  [[nodiscard]] Box bounds(ColliderId id) const { return {bounds_[id.value].min, bounds_[id.value].max}; }
  /// The distance from `p` to collider `id` (0 inside), whether or not it was removed.
  /// [Limit: id < size(); unchecked]
  [[nodiscard]] double distance(ColliderId id, Vec2 p) const;
  [[nodiscard]] const grid::GridMap* grid() const { return grid_; }
  [[nodiscard]] int grid_layer() const { return grid_layer_; }

 private:
  struct Bounds {
    Vec2 min;
    Vec2 max;
  };
  /// Broad-phase cells a shape's bounds cover, inclusive; none for a shape kept off the grid.
  using CellRange = UniformGrid::Range;
  /// The end of a cell's list.
  static constexpr std::uint32_t no_entry = std::numeric_limits<std::uint32_t>::max();
  /// One shape in one broad-phase cell: a singly linked list per cell through `entries_`.
  struct Entry {
    std::uint32_t shape;
    std::uint32_t next;
  };
  /// What queries need of a shape besides the shape: the oriented box's axis (cos, sin), a
  /// polygon's orientation (+1 anticlockwise, -1 clockwise, 0 degenerate) and edge grid (large
  /// polygons only), and whether it is kept off the grid (in `large_`).
  struct Prepared {
    Vec2 axis{1, 0};
    double orientation = 0;
    std::shared_ptr<const PolygonEdgeGrid> edges;  ///< immutable: copies of the world share it
    bool large = false;
    bool removed = false;
  };
  struct Best;

  void rebuild();
  void insert(std::uint32_t id);
  [[nodiscard]] CellRange cells_of(const Bounds& b) const { return cells_.cells_of(b.min, b.max); }
  void raycast_shapes(Vec2 origin, Vec2 unit, LayerMask mask, Best& best) const;
  void raycast_grid(Vec2 origin, Vec2 unit, Best& best) const;
  void test_shape(std::uint32_t id, Vec2 origin, Vec2 unit, Best& best) const;

  ObstacleWorldParams params_;
  std::vector<Shape> shapes_;
  std::vector<std::uint8_t> layers_;
  std::vector<Bounds> bounds_;
  std::vector<Prepared> prepared_;
  const grid::GridMap* grid_ = nullptr;
  int grid_layer_ = 0;
  // The broad phase: a dense uniform grid over a box covering every shape's bounds (grown by
  // rebuilding when a shape lands outside it), each cell a linked list of the shapes whose
  // bounds overlap it. Dense beats hashing in the ray walk (no probe per cell); the cell count
  // is capped by widening the cells.
  UniformGrid cells_{{}, 0, 0, 0};  ///< the cells; none before the first rebuild
  std::vector<std::uint32_t> heads_;  ///< per cell: its first entry, or none
  std::vector<Entry> entries_;
  std::vector<CellRange> ranges_;     ///< per shape
  std::vector<std::uint32_t> large_;  ///< shapes kept off the grid
  Bounds occupied_{{1, 1}, {0, 0}};   ///< union of the gridded shapes' bounds (empty: min > max)
  std::size_t built_for_ = 0;         ///< shapes at the last rebuild
  std::uint64_t version_ = 0;
};

}  // namespace waymark::steer
