#pragma once
/// @file Path cost type and its constants.

#include <limits>

namespace waymark {

/// Accumulated path cost (world units × cost multipliers). Always >= 0 for valid edges.
using Cost = double;

inline constexpr Cost infinite_cost = std::numeric_limits<Cost>::infinity();

}  // namespace waymark
