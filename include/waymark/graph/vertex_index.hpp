#pragma once
/// @file VertexIndex: nearest-vertex queries by position over a uniform grid of buckets.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

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
    const std::int64_t cx = column_of(p.x), cy = row_of(p.y);
    const std::int64_t cols = columns_, rows = rows_;
    const std::int64_t last_ring = std::max({cx, cols - 1 - cx, cy, rows - 1 - cy});
    double best_d2 = std::numeric_limits<double>::infinity();
    VertexId best;
    const auto scan = [&](std::int64_t x, std::int64_t y) {
      if (bucket_distance2(p, x, y) > best_d2) return;
      const auto b = static_cast<std::size_t>(y * cols + x);
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
    for (std::int64_t r = 0; r <= last_ring; ++r) {
      // Buckets r or more rings out lie at least r - 1 bucket widths from p.
      const double gap = std::max(0.0, (static_cast<double>(r) - 1 - boundary_slack) * cell_size_);
      if (gap * gap > best_d2) break;
      // The ring's rows cy ± r and columns cx ± r, clipped to the grid.
      const std::int64_t x0 = std::max<std::int64_t>(cx - r, 0), x1 = std::min(cx + r, cols - 1);
      const std::int64_t y0 = std::max<std::int64_t>(cy - r + 1, 0), y1 = std::min(cy + r - 1, rows - 1);
      if (cy - r >= 0)
        for (std::int64_t x = x0; x <= x1; ++x) scan(x, cy - r);
      if (r == 0) continue;
      if (cy + r < rows)
        for (std::int64_t x = x0; x <= x1; ++x) scan(x, cy + r);
      if (cx - r >= 0)
        for (std::int64_t y = y0; y <= y1; ++y) scan(cx - r, y);
      if (cx + r < cols)
        for (std::int64_t y = y0; y <= y1; ++y) scan(cx + r, y);
    }
    if (!best.valid()) return std::nullopt;
    return best;
  }

  /// The vertex nearest to `p`; nullopt only for an empty graph or a non-finite `p`.
  [[nodiscard]] std::optional<VertexId> nearest(Vec3 p) const {
    return nearest(p, [](VertexId) { return true; });
  }

  [[nodiscard]] std::size_t vertex_count() const { return ids_.size(); }
  [[nodiscard]] std::size_t columns() const { return columns_; }
  [[nodiscard]] std::size_t rows() const { return rows_; }
  /// Bucket edge length, world units.
  [[nodiscard]] double cell_size() const { return cell_size_; }

 private:
  /// Widens every distance bound by this fraction of a bucket, so rounding in the bucket
  /// assignment of points (near-ties at the last bits) cannot prune the true nearest vertex.
  static constexpr double boundary_slack = 1e-6;

  /// Column of world x, clamped into the grid (points outside use the border buckets).
  [[nodiscard]] std::int64_t column_of(double x) const { return clamp_cell((x - min_x_) / cell_size_, columns_); }
  [[nodiscard]] std::int64_t row_of(double y) const { return clamp_cell((y - min_y_) / cell_size_, rows_); }
  static std::int64_t clamp_cell(double q, std::uint32_t count) {
    return static_cast<std::int64_t>(std::clamp(std::floor(q), 0.0, static_cast<double>(count - 1)));
  }

  /// Squared horizontal distance from p to bucket (x, y), less the slack: a lower bound for
  /// the distance to every vertex in it.
  [[nodiscard]] double bucket_distance2(Vec3 p, std::int64_t x, std::int64_t y) const {
    const auto axis = [&](double v, double lo) {
      const double hi = lo + cell_size_;
      return std::max(0.0, std::max(lo - v, v - hi) - boundary_slack * cell_size_);
    };
    const double dx = axis(p.x, min_x_ + static_cast<double>(x) * cell_size_);
    const double dy = axis(p.y, min_y_ + static_cast<double>(y) * cell_size_);
    return dx * dx + dy * dy;
  }

  double min_x_ = 0;
  double min_y_ = 0;
  double cell_size_ = 1;
  std::uint32_t columns_ = 1;
  std::uint32_t rows_ = 1;
  std::vector<std::uint32_t> bucket_start_;  ///< columns·rows + 1 entries: bucket b is [start[b], start[b+1])
  std::vector<VertexId> ids_;                ///< vertices grouped by bucket
  std::vector<Vec3> positions_;            ///< positions_[i] is the position of ids_[i]
};

}  // namespace waymark::graph
