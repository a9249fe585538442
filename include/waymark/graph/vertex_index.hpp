#pragma once
/// @file VertexIndex: nearest-vertex queries by position over a uniform grid of buckets.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "waymark/core/broad_phase.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/graph/graph.hpp"

namespace waymark::graph {

struct VertexIndexParams {
  /// Smallest vertices_per_cell accepted; bounds the memory at about 12 buckets per vertex.
  static constexpr double min_vertices_per_cell = 0.25;
  /// Mean number of vertices per bucket the grid is sized for. Smaller: more buckets, fewer
  /// distance checks per query. [Limit: >= min_vertices_per_cell, finite]
  double vertices_per_cell = 2.0;
};

/// Buckets a graph's vertex positions into a uniform grid over their x–y bounding box, to
/// answer "which vertex is nearest to this point" without looking at every vertex.
///
/// Distances are 3D (x, y, z); the grid only spans x and y, which stays exact because the
/// horizontal distance never exceeds the 3D one. Keeps its own copy of the positions, so the
/// graph need not outlive it. Read-only after construction: share it among threads.
/// Memory: about 28 bytes per vertex + 4 per bucket (≤ 3·vertices / vertices_per_cell + 1 buckets).
class VertexIndex {
 public:
  /// O(V). Throws BuildError when the graph has no positions or `params` break their limits.
  explicit VertexIndex(const Graph& graph, VertexIndexParams params = {});

  /// The vertex nearest to `p` among those for which `accept(vertex)` returns true; ties go to
  /// the lowest id. nullopt when no vertex is accepted or `p` has a non-finite coordinate.
  /// Visits buckets in rings around `p` and stops once a ring cannot hold anything nearer, so
  /// a query costs about the vertices near `p`; a filter that rejects most vertices makes it
  /// scan further (all of them, at worst). `accept` is called only on vertices that would
  /// improve the result. Allocates nothing. Squared distances overflow beyond about 1e154
  /// units: vertices that far from `p` all tie (lowest id wins).
  template <class Filter>
  [[nodiscard]] std::optional<VertexId> nearest(Vec3 p, Filter&& accept) const {
    if (ids_.empty() || !std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return std::nullopt;
    const int cx = grid_.column_of(p.x), cy = grid_.row_of(p.y);
    const int last_ring = std::max({cx, grid_.columns - 1 - cx, cy, grid_.rows - 1 - cy});
    double best_d2 = std::numeric_limits<double>::infinity();
    VertexId best;
    const auto scan = [&](int x, int y) {
      if (bucket_distance2(p, x, y) > best_d2) return;
      const auto b = grid_.index(x, y);
      for (std::uint32_t i = bucket_start_[b]; i < bucket_start_[b + 1]; ++i) {
        const Vec3 q = positions_[i];
        const double dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
        const double d2 = dx * dx + dy * dy + dz * dz;
        if ((d2 < best_d2 || (d2 == best_d2 && ids_[i] < best)) && accept(ids_[i])) {
          best_d2 = d2;
          best = ids_[i];
        }
      }
    };
    for (int r = 0; r <= last_ring; ++r) {
      // Buckets r or more rings out lie at least r - 1 bucket widths from p.
      const double gap = std::max(0.0, (static_cast<double>(r) - 1 - boundary_slack) * grid_.side);
      if (gap * gap > best_d2) break;
      for_ring(cx, cy, r, grid_.columns, grid_.rows, scan);
    }
    if (!best.valid()) return std::nullopt;
    return best;
  }

  /// The vertex nearest to `p`; nullopt only for an empty graph or a non-finite `p`.
  [[nodiscard]] std::optional<VertexId> nearest(Vec3 p) const {
    return nearest(p, [](VertexId) { return true; });
  }

  [[nodiscard]] std::size_t vertex_count() const { return ids_.size(); }
  [[nodiscard]] std::size_t columns() const { return static_cast<std::size_t>(grid_.columns); }
  [[nodiscard]] std::size_t rows() const { return static_cast<std::size_t>(grid_.rows); }
  /// Bucket edge length, world units.
  [[nodiscard]] double cell_size() const { return grid_.side; }

 private:
  /// Widens every distance bound by this fraction of a bucket, so rounding in the bucket
  /// assignment of points (near-ties at the last bits) cannot prune the true nearest vertex.
  static constexpr double boundary_slack = 1e-6;

  /// Squared horizontal distance from p to bucket (x, y), less the slack: a lower bound for
  /// the distance to every vertex in it.
  [[nodiscard]] double bucket_distance2(Vec3 p, int x, int y) const {
    const auto axis = [&](double v, double lo) {
      const double hi = lo + grid_.side;
      return std::max(0.0, std::max(lo - v, v - hi) - boundary_slack * grid_.side);
    };
    const Vec2 lo = grid_.cell_min(x, y);
    const double dx = axis(p.x, lo.x);
    const double dy = axis(p.y, lo.y);
    return dx * dx + dy * dy;
  }

  UniformGrid grid_{{}, 1, 1, 1};
  std::vector<std::uint32_t> bucket_start_;  ///< columns·rows + 1 entries: bucket b is [start[b], start[b+1])
  std::vector<VertexId> ids_;                ///< vertices grouped by bucket
  std::vector<Vec3> positions_;            ///< positions_[i] is the position of ids_[i]
};

}  // namespace waymark::graph
