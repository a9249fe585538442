#pragma once
/// @file Regions: a world's elements (grid cells, graph vertices, navmesh polygons) labelled
/// with the seed they belong to, their distance to it, the size of each region and the region
/// adjacency graph. Built by the functions in labeling.hpp; immutable afterwards.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/graph/graph.hpp"

namespace waymark::regions {

/// A region: the index of its seed in the list the regions were built from.
using RegionId = std::uint32_t;
/// The label of an element no seed reaches (geodesic), and of blocked cells.
inline constexpr RegionId no_region = std::numeric_limits<RegionId>::max();

/// How the elements were assigned to seeds.
enum class Metric : std::uint8_t {
  geodesic,   ///< the seed nearest by path cost (multi-source Dijkstra over the world's moves)
  euclidean,  ///< the seed nearest in a straight line (walls ignored: the Dirichlet domain)
};

/// Two regions that touch: an element of one has a move (grid), an arc (graph) or a shared
/// edge (navmesh) to an element of the other.
struct RegionBorder {
  RegionId a = no_region;  ///< a < b
  RegionId b = no_region;
  /// The cheapest crossing: min over border moves e → s of distance(e) + cost(e, s) +
  /// distance(s), the length of a seed-to-seed route through the border (exact for geodesic
  /// regions on worlds whose moves cost the same both ways; an estimate otherwise).
  Cost cost = 0;
  friend bool operator==(const RegionBorder&, const RegionBorder&) = default;
};

/// Elements labelled by seed. Element indices are those of the world's search space: CellId
/// values for grids, VertexId values for graphs, PolyId values for navmeshes.
///
/// Immutable and read-only: share it among threads. Memory: 12 bytes per element, plus the
/// adjacency graph (a graph::Graph over the regions: 4 bytes per region and 12 per arc, 24 per
/// region for the seed positions when the world has positions).
class Regions {
 public:
  Regions() = default;

  [[nodiscard]] Metric metric() const { return metric_; }
  [[nodiscard]] std::size_t region_count() const { return seeds_.size(); }
  [[nodiscard]] std::size_t element_count() const { return labels_.size(); }

  /// The region of an element, or no_region (unreached, or blocked). [Limit: element < element_count()]
  [[nodiscard]] RegionId label(std::size_t element) const { return labels_[element]; }
  /// The element's distance to its region's seed (path cost or straight line, world units);
  /// infinite_cost for no_region.
  [[nodiscard]] Cost distance(std::size_t element) const { return distances_[element]; }
  [[nodiscard]] std::span<const RegionId> labels() const { return labels_; }
  [[nodiscard]] std::span<const Cost> distances() const { return distances_; }

  /// The element each region grew from.
  [[nodiscard]] std::uint32_t seed(RegionId r) const { return seeds_[r]; }
  [[nodiscard]] std::span<const std::uint32_t> seeds() const { return seeds_; }
  /// Elements per region (its seed included).
  [[nodiscard]] std::span<const std::uint32_t> sizes() const { return sizes_; }
  /// Traversable elements no seed reaches (always 0 for euclidean regions).
  [[nodiscard]] std::size_t unreached() const { return unreached_; }

  /// The region adjacency graph: vertex r is region r, with one arc each way per border,
  /// weighted by RegionBorder::cost; positioned at the seeds when the world has positions.
  [[nodiscard]] const graph::Graph& adjacency() const { return adjacency_; }
  /// Every border once, sorted by (a, b).
  [[nodiscard]] std::span<const RegionBorder> borders() const { return borders_; }

  /// The version of the world (GridMap::version(), Graph::version()) the labels were computed
  /// for; 0 for navmeshes, which do not change.
  [[nodiscard]] std::uint64_t world_version() const { return world_version_; }

 private:
  friend class RegionsBuilder;

  Metric metric_ = Metric::geodesic;
  std::vector<RegionId> labels_;
  std::vector<Cost> distances_;
  std::vector<std::uint32_t> seeds_;
  std::vector<std::uint32_t> sizes_;
  std::size_t unreached_ = 0;
  std::vector<RegionBorder> borders_;
  graph::Graph adjacency_;
  std::uint64_t world_version_ = 0;
};

}  // namespace waymark::regions
