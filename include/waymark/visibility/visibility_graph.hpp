#pragma once
/// @file VisibilityGraph: points of visibility among 2D polygon obstacles inflated by an agent
/// radius. Built once (immutable), searched by any number of VisibilityQuery objects. See
/// docs/visibility.md for the inflation, the segment test and the measured costs.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/broad_phase.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/core/polygon_edge_grid.hpp"
#include "waymark/search/generation_array.hpp"

namespace waymark::visibility {

/// The default distance (world units) within which a point counts as on a boundary: segments
/// may touch obstacles, and enter them by at most this much.
inline constexpr double default_tolerance = 1e-7;
/// Largest coordinate magnitude accepted, world units: keeps rounding far below the tolerance.
inline constexpr double max_abs_coordinate = 1e6;

/// Default of VisibilityParams::line_runs_above (docs/visibility.md, "Runs of points on one line").
inline constexpr std::size_t default_line_runs_above = 8;

/// Default of VisibilityParams::sweep_rows_above: a sweep costs about as much as looking at a
/// few thousand pairs, whatever the row (measured: docs/visibility.md, "Shadows").
inline constexpr std::size_t default_sweep_rows_above = 4096;

/// Default of VisibilityParams::max_edges: 16,777,216.
inline constexpr std::size_t default_max_edges = std::size_t{1} << 24;

/// Default of VisibilityParams::max_seconds (and of the CLI's --time-limit): a build still
/// running after a minute stops (docs/visibility.md, "Budgets").
inline constexpr double default_max_seconds = 60;

/// What a world is built from: simple polygons (either winding, closing edge implied), extra
/// hand-placed points of visibility, and optional bounds the agent's centre must stay in.
struct Obstacles {
  std::vector<std::vector<Vec2>> polygons;
  std::vector<Vec2> points;
  std::optional<Aabb2> bounds;
};

/// Parameters of a build, world units unless said otherwise.
struct VisibilityParams {
  /// Agent radius: paths keep at least this clearance from every polygon. [Limit: finite, >= 0]
  double radius = 0;
  /// Largest angle between neighbouring tangent directions of the polygon circumscribed about
  /// the agent's disc at each corner, degrees: the inflated corner sticks out at most
  /// radius·(1/cos(step/2) − 1) beyond the disc (1.9% of the radius at 22.5). [Limit: 1 to 90]
  double arc_step_degrees = 22.5;
  /// Distance within which points count as on a boundary. [Limit: > 0, <= 1e-3]
  double tolerance = default_tolerance;
  /// Place points of visibility at the convex corners of the inflated obstacles; off: only the
  /// hand-placed points (paths are then no longer the shortest).
  bool corner_points = true;
  /// A concave polygon with more corners than this gets an edge grid (PolygonEdgeGrid): its
  /// segment and point tests look at the edges in the cells they need, not every edge, with
  /// the same answers. SIZE_MAX: never. [Limit: any]
  std::size_t polygon_grid_above = polygon_edge_grid_threshold;
  /// The arcs out of each point are first tested one segment each; once that point's tests
  /// have looked at this many grid cells, parts and boundary crossings each on average (after
  /// a start of 16 tests), the rest go by direction: a run of points on one line is tested a
  /// short segment at a time (point to next point), so a line passing many corners costs one
  /// test per corner, not one per pair. The same arcs either way, but where a run passes a
  /// point within the tolerance of a concave part's boundary (there the segment test may judge
  /// a segment entering by about the tolerance either way); 0: by direction from the start,
  /// SIZE_MAX: never (docs/visibility.md, "Runs of points on one line"). [Limit: any]
  std::size_t line_runs_above = default_line_runs_above;
  /// Most edges (undirected arcs) the graph may have: a build that finds more stops and throws
  /// InputError (about 40 bytes an edge while building, 32 after). Points that all see each
  /// other make N(N−1)/2 edges: 65,536 hand-placed points in an empty room would be 2.1·10^9.
  /// [Limit: >= 1]
  std::size_t max_edges = default_max_edges;
  /// Most seconds the arcs may take to build: a build still running then stops and throws
  /// BudgetExceeded, saying what it finished. Infinity: no limit. [Limit: > 0]
  double max_seconds = default_max_seconds;
  /// A point with more points than this after it (in point order) finds its arcs by a sweep
  /// that skips the points hidden behind convex parts: rings of cells outwards, and a cell
  /// wholly in the shadow of parts nearer than it (each shrunk by more than the tolerance,
  /// so that every segment into the cell passes through one) is not looked at. The others
  /// look at every point after them. The same arcs either way; SIZE_MAX: never
  /// (docs/visibility.md, "Shadows"). [Limit: any]
  std::size_t sweep_rows_above = default_sweep_rows_above;
};

/// What a build looked at (VisibilityGraph::build_stats).
struct VisibilityBuildStats {
  /// Pairs of points looked at (a tangency test each): N(N−1)/2 without the sweep.
  std::uint64_t pairs = 0;
  /// Segment tests (VisibilityGraph::visible) made for the pairs tangent at both ends.
  std::uint64_t segment_tests = 0;
  /// Points whose arcs were found by the shadow sweep (VisibilityParams::sweep_rows_above).
  std::uint64_t swept_rows = 0;
  /// Cells the sweep opened (looked at the points in), over all its rows.
  std::uint64_t cells_opened = 0;
  /// Cells of the sweep's grid (each row could open them all).
  std::uint64_t sweep_cells = 0;
  /// Seconds the arcs took.
  double seconds = 0;
};



/// Why a polygon is not simple, and the vertex where that shows.
struct PolygonProblem {
  std::string reason;
  std::size_t vertex = 0;
};

/// Checks that `polygon` is simple and not degenerate: at least 3 vertices, finite coordinates
/// within ±max_abs_coordinate, no vertex within `tolerance` of the one before it (the first
/// after the last included), non-adjacent edges farther apart than `tolerance`, no edge folding
/// back over its neighbour, an area above tolerance × perimeter. nullopt when it is.
/// @warning O(n²) in the vertex count.
[[nodiscard]] std::optional<PolygonProblem> polygon_problem(std::span<const Vec2> polygon,
                                                            double tolerance = default_tolerance);

/// A build refused its input. `what()` is the reason; `item` and `index` name the culprit
/// (polygon i, point i, the bounds, or the parameters), so loaders can point at its line.
class InputError : public BuildError {
 public:
  enum class Item : std::uint8_t { polygon, point, bounds, params };
  InputError(Item item, std::size_t index, const std::string& reason)
      : BuildError(reason), item_(item), index_(index) {}
  [[nodiscard]] Item item() const { return item_; }
  [[nodiscard]] std::size_t index() const { return index_; }

