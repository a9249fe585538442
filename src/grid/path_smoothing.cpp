#include "waymark/grid/path_smoothing.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "waymark/grid/line_of_sight.hpp"

namespace waymark::grid {
namespace {

bool is_cell(const GridMap& map, CellId c) { return c.value < map.cell_count(); }

bool all_cells(const GridMap& map, std::span<const CellId> path) {
  for (const CellId c : path) {
    if (!is_cell(map, c)) return false;
  }
  return true;
}

/// Within this fraction of the spacing, the last interpolated point counts as the path's end.
constexpr double end_point_slack = 1e-9;

}  // namespace

Cost waypoint_path_cost(const GridSpace& space, std::span<const CellId> waypoints) {
  const GridMap& map = space.map();
  const DiagonalRule rule = space.rule();
  if (waypoints.empty() || !all_cells(map, waypoints)) return infinite_cost;
  Cost total = 0;
  for (std::size_t i = 1; i < waypoints.size(); ++i) total += segment_cost(map, rule, waypoints[i - 1], waypoints[i]);
  return total;
}

SmoothingResult smooth_path(const GridSpace& space, std::span<const CellId> path, std::vector<CellId>& out,
                            const SmoothingParams& params) {
  const GridMap& map = space.map();
  const DiagonalRule rule = space.rule();
  out.clear();
  if (path.empty()) return {};  // no path: no finite cost
  if (!all_cells(map, path)) {
    out.assign(path.begin(), path.end());
    return {infinite_cost, infinite_cost};
  }
  const double slack = 1 + params.cost_tolerance;
  SmoothingResult result{.cost = 0};
  result.raw_cost = waypoint_path_cost(space, path);
  out.push_back(path[0]);
  std::size_t anchor = 0;
  const std::size_t last = path.size() - 1;
  while (anchor < last) {
    // The farthest waypoint in sight whose segment is no dearer than the waypoints it skips;
    // the next input waypoint when none is. Only allowed input steps may be skipped: one that
    // is not allowed is kept as it is, and so is its infinite cost.
    std::size_t next = anchor + 1;
    Cost next_cost = segment_cost(map, rule, path[anchor], path[anchor + 1]);
    // The skipped steps' cost, summed forward once at the first waypoint in sight (the order
    // of a plain sum), then reduced step by step as j comes down: each step is costed at most
    // twice per anchor.
    Cost replaced = 0;
    std::size_t summed_to = anchor;  // `replaced` is Σ steps from the anchor to here; anchor: not summed yet
    std::size_t j = next_cost == infinite_cost ? anchor + 1 : last;
    while (j > anchor + 1) {
      const Cost straight = segment_cost(map, rule, path[anchor], path[j]);
      if (straight == infinite_cost) {
        --j;
        continue;
      }
      if (summed_to == anchor) {
        replaced = next_cost;  // the first step, allowed (else j would be anchor + 1)
        summed_to = anchor + 1;
        for (std::size_t k = anchor + 2; k <= j; ++k) {
          const Cost step = segment_cost(map, rule, path[k - 1], path[k]);
          if (step == infinite_cost) break;  // not allowed: no shortcut may pass over it
          replaced += step;
          summed_to = k;
        }
        if (summed_to < j) {  // j lies past a step that is not allowed
          j = summed_to;
          continue;
        }
      }
      for (; summed_to > j; --summed_to) replaced -= segment_cost(map, rule, path[summed_to - 1], path[summed_to]);
      if (straight <= replaced * slack) {
        next = j;
        next_cost = straight;
        break;
      }
      --j;
    }
    result.cost += next_cost;
    out.push_back(path[next]);
    anchor = next;
  }
  return result;
}

void compress_path(const GridMap& map, std::span<const CellId> path, std::vector<CellId>& out) {
  out.clear();
  for (const CellId c : path) {
    if (!out.empty() && out.back() == c) continue;
    if (out.size() >= 2 && is_cell(map, c) && is_cell(map, out.back()) && is_cell(map, out[out.size() - 2])) {
      const CellCoord a = map.coord(out[out.size() - 2]);
      const CellCoord b = map.coord(out.back());
      const std::int64_t ux = b.x - a.x;
      const std::int64_t uy = b.y - a.y;
      const std::int64_t vx = map.coord(c).x - b.x;
      const std::int64_t vy = map.coord(c).y - b.y;
      if (ux * vy == uy * vx && ux * vx + uy * vy > 0) out.pop_back();
    }
    out.push_back(c);
  }
}

bool expand_to_cells(const GridMap& map, std::span<const CellId> waypoints, std::vector<CellId>& out) {
  out.clear();
  if (!all_cells(map, waypoints)) return false;
  if (waypoints.empty()) return true;
  out.push_back(waypoints[0]);
  for (std::size_t i = 1; i < waypoints.size(); ++i) {
    (void)walk_segment(map.coord(waypoints[i - 1]), map.coord(waypoints[i]), [&](const SegmentPiece& p) {
      if (p.corner) return true;
      const CellId c = map.cell(p.cell.x, p.cell.y);
      if (out.back() != c) out.push_back(c);
      return true;
    });
  }
  return true;
}

bool interpolate_path(const GridMap& map, std::span<const CellId> waypoints, double spacing, std::vector<Vec3>& out) {
  out.clear();
  if (!(spacing > 0) || !std::isfinite(spacing) || !all_cells(map, waypoints)) return false;
  if (waypoints.empty()) return true;
  out.push_back(map.position(waypoints[0]));
  double start = 0;        // arc length at the current segment's start
  std::size_t placed = 1;  // the next point goes at placed × spacing (no running sum to drift)
  for (std::size_t i = 1; i < waypoints.size(); ++i) {
    const Vec3 a = map.position(waypoints[i - 1]);
    const Vec3 b = map.position(waypoints[i]);
    const double length = distance(a, b);
    for (double at = static_cast<double>(placed) * spacing; at <= start + length;
         at = static_cast<double>(placed) * spacing) {
      out.push_back(lerp(a, b, length > 0 ? (at - start) / length : 0.0));
      ++placed;
    }
    start += length;
  }
  const Vec3 end = map.position(waypoints.back());
  if (distance(out.back(), end) > spacing * end_point_slack) out.push_back(end);
  return true;
}

}  // namespace waymark::grid
