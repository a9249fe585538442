#include "waymark/graph/heuristics.hpp"

#include <algorithm>
#include <limits>

namespace waymark::graph {

double admissible_euclidean_scale(const Graph& graph) {
  if (!graph.has_positions()) return 0;
  double scale = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < graph.node_count(); ++i) {
    const VertexId from = graph.node_at(i);
    const Vec3 p = graph.position(from);
    graph.for_each_successor(from, [&](VertexId to, Cost weight) {
      const double length = distance(p, graph.position(to));
      if (length > 0) scale = std::min(scale, weight / length);
    });
  }
  return scale == std::numeric_limits<double>::infinity() ? 0 : scale * (1 - euclidean_scale_margin);
}

}  // namespace waymark::graph
