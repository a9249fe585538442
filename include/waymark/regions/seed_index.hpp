#pragma once
/// @file SeedIndex: which seed a point belongs to by straight-line distance — the nearest
/// seed (Dirichlet domains), or the nearest among seed areas of limited radius that contain
/// the point (areas may overlap; outside all of them a point is in no region).

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/graph/vertex_index.hpp"
#include "waymark/regions/regions.hpp"

namespace waymark::regions {

/// A seed point and the radius of its area.
struct SeedArea {
  Vec3 center;  ///< world units. [Limit: finite]
  /// The area is the ball of this radius around `center`, world units; infinite: unbounded
  /// (plain nearest-seed regions). [Limit: >= 0, not NaN]
  double radius = std::numeric_limits<double>::infinity();
};

/// Nearest-seed queries over a uniform bucket grid (graph::VertexIndex over the seeds).
///
/// Distances are 3D; ties go to the lowest seed index. Read-only after construction: share it
/// among threads. Queries allocate nothing and never throw. Memory: about 36 bytes per seed.
class SeedIndex {
 public:
  /// O(seeds). Throws BuildError when there are no seeds, a centre is not finite, or a radius
  /// is negative or NaN.
  explicit SeedIndex(std::span<const SeedArea> seeds, graph::VertexIndexParams params = {});

  [[nodiscard]] std::size_t size() const { return seeds_.size(); }
  [[nodiscard]] const SeedArea& seed(RegionId r) const { return seeds_[r]; }

  /// The nearest seed, whatever the radii; no_region for a point with a non-finite coordinate.
  /// Costs about the seeds near `p`.
  [[nodiscard]] RegionId nearest(Vec3 p) const;
  /// The nearest seed whose area contains `p` (distance <= radius): the region an object at `p`
  /// is in when areas overlap. no_region when no area contains it. With every radius infinite
  /// this is nearest(); otherwise a point far from every area makes it look at all seeds.
  [[nodiscard]] RegionId region_at(Vec3 p) const;

 private:
  std::vector<SeedArea> seeds_;
  bool bounded_ = false;  ///< some radius is finite
  graph::VertexIndex index_;
};

}  // namespace waymark::regions
