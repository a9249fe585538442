#pragma once
/// @file Paths as polylines in world units: what searches hand to smoothing, movement and
/// rendering. Any world whose `position(node)` gives a Vec3 (GridMap: cell centres, z = 0;
/// Graph: vertex positions) turns a path of its nodes into points.

#include <concepts>
#include <cstddef>
#include <ranges>
#include <span>
#include <vector>

#include "waymark/core/geometry.hpp"

namespace waymark {

/// A world that places its nodes in space.
template <class World, class Node>
concept PositionedWorld = requires(const World& world, const Node& node) {
  { world.position(node) } -> std::convertible_to<Vec3>;
};

/// The world positions of `nodes`, in order, into `out` (cleared first; its capacity is kept,
/// so reuse does not allocate).
template <class World, std::ranges::input_range Nodes>
  requires PositionedWorld<World, std::ranges::range_value_t<Nodes>>
void to_polyline(const World& world, const Nodes& nodes, std::vector<Vec3>& out) {
  out.clear();
  for (const auto& n : nodes) out.push_back(world.position(n));
}

/// The same, returned.
template <class World, std::ranges::input_range Nodes>
  requires PositionedWorld<World, std::ranges::range_value_t<Nodes>>
[[nodiscard]] std::vector<Vec3> to_polyline(const World& world, const Nodes& nodes) {
  std::vector<Vec3> out;
  to_polyline(world, nodes, out);
  return out;
}

/// The sum of the segment lengths (0 for fewer than two points).
[[nodiscard]] inline double polyline_length(std::span<const Vec3> points) {
  double total = 0;
  for (std::size_t i = 1; i < points.size(); ++i) total += distance(points[i - 1], points[i]);
  return total;
}

}  // namespace waymark
