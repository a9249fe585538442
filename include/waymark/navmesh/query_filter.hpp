#pragma once
/// @file Which polygons a navmesh query may use and what crossing them costs, as Detour's
/// dtQueryFilter has it: include and exclude flag masks, and a cost per area type.

#include <array>
#include <cstdint>

#include "waymark/core/cost.hpp"

namespace waymark::navmesh {

/// Area types a polygon may have (0 … max_areas - 1), as in Detour.
inline constexpr std::size_t max_areas = 64;

/// A polygon passes when it has at least one flag of `include` and none of `exclude`; crossing
/// it costs its length times `area_cost[its area]` (each ≥ 1 keeps the straight-line
/// heuristic admissible, and is required).
struct QueryFilter {
  std::uint16_t include = 0xffff;
  std::uint16_t exclude = 0;
  std::array<Cost, max_areas> area_cost = filled(1.0);

  [[nodiscard]] constexpr bool passes(std::uint16_t flags) const {
    return (flags & include) != 0 && (flags & exclude) == 0;
  }

 private:
  static constexpr std::array<Cost, max_areas> filled(Cost c) {
    std::array<Cost, max_areas> a{};
    a.fill(c);
    return a;
  }
};

}  // namespace waymark::navmesh