 private:
  Item item_;
  std::size_t index_;
};

/// A build that ran out of its budget (VisibilityParams::max_seconds or max_edges): an
/// InputError (item params) whose what() names the limit, with what the build finished: the
/// points whose arcs were all found (points are done in order) and the edges found so far.
class BudgetExceeded : public InputError {
 public:
  enum class Limit : std::uint8_t { time, edges };
  BudgetExceeded(Limit limit, std::size_t points_done, std::size_t points, std::size_t edges, double seconds,
                 const std::string& reason)
      : InputError(Item::params, 0, reason),
        limit_(limit),
        points_done_(points_done),
        points_(points),
        edges_(edges),
        seconds_(seconds) {}
  [[nodiscard]] Limit limit() const { return limit_; }
  /// "time-limit" or "max-edges", as the CLI's JSON says.
  [[nodiscard]] const char* limit_name() const { return limit_ == Limit::time ? "time-limit" : "max-edges"; }
  /// Points whose arcs were all found, of point_count().
  [[nodiscard]] std::size_t points_done() const { return points_done_; }
  [[nodiscard]] std::size_t point_count() const { return points_; }
  /// Edges found when it stopped.
  [[nodiscard]] std::size_t edges_found() const { return edges_; }
  /// Seconds the arcs had taken.
  [[nodiscard]] double seconds() const { return seconds_; }

