#pragma once
// Grids of disjoint blocked rectangles, and the same obstacles as polygons for the visibility
// module: the true Euclidean shortest path over the grid's obstacles. Shared by the smoothing
// tests and the any-angle benchmark (no GoogleTest here, so benchmarks can include it).

#include <algorithm>
#include <random>
#include <vector>

#include "waymark/grid/grid_map.hpp"
#include "waymark/visibility/visibility_graph.hpp"

namespace waymark::test {

struct RectangleMapSpec {
  int width;
  int height;
  int count;         ///< rectangles wanted (fewer when the tries run out)
  int max_side = 4;  ///< each side 1..max_side cells (clipped at the border)
  int tries = 200;   ///< random placements tried
};

/// Disjoint blocked rectangles at least one free cell apart (so no two walls meet at a corner):
/// on such maps the obstacles as polygons are exactly the blocked cells. `rects` gets them.
inline grid::GridMap rectangle_map(std::mt19937& rng, const RectangleMapSpec& spec, std::vector<grid::CellRect>& rects) {
  using grid::CellRect;
  const int w = spec.width, h = spec.height;
  grid::GridMap map(w, h);
  rects.clear();
  std::uniform_int_distribution<int> px(0, w - 1), py(0, h - 1), size(1, spec.max_side);
  for (int tries = 0; tries < spec.tries && static_cast<int>(rects.size()) < spec.count; ++tries) {
    const CellRect r{px(rng), py(rng), 0, 0};
    const CellRect full{r.x0, r.y0, std::min(w, r.x0 + size(rng)), std::min(h, r.y0 + size(rng))};
    bool clear = true;
    for (const CellRect& o : rects) {
      const CellRect grown = o.grown(1);
      if (full.x0 < grown.x1 && grown.x0 < full.x1 && full.y0 < grown.y1 && grown.y0 < full.y1) clear = false;
    }
    if (!clear) continue;
    rects.push_back(full);
    map.set_passable(full, false);
  }
  return map;
}

/// The rectangles as square polygons in world units (the map's origin and cell size), the
/// map's extent as bounds: for visibility::VisibilityGraph at radius 0.
inline visibility::Obstacles rectangle_obstacles(const grid::GridMap& map, const std::vector<grid::CellRect>& rects) {
  const double s = map.cell_size();
  const Vec2 o = map.params().origin;
  visibility::Obstacles obstacles;
  for (const grid::CellRect& r : rects) {
    const double x0 = o.x + r.x0 * s, y0 = o.y + r.y0 * s;
    const double x1 = o.x + r.x1 * s, y1 = o.y + r.y1 * s;
    obstacles.polygons.push_back({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}});
  }
  obstacles.bounds = Aabb2{o, {o.x + map.width() * s, o.y + map.height() * s}};
  return obstacles;
}

}  // namespace waymark::test
