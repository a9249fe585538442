#include "waymark/graph/vertex_index.hpp"

#include <string>
#include <utility>

#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"

namespace waymark::graph {

VertexIndex::VertexIndex(const Graph& graph, VertexIndexParams params) {
  if (!graph.has_positions()) throw BuildError("a vertex index needs a graph with vertex positions");
  if (!(params.vertices_per_cell >= VertexIndexParams::min_vertices_per_cell) ||
      !std::isfinite(params.vertices_per_cell))
    throw BuildError("VertexIndexParams::vertices_per_cell must be finite and >= " +
                     number_text(VertexIndexParams::min_vertices_per_cell));
  const std::span<const Vec3> points = graph.positions();
  const std::size_t n = points.size();
  bucket_start_.assign(2, 0);
  if (n == 0) return;

  double max_x = points[0].x, max_y = points[0].y;
  double min_x = max_x, min_y = max_y;
  for (const Vec3 p : points) {
    min_x = std::min(min_x, p.x);
    min_y = std::min(min_y, p.y);
    max_x = std::max(max_x, p.x);
    max_y = std::max(max_y, p.y);
  }
  const double width = max_x - min_x, height = max_y - min_y;
  if (!std::isfinite(width) || !std::isfinite(height))
    throw BuildError("vertex positions span more than the largest double");

  // Square buckets, about n / vertices_per_cell of them. The second term keeps a thin box (all
  // points on a line) from getting more buckets than that along its long side.
  const double target = std::max(1.0, std::ceil(static_cast<double>(n) / params.vertices_per_cell));
  double side = std::max(std::sqrt(width * height / target), std::max(width, height) / target);
  if (!(side > 0)) side = 1;  // every point in the same place: one bucket of any size
  grid_ = {{min_x, min_y}, side, static_cast<int>(std::floor(width / side)) + 1,
           static_cast<int>(std::floor(height / side)) + 1};

  // The vertices by bucket.
  CellLists lists;
  lists.build(grid_.cell_count(), n, [&](std::size_t v, auto&& add) {
    add(grid_.index(grid_.column_of(points[v].x), grid_.row_of(points[v].y)));
  });
  ids_.resize(n);
  positions_.resize(n);
  for (std::size_t slot = 0; slot < n; ++slot) {
    ids_[slot] = graph.node_at(lists.items[slot]);
    positions_[slot] = points[lists.items[slot]];
  }
  bucket_start_ = std::move(lists.begin);
}

}  // namespace waymark::graph