 private:
  Limit limit_;
  std::size_t points_done_;
  std::size_t points_;
  std::size_t edges_;
  double seconds_;
};

/// Scratch of segment tests (which parts a walk already tested, where a segment meets a
/// polygon's boundary). One per thread; make_scratch() sizes it for a graph.
struct ProbeScratch {
  search::GenerationSet tested;
  std::vector<double> cuts;
  /// A running count of what the tests looked at (grid cells, parts, boundary crossings and
  /// touches): their work, for a caller that picks between ways of testing.
  std::uint64_t work = 0;
  /// The part that blocked the last blocked segment: tested first by the next one (segments
  /// tested one after another often pass the same obstacle), the same answers.
  std::uint32_t blocker = std::numeric_limits<std::uint32_t>::max();
};

/// One arc of the graph: the other point and the segment's length.
struct VisibilityArc {
  std::uint32_t to = 0;
  Cost cost = 0;
};

/// Points of visibility among inflated polygons, and an arc between every two that see each
/// other (and could lie on a shortest path), costed by length; adjacency in CSR form.
///
/// Inflation: every obstacle P becomes P ∪ (each edge swept by a 2·radius-wide rectangle) ∪
/// (each vertex's polygon circumscribed about the agent's disc). Those convex pieces hold the
/// disc swept along P (clearance ≥ radius) and stay within radius / cos(step/2) of P.
/// Obstacles are open sets: a segment may touch a boundary, run along an edge or graze a
/// corner, but not pass through an interior (by more than the tolerance).
///
/// Points: the corners of the inflated obstacles that lie on no other's inside (radius 0: the
/// convex corners of the polygons), then the hand-placed points. Arcs join two points when the
/// segment between them is free and tangent to the obstacle at each corner end.
///
/// Building is O(N²) tangency tests plus a segment test for each survivor, each walking a
/// uniform grid of the parts it passes (N points), and a large concave part's edge grid
/// (PolygonEdgeGrid) along the segment. Where a point's tests grow costly (lines passing many
/// corners), its survivors are sorted by direction and each run of points on one line is tested
/// point to next point (VisibilityParams::line_runs_above): O(N log N) for that point plus one
/// full test per direction. Bounded by VisibilityParams::max_edges and max_seconds. Immutable
/// once built; thread-safe to read.
class VisibilityGraph {
 public:
  /// Builds the graph. @throws InputError for a polygon polygon_problem() refuses, a
  /// hand-placed point inside an inflated obstacle or outside the bounds, bounds that are not
  /// finite or leave no room for the radius, parameters outside their limits, or a build over
  /// max_edges or max_seconds (item params, the message naming the limit).
  explicit VisibilityGraph(const Obstacles& obstacles, const VisibilityParams& params = {});

  [[nodiscard]] const VisibilityParams& params() const { return params_; }
  /// Points of visibility: corners first (0..corner_count()-1), then the hand-placed ones in
  /// the order given.
  [[nodiscard]] std::size_t point_count() const { return points_.size(); }
  [[nodiscard]] std::size_t corner_count() const { return corners_.size(); }
  [[nodiscard]] Vec2 point(std::uint32_t i) const { return points_[i]; }
  [[nodiscard]] std::span<const Vec2> points() const { return points_; }
  /// Arcs out of point i (each undirected edge appears once from each end).
  [[nodiscard]] std::span<const VisibilityArc> arcs(std::uint32_t i) const {
    return {arcs_.data() + arc_begin_[i], arcs_.data() + arc_begin_[i + 1]};
  }
  /// Undirected edges (half the arcs).
  [[nodiscard]] std::size_t edge_count() const { return arcs_.size() / 2; }

  /// The input polygons, counter-clockwise.
  [[nodiscard]] std::size_t obstacle_count() const { return obstacle_begin_.size() - 1; }
  [[nodiscard]] std::span<const Vec2> obstacle(std::uint32_t i) const {
    return {obstacle_vertices_.data() + obstacle_begin_[i], obstacle_vertices_.data() + obstacle_begin_[i + 1]};
  }
  /// The parts the obstacles are made of, counter-clockwise: each input polygon, then (radius
  /// > 0) the convex pieces of its inflation. A point is blocked when inside any of them.
  [[nodiscard]] std::size_t part_count() const { return parts_.size(); }
  [[nodiscard]] std::span<const Vec2> part(std::uint32_t i) const {
    return {part_vertices_.data() + parts_[i].begin, part_vertices_.data() + parts_[i].end};
  }
  /// The obstacle (input polygon index) part i belongs to.
  [[nodiscard]] std::uint32_t part_obstacle(std::uint32_t i) const { return parts_[i].obstacle; }
  [[nodiscard]] const std::optional<Aabb2>& bounds() const { return bounds_; }

