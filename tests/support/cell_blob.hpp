#pragma once
// The edits of the re-planning tests and benchmark: a blob of passable cells around a point.

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "waymark/grid/grid_map.hpp"

namespace waymark::test {

/// Up to k passable cells nearest to `centre` (square rings), leaving out `keep_a` and `keep_b`.
inline std::vector<grid::CellCoord> blob(const grid::GridMap& map, grid::CellCoord centre, int k, CellId keep_a,
                                         CellId keep_b) {
  std::vector<grid::CellCoord> out;
  for (int r = 0; static_cast<int>(out.size()) < k && r < std::max(map.width(), map.height()); ++r) {
    for (int y = centre.y - r; y <= centre.y + r && static_cast<int>(out.size()) < k; ++y) {
      for (int x = centre.x - r; x <= centre.x + r && static_cast<int>(out.size()) < k; ++x) {
        if (std::max(std::abs(x - centre.x), std::abs(y - centre.y)) != r || !map.passable(x, y)) continue;
        const CellId c = map.cell(x, y);
        if (c != keep_a && c != keep_b) out.push_back({x, y});
      }
    }
  }
  return out;
}

}  // namespace waymark::test
