#include "waymark/grid/line_of_sight.hpp"

#include <cmath>

namespace waymark::grid {
namespace {

/// Walks the segment, refusing it at the first blocked cell or forbidden corner; `pass(cell,
/// enter, leave)` is called for every cell passed through.
template <class Pass>
bool walk_allowed(const GridMap& map, DiagonalRule rule, CellCoord a, CellCoord b, Pass&& pass) {
  if (!map.in_bounds(a.x, a.y) || !map.in_bounds(b.x, b.y)) return false;
  return walk_segment(a, b, [&](const SegmentPiece& p) {
    // Both side cells of a corner lie inside the box spanned by a and b, so in bounds.
    if (p.corner) return diagonal_rule_allows(rule, map.passable(p.cell.x, p.cell.y), map.passable(p.side.x, p.side.y));
    const CellId c = map.cell(p.cell.x, p.cell.y);
    if (!map.passable(c)) return false;
    pass(c, p.enter, p.leave);
    return true;
  });
}

}  // namespace

Cost segment_cost(const GridMap& map, DiagonalRule rule, CellCoord a, CellCoord b) {
  const bool uniform = !map.has_costs();
  // Σ multiplier × (leave − enter): integer spans, so with multipliers of 1 it is the
  // denominator exactly.
  double weighted = 0;
  const bool clear = walk_allowed(map, rule, a, b, [&](CellId c, std::int64_t enter, std::int64_t leave) {
    if (!uniform) weighted += map.cost_multiplier(c) * static_cast<double>(leave - enter);
  });
  if (!clear) return infinite_cost;
  const auto dx = static_cast<double>(b.x - a.x);
  const auto dy = static_cast<double>(b.y - a.y);
  // cell_size first, as GridMap multiplies its step lengths: √2 here is the same double as
  // diagonal_step, and move_cost's length × 0.5 × (m_a + m_b) rounds as length × (Σ / 2).
  const double length = map.cell_size() * std::sqrt(dx * dx + dy * dy);
  if (uniform) return length;
  return length * (weighted / static_cast<double>(segment_denominator(a, b)));
}

bool line_of_sight(const GridMap& map, DiagonalRule rule, CellCoord a, CellCoord b) {
  return walk_allowed(map, rule, a, b, [](CellId, std::int64_t, std::int64_t) {});
}

}  // namespace waymark::grid