  /// The obstacle whose inflation holds `p` inside (farther than the tolerance from its
  /// boundary), or nullopt when `p` is free. O(parts in p's grid cell).
  [[nodiscard]] std::optional<std::uint32_t> obstacle_at(Vec2 p) const;
  /// Whether the agent's centre may stand at `p`: finite, free, and within the bounds shrunk
  /// by the radius.
  [[nodiscard]] bool standable(Vec2 p) const;
  /// Whether the segment a-b passes through no obstacle's inside (the raycast). Allocation:
  /// none once `scratch` came from make_scratch() and has cut polygons as large as the largest.
  [[nodiscard]] bool visible(Vec2 a, Vec2 b, ProbeScratch& scratch) const;
  /// Whether the segment from point i towards `other` could be part of a shortest path at i:
  /// true for hand-placed points; for corners, when the line is tangent to the obstacle there.
  [[nodiscard]] bool tangent_at(std::uint32_t i, Vec2 other) const {
    if (i >= corners_.size()) return true;
    const Vec2 v = points_[i];
    const Vec2 dir = v - other;
    // Squared: |s| > tolerance·|dir| as s² > tolerance²·|dir|² (no square root; the same test
    // but for the rounding of the tolerance).
    const double tol2 = params_.tolerance * params_.tolerance, len2 = dot(dir, dir);
    if (len2 <= tol2) return true;
    const double tol_squared = tol2 * len2;
    const double s1 = cross(dir, corners_[i].prev - v), s2 = cross(dir, corners_[i].next - v);
    // Neighbours strictly on both sides: the line passes through the obstacle at v.
    return !((s1 < 0) != (s2 < 0) && s1 * s1 > tol_squared && s2 * s2 > tol_squared);
  }
  /// Scratch for visible(), sized for this graph.
  [[nodiscard]] ProbeScratch make_scratch() const;

  /// Memory held, bytes (about).
  [[nodiscard]] std::size_t memory_bytes() const;
  /// What the build looked at.
  [[nodiscard]] const VisibilityBuildStats& build_stats() const { return build_stats_; }

 private:
  static constexpr std::uint32_t no_grid = std::numeric_limits<std::uint32_t>::max();
  struct Part {
    std::uint32_t begin = 0;  ///< into part_vertices_ and planes_
    std::uint32_t end = 0;
    std::uint32_t obstacle = 0;
    std::uint32_t edges = no_grid;  ///< its edge grid in edge_grids_ (large concave parts), or none
    bool convex = false;
    Aabb2 box;
    /// The vertex after k (the first after the last): edge k runs from k to next(k).
    [[nodiscard]] std::uint32_t next(std::uint32_t k) const { return k + 1 == end ? begin : k + 1; }
  };
  /// n·x <= offset on the closed part; outward unit normal n.
  struct Plane {
    Vec2 n;
    double offset = 0;
  };
  /// Corner points keep their part's neighbouring vertices for the tangency test (one per
  /// corner point, in point order).
  struct Corner {
    Vec2 prev;
    Vec2 next;
  };

  void add_part(std::span<const Vec2> ccw, std::uint32_t obstacle, bool convex);
  void index_parts();
  [[nodiscard]] bool inside_part(std::uint32_t part, Vec2 p) const;
  /// Whether `p` lies on a part's edge away from its ends: that part covers a half-disc
  /// around p, so p is no convex corner of the obstacles (a corner circle's vertex on its
  /// edge's rectangle, a polygon's corner on another's side).
  [[nodiscard]] bool on_part_side(Vec2 p) const;
  [[nodiscard]] bool segment_enters(std::uint32_t part, Vec2 a, Vec2 b, ProbeScratch& scratch) const;
  /// segment_enters for a part with an edge grid: the cuts met cell by cell from a, each
  /// interval tested once the walk is past its end.
  [[nodiscard]] bool segment_enters_grid(std::uint32_t part, Vec2 a, Vec2 b, ProbeScratch& scratch) const;
  template <class F>
  bool walk_cells(Vec2 a, Vec2 b, F&& visit) const;
  [[nodiscard]] std::size_t cell_of(Vec2 p) const;
  void build_arcs();

  VisibilityParams params_;
  std::optional<Aabb2> bounds_;
  std::optional<Aabb2> centre_bounds_;  ///< bounds shrunk by the radius
  std::vector<Vec2> obstacle_vertices_;
  std::vector<std::uint32_t> obstacle_begin_{0};
  std::vector<Part> parts_;
  std::vector<Vec2> part_vertices_;
  std::vector<Plane> planes_;  ///< one per part vertex (the edge from it to the next)
  std::vector<PolygonEdgeGrid> edge_grids_;  ///< of the concave parts above polygon_grid_above
  // Broad phase: a uniform grid over the parts' boxes, each cell listing the parts touching it.
  UniformGrid grid_;
  CellLists cells_;
  std::size_t largest_part_ = 0;
  std::vector<Vec2> points_;
  std::vector<Corner> corners_;
  std::vector<std::uint32_t> arc_begin_;
  std::vector<VisibilityArc> arcs_;
  VisibilityBuildStats build_stats_;
};

}  // namespace waymark::visibility
