#pragma once
/// @file SpatialHash: the points within a radius of a query point, through a uniform grid of
/// square cells hashed into a table of 2n buckets (so the grid may be unbounded and sparse).
/// rebuild() is a counting sort of the points into their buckets: O(n), and no allocation once
/// it has seen as many points. Queries are const and keep no scratch (any number of threads).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "waymark/core/geometry.hpp"

namespace waymark::steer {

class SpatialHash {
 public:
  /// Sorts `points` into square cells of side `cell` (world units, [Limit: > 0, finite]; a
  /// query of radius r visits about (2r / cell + 1)² cells). The points are copied: the span
  /// need not outlive the call. Allocates only when the point count exceeds every earlier one.
  void rebuild(std::span<const Vec2> points, double cell);

  /// Calls f(index, distance_squared) for every point within `radius` of `p` (closed disc),
  /// index being the point's position in the span given to rebuild(). The order is fixed by
  /// the points and the query alone: the cells row by row (y, then x), each cell's points by
  /// increasing index (a radius covering more cells than the table has buckets scans the table
  /// once instead, in its own order). A non-finite or negative radius finds nothing; points
  /// with non-finite coordinates are never found. O(cells visited + points in them).
  template <class F>
  void for_each_within(Vec2 p, double radius, F&& f) const;

  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  [[nodiscard]] double cell_size() const { return cell_; }

 private:
  struct Entry {
    Vec2 p;
    std::uint32_t index;
    std::int32_t cx;
    std::int32_t cy;
  };

  /// Cell coordinate of a world coordinate, clamped to int32 (NaN goes to 0); queries clamp
  /// the same way, so far-out points share the border cell and are still found once.
  [[nodiscard]] std::int32_t cell_coordinate(double v) const {
    constexpr double lo = std::numeric_limits<std::int32_t>::min();
    constexpr double hi = std::numeric_limits<std::int32_t>::max();
    const double c = std::floor(v * inv_cell_);
    if (!(c >= lo)) return c < lo ? std::numeric_limits<std::int32_t>::min() : 0;
    return c > hi ? std::numeric_limits<std::int32_t>::max() : static_cast<std::int32_t>(c);
  }
  [[nodiscard]] std::uint32_t bucket(std::int32_t cx, std::int32_t cy) const {
    const std::uint64_t key = (std::uint64_t{static_cast<std::uint32_t>(cx)} << 32) | static_cast<std::uint32_t>(cy);
    return static_cast<std::uint32_t>((key * 0x9e3779b97f4a7c15ull) >> shift_);  // Fibonacci hashing
  }

  double cell_ = 1.0;
  double inv_cell_ = 1.0;
  unsigned shift_ = 63;                      // 64 − log2(bucket count)
  std::vector<std::uint32_t> bucket_start_;  // bucket b holds entries_[start[b], start[b + 1])
  std::vector<std::uint32_t> bucket_of_;     // per point, scratch of the sort
  std::vector<Entry> entries_;
};

template <class F>
void SpatialHash::for_each_within(Vec2 p, double radius, F&& f) const {
  if (!(radius >= 0) || !std::isfinite(radius) || entries_.empty()) return;
  const double r2 = radius * radius;
  const auto visit = [&](const Entry& e) {
    const double d2 = length_squared(e.p - p);
    if (d2 <= r2) f(static_cast<std::size_t>(e.index), d2);
  };
  const std::int32_t x0 = cell_coordinate(p.x - radius), x1 = cell_coordinate(p.x + radius);
  const std::int32_t y0 = cell_coordinate(p.y - radius), y1 = cell_coordinate(p.y + radius);
  const double cells = (double{1} + x1 - x0) * (double{1} + y1 - y0);
  if (!(cells <= static_cast<double>(bucket_start_.size()))) {  // also NaN query points
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return;
    for (const Entry& e : entries_) visit(e);
    return;
  }
  for (std::int64_t cy = y0; cy <= y1; ++cy) {
    for (std::int64_t cx = x0; cx <= x1; ++cx) {
      const auto ix = static_cast<std::int32_t>(cx), iy = static_cast<std::int32_t>(cy);
      const std::uint32_t b = bucket(ix, iy);
      for (std::uint32_t k = bucket_start_[b], end = bucket_start_[b + 1]; k < end; ++k) {
        const Entry& e = entries_[k];
        if (e.cx == ix && e.cy == iy) visit(e);  // other cells may share the bucket
      }
    }
  }
}

}  // namespace waymark::steer
