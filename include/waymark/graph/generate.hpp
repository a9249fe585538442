#pragma once
/// @file A seeded generator of road-like graphs, for benchmarks and tests: a perturbed planar
/// grid of streets, some one-way, some missing, crossed by faster highways.

#include <cstddef>
#include <cstdint>

#include "waymark/graph/graph.hpp"

namespace waymark::graph {

struct RoadNetworkParams {
  std::uint32_t columns = 1000;  ///< intersections per row. [Limit: >= 1]
  std::uint32_t rows = 1000;     ///< rows of intersections. [Limit: >= 1, columns·rows < 2^32]
  double spacing = 100.0;        ///< distance between neighbouring intersections, world units
  /// Each intersection moves by up to this fraction of `spacing` in x and y. [Limit: [0, 0.5)]
  double jitter = 0.3;
  double street_kept = 0.9;    ///< probability a street segment exists. [Limit: [0, 1]]
  double one_way = 0.2;        ///< probability a kept street is one-way (random direction)
  /// A segment's weight is its travel time: length × detour / speed, with detour drawn
  /// uniformly from [1, 1 + max_detour] (roads are never shorter than the straight line).
  double max_detour = 0.25;
  std::uint32_t highway_every = 50;  ///< every n-th row and column is a two-way highway; 0: none
  double street_speed = 1.0;         ///< world units per time unit. [Limit: > 0]
  double highway_speed = 2.5;        ///< [Limit: > 0]
  std::uint64_t seed = 1;
};

/// The network: vertex y·columns + x is intersection (x, y), with 2D positions. Highway
/// segments always exist and are two-way. Weights ≥ length / highway_speed, so
/// EuclideanHeuristic with scale 1 / highway_speed is admissible. Deterministic for a seed on
/// one standard library. O(columns·rows).
[[nodiscard]] Graph generate_road_network(const RoadNetworkParams& params);

}  // namespace waymark::graph
