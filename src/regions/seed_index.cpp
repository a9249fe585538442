#include "waymark/regions/seed_index.hpp"

#include <cmath>
#include <string>

#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"

namespace waymark::regions {

namespace {

/// The seeds as the vertices of a graph without arcs, which is what VertexIndex indexes.
graph::Graph seed_points(std::span<const SeedArea> seeds) {
  if (seeds.empty()) throw BuildError("a seed index needs at least one seed");
  std::vector<Vec3> positions;
  positions.reserve(seeds.size());
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    const SeedArea& s = seeds[i];
    if (!std::isfinite(s.center.x) || !std::isfinite(s.center.y) || !std::isfinite(s.center.z))
      throw BuildError("seed " + number_text(i + 1) + ": the centre is not finite");
    if (!(s.radius >= 0)) throw BuildError("seed " + number_text(i + 1) + ": the radius must be >= 0");
    positions.push_back(s.center);
  }
  graph::GraphBuilder builder(seeds.size());
  builder.set_positions(std::move(positions), graph::Coordinates::xyz);
  return builder.build();
}

bool any_finite_radius(std::span<const SeedArea> seeds) {
  for (const SeedArea& s : seeds) {
    if (std::isfinite(s.radius)) return true;
  }
  return false;
}

}  // namespace

SeedIndex::SeedIndex(std::span<const SeedArea> seeds, graph::VertexIndexParams params)
    : seeds_(seeds.begin(), seeds.end()), bounded_(any_finite_radius(seeds)), index_(seed_points(seeds), params) {}

RegionId SeedIndex::nearest(Vec3 p) const {
  const auto v = index_.nearest(p);
  return v ? v->value : no_region;
}

RegionId SeedIndex::region_at(Vec3 p) const {
  if (!bounded_) return nearest(p);
  const auto v = index_.nearest(p, [&](VertexId s) {
    const SeedArea& a = seeds_[s.value];
    return length_squared(p - a.center) <= a.radius * a.radius;
  });
  return v ? v->value : no_region;
}

}  // namespace waymark::regions
