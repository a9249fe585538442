#pragma once
// ORCA's half-planes for static edges (ObstacleLines), used by OrcaSolver (orca.cpp).
// Internal to the steer module.

#include <cstdint>
#include <vector>

#include "waymark/steer/obstacle_lines.hpp"
#include "waymark/steer/orca.hpp"

namespace waymark::steer::detail {

/// Appends to `planes` the half-planes of velocities with which an agent at `position`
/// (velocity now `velocity`, radius `radius` against walls) reaches none of the edges of
/// `lines` on `mask` within `horizon` seconds: the edges within radius + max_speed × horizon,
/// nearest first (ties by index), an edge skipped when an earlier half-plane already forbids
/// all of it. The agent takes the whole avoidance (the walls do not move). `found` is scratch.
void add_obstacle_planes(const ObstacleLines& lines, Vec2 position, Vec2 velocity, double radius, double max_speed,
                         LayerMask mask, double horizon, std::vector<EdgeNear>& found, std::vector<HalfPlane>& planes);

}  // namespace waymark::steer::detail
