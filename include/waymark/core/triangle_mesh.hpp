#pragma once
/// @file A triangle soup in 3D: what a model file holds and what a navigation mesh is built
/// from. Y is up, as in Wavefront OBJ files, Recast and Detour.

#include <array>
#include <cstdint>
#include <vector>

#include "waymark/core/geometry.hpp"

namespace waymark {

/// Vertices and the triangles over them (three vertex indices each, counter-clockwise seen
/// from above for a walkable floor, as modelling tools write them).
struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;
};

}  // namespace waymark
