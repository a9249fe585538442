#pragma once
/// @file Post-processing of grid paths: line-of-sight smoothing, compression of collinear
/// steps, expansion back to every cell, and interpolation at a spacing in world units. A path
/// here is a list of waypoint cells joined by straight segments between their centres (a
/// search's path of adjacent cells is one); every segment is judged and costed by
/// segment_cost() (line_of_sight.hpp) under the diagonal rule the path was searched with: the
/// functions that judge segments take the GridSpace the path was searched in (a planner's
/// space()), which carries the map and that rule, so a path cannot be smoothed under another
/// rule by mistake. See docs/smoothing.md.
///
/// Every function writes into a caller-owned vector, cleared first and reused: once it has
/// grown to the largest output so far, nothing allocates.

#include <span>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/grid_space.hpp"
#include "waymark/grid/moves.hpp"

namespace waymark::grid {

struct SmoothingParams {
  /// A shortcut is taken only when its cost is at most the cost of the waypoints it replaces
  /// times (1 + cost_tolerance). Room for rounding only: a segment's cost and its steps' sum
  /// add the same terms in different orders, and the sum is brought down by subtraction as
  /// the scan moves nearer (about one ulp of the first sum per step subtracted).
  /// [Limit: >= 0; keep it near rounding, 1e-9]
  double cost_tolerance = 1e-9;
};

/// What smoothing made of a path.
struct SmoothingResult {
  /// Σ segment costs of the smoothed waypoints (infinite if the input was empty — no path — or not valid)
  Cost cost = infinite_cost;
  /// Σ segment costs of the input (infinite when it is empty or one of its steps is not allowed)
  Cost raw_cost = infinite_cost;
};

/// Sum of segment_cost() over consecutive waypoints: 0 for one waypoint, infinite_cost for
/// none (no path), or when a segment is not allowed under the space's rule or a waypoint is
/// not a cell of its map.
[[nodiscard]] Cost waypoint_path_cost(const GridSpace& space, std::span<const CellId> waypoints);

/// Line-of-sight smoothing (greedy, farthest visible waypoint): from the current waypoint,
/// the next one is the farthest later waypoint of `path` whose straight segment is allowed
/// under the space's rule and costs no more than the waypoints it skips (the next input waypoint when
/// none is). So the result is valid wherever the input is, never costs more, never has more
/// waypoints, and keeps the input's first and last. A segment of the input that is itself not
/// allowed is kept as it is, never skipped by a shortcut, and the result's cost is then
/// infinite_cost (smoothing does not repair an invalid path).
/// Time: per kept waypoint, one segment test for each later waypoint tried from the far end
/// (a test stops at the first blocked cell), and each input step costed at most twice (summed
/// once, then subtracted as the scan comes nearer): O(k·n·L) at worst for k kept waypoints,
/// n input waypoints, L cells per segment. No allocation once `out` is large enough. `out`
/// must not alias `path`.
SmoothingResult smooth_path(const GridSpace& space, std::span<const CellId> path, std::vector<CellId>& out,
                            const SmoothingParams& params = {});

/// Drops every waypoint that lies on the straight line between its neighbours, going on in
/// the same direction (and repeated waypoints). The segments merged cross exactly the cells
/// they crossed before, so validity and cost are kept (up to rounding). O(n).
/// `out` must not alias `path`.
void compress_path(const GridMap& map, std::span<const CellId> path, std::vector<CellId>& out);

/// Every cell the segments pass through, in order, each once where segments meet: the
/// path back as cells. Consecutive cells share an edge, or a corner where the segment passed
/// exactly through it — a diagonal step, which is allowed under the rule the path was
/// validated with (under `never` a valid path has none). Returns false, with `out` cleared,
/// when a waypoint is not a cell of `map`. O(cells). `out` must not alias `waypoints`.
bool expand_to_cells(const GridMap& map, std::span<const CellId> waypoints, std::vector<CellId>& out);

/// Points along the path's polyline of cell centres (GridMap::position, world units): the
/// first centre, then one every `spacing` of arc length, then the last centre (unless the
/// previous point is within spacing × 1e-9 of it). Returns false, with `out` cleared, when
/// `spacing` is not finite and > 0 or a waypoint is not a cell of `map`.
/// @warning `out` grows to about length / spacing + 2 points.
bool interpolate_path(const GridMap& map, std::span<const CellId> waypoints, double spacing, std::vector<Vec3>& out);

}  // namespace waymark::grid
