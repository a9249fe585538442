#pragma once
/// @file The funnel algorithm (string pulling): the shortest path through a corridor of
/// portals, as corner points.

#include <span>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/core/polyline.hpp"

namespace waymark::navmesh {

/// A gap the path passes through: its left and right end as the traveller sees them.
struct Portal {
  Vec3 left;
  Vec3 right;
};

/// The taut path from `start` to `goal` through `portals` in order, tested in plan (x, z): the
/// corners it bends at, with `start` first and `goal` last, written to `corners` (cleared
/// first; its capacity is reused). Each corner is a portal end point, at that point's height.
void string_pull(Vec3 start, Vec3 goal, std::span<const Portal> portals, std::vector<Vec3>& corners);

/// The 3D length of a polyline (Detour measures its straight paths so): core's, named here
/// too for the code that called it navmesh::polyline_length.
using waymark::polyline_length;

}  // namespace waymark::navmesh
