#include "waymark/graph/heuristics.hpp"

#include <algorithm>
#include <limits>

namespace waymark::graph {

namespace {

/// weight / length of an arc, or infinity for an arc of length 0 (it bounds nothing).
double ratio(const Graph& graph, VertexId from, VertexId to, Cost weight) {
  const double length = distance(graph.position(from), graph.position(to));
  return length > 0 ? weight / length : std::numeric_limits<double>::infinity();
}

double with_margin(double least_ratio) {
  return least_ratio == std::numeric_limits<double>::infinity() ? 0 : least_ratio * (1 - euclidean_scale_margin);
}

}  // namespace

double admissible_euclidean_scale(const Graph& graph) {
  if (!graph.has_positions()) return 0;
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < graph.node_count(); ++i) {
    const VertexId from = graph.node_at(i);
    graph.for_each_successor(from, [&](VertexId to, Cost weight) { least = std::min(least, ratio(graph, from, to, weight)); });
  }
  return with_margin(least);
}

EuclideanHeuristic EuclideanHeuristic::synced() const {
  const auto changes = graph_->changes_since(version_);
  if (!changes) return admissible(*graph_);
  double least = std::numeric_limits<double>::infinity();
  for (const ArcChange& c : *changes) {
    least = std::min(least, ratio(*graph_, graph_->tail(c.arc), graph_->head(c.arc), graph_->weight(c.arc)));
  }
  // Only a lowered weight can break the bound: the least ratio of the edited arcs, if lower.
  const double bound = least == std::numeric_limits<double>::infinity() ? scale_ : with_margin(least);
  return EuclideanHeuristic(*graph_, std::min(scale_, bound));
}

}  // namespace waymark::graph
