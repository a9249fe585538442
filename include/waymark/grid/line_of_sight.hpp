#pragma once
/// @file Exact line of sight on a GridMap: the cells a straight segment between two cell
/// centres passes through, found in integer arithmetic, judged under a diagonal rule and
/// costed under terrain. Shared by path smoothing and any-angle search (Theta*). The rules are
/// explained in docs/smoothing.md.

#include <cstdint>

#include "waymark/core/cost.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/moves.hpp"

namespace waymark::grid {

/// One piece of a segment's walk over the grid.
///
/// A segment from the centre of a to the centre of b runs over the parameter t in [0, 1];
/// the walk reports t as integer numerators over segment_denominator(a, b), so every crossing
/// is exact. Two kinds of pieces, in order along the segment:
/// - `passes`: the segment runs through the inside of `cell` for t in [enter, leave]
///   (enter < leave; the first piece is a's cell, the last b's);
/// - `corner`: the segment passes exactly through a cell corner, from the cell before to the
///   cell diagonally after it; `cell` and `side` are the two other cells at that corner, which
///   the segment touches in that one point only (enter = leave = the corner's t).
/// A segment between two cell centres never runs along a grid line (centres sit at
/// half-integers, so an axis-parallel segment lies halfway between two lines, and any other
/// segment crosses lines transversally): these two kinds are every way it can meet a cell.
struct SegmentPiece {
  CellCoord cell;
  CellCoord side;  ///< corner pieces: the second side cell
  bool corner = false;
  std::int64_t enter = 0;
  std::int64_t leave = 0;
};

/// |a − b| without overflow for any two ints.
[[nodiscard]] constexpr std::int64_t coordinate_distance(int a, int b) {
  return a > b ? static_cast<std::int64_t>(a) - b : static_cast<std::int64_t>(b) - a;
}

/// The common denominator of a segment's t values: 2·max(|dx|,1)·max(|dy|,1). Below 2^34 on
/// any map GridMap accepts.
[[nodiscard]] constexpr std::int64_t segment_denominator(CellCoord a, CellCoord b) {
  const std::int64_t nx = coordinate_distance(a.x, b.x);
  const std::int64_t ny = coordinate_distance(a.y, b.y);
  return 2 * (nx == 0 ? 1 : nx) * (ny == 0 ? 1 : ny);
}

/// Walks the segment between the centres of a and b (any coordinates, no map needed) and calls
/// `visit(const SegmentPiece&)` for each piece in order; `visit` returns false to stop the walk.
/// Returns false when it was stopped. O(|dx| + |dy|) steps, integer arithmetic only, no
/// allocation.
///
/// In doubled coordinates the centres are odd integers and cell edges even ones, so the m-th
/// vertical line crossed lies at t = (2m−1)/(2|dx|) and the n-th horizontal one at
/// (2n−1)/(2|dy|); comparing (2m−1)·|dy| with (2n−1)·|dx| orders them exactly, and equality is
/// a corner.
template <class Visit>
bool walk_segment(CellCoord a, CellCoord b, Visit&& visit) {
  const std::int64_t nx = coordinate_distance(a.x, b.x);
  const std::int64_t ny = coordinate_distance(a.y, b.y);
  const int sx = b.x > a.x ? 1 : -1;
  const int sy = b.y > a.y ? 1 : -1;
  const std::int64_t wide = nx == 0 ? 1 : nx;
  const std::int64_t tall = ny == 0 ? 1 : ny;
  const std::int64_t end = 2 * wide * tall;
  // Next vertical and horizontal line crossings (numerators of t); past `end` once none is left.
  std::int64_t next_v = nx == 0 ? end + 1 : tall;
  std::int64_t next_h = ny == 0 ? end + 1 : wide;
  CellCoord at = a;
  std::int64_t enter = 0;
  for (;;) {
    const std::int64_t crossing = next_v < next_h ? next_v : next_h;
    const std::int64_t leave = crossing < end ? crossing : end;
    if (!visit(SegmentPiece{at, at, false, enter, leave})) return false;
    if (leave == end) return true;
    if (next_v == next_h) {
      const SegmentPiece corner{{at.x + sx, at.y}, {at.x, at.y + sy}, true, leave, leave};
      if (!visit(corner)) return false;
      at.x += sx;
      at.y += sy;
      next_v += 2 * tall;
      next_h += 2 * wide;
    } else if (next_v < next_h) {
      at.x += sx;
      next_v += 2 * tall;
    } else {
      at.y += sy;
      next_h += 2 * wide;
    }
    enter = leave;
  }
}

/// Cost of moving straight from the centre of a to the centre of b, or infinite_cost when the
/// segment is not allowed under `rule`:
/// - every cell it passes through must be passable (a and b included, both in bounds);
/// - at a corner it passes exactly through, the two side cells decide as for a diagonal step:
///   `no_corner_cutting` needs both passable, `at_most_one_obstacle` one, `always` none, and
///   `never` (4-connected) refuses every corner: a 4-connected segment crosses cells only
///   through shared edges.
/// The cost is Σ over the cells passed of (length inside the cell × its cost multiplier), in
/// world units: for one cardinal or diagonal step it equals GridMap::move_cost exactly (the
/// same operations in the same order), and on a map without costs it is the length.
/// O(|dx| + |dy|), no allocation.
[[nodiscard]] Cost segment_cost(const GridMap& map, DiagonalRule rule, CellCoord a, CellCoord b);
[[nodiscard]] inline Cost segment_cost(const GridMap& map, DiagonalRule rule, CellId a, CellId b) {
  return segment_cost(map, rule, map.coord(a), map.coord(b));
}

/// Whether segment_cost() would allow the segment (without summing its costs).
[[nodiscard]] bool line_of_sight(const GridMap& map, DiagonalRule rule, CellCoord a, CellCoord b);

}  // namespace waymark::grid
