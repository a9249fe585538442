#include "waymark/graph/generate.hpp"

#include <random>
#include <vector>

#include "waymark/core/errors.hpp"

namespace waymark::graph {

Graph generate_road_network(const RoadNetworkParams& p) {
  if (p.columns == 0 || p.rows == 0 || static_cast<std::uint64_t>(p.columns) * p.rows >= VertexId::invalid_value)
    throw BuildError("road network size out of range");
  if (!(p.jitter >= 0 && p.jitter < 0.5) || !(p.street_speed > 0) || !(p.highway_speed > 0) ||
      !(p.street_kept >= 0 && p.street_kept <= 1) || !(p.one_way >= 0 && p.one_way <= 1) || !(p.max_detour >= 0))
    throw BuildError("road network parameter out of range");
  std::mt19937_64 rng(p.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const std::size_t n = static_cast<std::size_t>(p.columns) * p.rows;
  const auto id = [&](std::uint32_t x, std::uint32_t y) { return VertexId{y * p.columns + x}; };

  std::vector<Vec3> positions(n);
  for (std::uint32_t y = 0; y < p.rows; ++y) {
    for (std::uint32_t x = 0; x < p.columns; ++x) {
      const double jx = (2 * unit(rng) - 1) * p.jitter, jy = (2 * unit(rng) - 1) * p.jitter;
      positions[id(x, y).value] = {(x + jx) * p.spacing, (y + jy) * p.spacing, 0};
    }
  }

  GraphBuilder b(n);
  b.reserve_arcs(4 * n);
  const auto is_highway_line = [&](std::uint32_t i) { return p.highway_every != 0 && i % p.highway_every == 0; };
  // One segment between neighbouring intersections a and b; `highway`: the line it lies on.
  const auto add_segment = [&](VertexId a, VertexId c, bool highway) {
    const double length = distance(positions[a.value], positions[c.value]);
    if (highway) {
      b.add_undirected_edge(a, c, length / p.highway_speed);
      return;
    }
    if (unit(rng) >= p.street_kept) return;
    const double time = length * (1 + p.max_detour * unit(rng)) / p.street_speed;
    if (unit(rng) < p.one_way) {
      const bool forward = unit(rng) < 0.5;
      b.add_edge(forward ? a : c, forward ? c : a, time);
    } else {
      b.add_undirected_edge(a, c, time);
    }
  };
  for (std::uint32_t y = 0; y < p.rows; ++y) {
    for (std::uint32_t x = 0; x < p.columns; ++x) {
      if (x + 1 < p.columns) add_segment(id(x, y), id(x + 1, y), is_highway_line(y));
      if (y + 1 < p.rows) add_segment(id(x, y), id(x, y + 1), is_highway_line(x));
    }
  }
  b.set_positions(std::move(positions), Coordinates::xy);
  return b.build();
}

}  // namespace waymark::graph
