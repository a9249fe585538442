#include "waymark/graph/vertex_index.hpp"

#include <string>

#include "waymark/core/errors.hpp"

namespace waymark::graph {

VertexIndex::VertexIndex(const Graph& graph, VertexIndexParams params) {
  if (!graph.has_positions()) throw BuildError("a vertex index needs a graph with vertex positions");
  if (!(params.vertices_per_cell >= VertexIndexParams::min_vertices_per_cell) ||
      !std::isfinite(params.vertices_per_cell))
    throw BuildError("VertexIndexParams::vertices_per_cell must be finite and >= " +
                     std::to_string(VertexIndexParams::min_vertices_per_cell));
  const std::span<const Vec3> points = graph.positions();
  const std::size_t n = points.size();
  bucket_start_.assign(2, 0);
  if (n == 0) return;

  double max_x = points[0].x, max_y = points[0].y;
  min_x_ = max_x;
  min_y_ = max_y;
  for (const Vec3 p : points) {
    min_x_ = std::min(min_x_, p.x);
    min_y_ = std::min(min_y_, p.y);
    max_x = std::max(max_x, p.x);
    max_y = std::max(max_y, p.y);
  }
  const double width = max_x - min_x_, height = max_y - min_y_;
  if (!std::isfinite(width) || !std::isfinite(height))
    throw BuildError("vertex positions span more than the largest double");

  // Square buckets, about n / vertices_per_cell of them. The second term keeps a thin box (all
  // points on a line) from getting more buckets than that along its long side.
  const double target = std::max(1.0, std::ceil(static_cast<double>(n) / params.vertices_per_cell));
  cell_size_ = std::max(std::sqrt(width * height / target), std::max(width, height) / target);
  if (!(cell_size_ > 0)) cell_size_ = 1;  // every point in the same place: one bucket of any size
  columns_ = static_cast<std::uint32_t>(std::floor(width / cell_size_)) + 1;
  rows_ = static_cast<std::uint32_t>(std::floor(height / cell_size_)) + 1;

  // Counting sort of the vertices by bucket.
  const std::size_t buckets = std::size_t{columns_} * rows_;
  std::vector<std::uint32_t> bucket_of(n);
  bucket_start_.assign(buckets + 1, 0);
  for (std::size_t v = 0; v < n; ++v) {
    const std::int64_t b = row_of(points[v].y) * columns_ + column_of(points[v].x);
    bucket_of[v] = static_cast<std::uint32_t>(b);
    ++bucket_start_[bucket_of[v] + 1];
  }
  for (std::size_t b = 0; b < buckets; ++b) bucket_start_[b + 1] += bucket_start_[b];
  std::vector<std::uint32_t> next(bucket_start_.begin(), bucket_start_.end() - 1);
  ids_.resize(n);
  positions_.resize(n);
  for (std::size_t v = 0; v < n; ++v) {
    const std::uint32_t slot = next[bucket_of[v]]++;
    ids_[slot] = graph.node_at(v);
    positions_[slot] = points[v];
  }
}

}  // namespace waymark::graph
