#pragma once
/// @file The straight-line heuristic for graphs with vertex positions, and the scale that
/// keeps it admissible.

#include "waymark/core/assert.hpp"
#include "waymark/core/cost.hpp"
#include "waymark/graph/graph.hpp"

namespace waymark::graph {

/// The largest s such that s × straight-line distance never exceeds a path's weight: the
/// minimum over arcs of weight / length, arcs of length 0 (self-loops, coincident endpoints)
/// ignored, shrunk by `euclidean_scale_margin`. Why it suffices: a path's weight is the sum
/// of its arcs' weights, each ≥ s × its length, and the lengths sum to at least the distance
/// between the path's ends (triangle inequality), so s × distance is admissible; each arc
/// obeys it, so it is consistent too.
///
/// 0 (A* degrades to Dijkstra) when the graph has no positions or no arc of positive length.
/// Road graphs whose weights are lengths in the coordinates' units give about 1; travel times
/// give 1 / top speed; lon/lat coordinates with metre weights give a meaningless but still
/// admissible value. O(E).
[[nodiscard]] double admissible_euclidean_scale(const Graph& graph);

/// Relative amount admissible_euclidean_scale() gives away, so that rounding in the weight /
/// length ratios and in the heuristic's own distance cannot push h above the true cost.
inline constexpr double euclidean_scale_margin = 1e-12;

/// h(n, goal) = scale × straight-line distance between their positions. Admissible and
/// consistent when scale ≤ admissible_euclidean_scale(graph). Holds a reference to the
/// graph, which must outlive it and have positions. Stale (searches refuse it) once the
/// graph's weights were edited: synced() gives one for the new weights.
class EuclideanHeuristic {
 public:
  EuclideanHeuristic(const Graph& graph, double scale) : graph_(&graph), scale_(scale), version_(graph.version()) {
    WAYMARK_ASSERT(graph.has_positions() && scale >= 0);
  }

  /// With the largest admissible scale of `graph`.
  EuclideanHeuristic(const Graph&&, double) = delete;  // would dangle
  static EuclideanHeuristic admissible(const Graph&&) = delete;
  [[nodiscard]] static EuclideanHeuristic admissible(const Graph& graph) {
    return EuclideanHeuristic(graph, admissible_euclidean_scale(graph));
  }

  [[nodiscard]] double scale() const { return scale_; }
  [[nodiscard]] bool stale() const { return version_ != graph_->version(); }
  /// The heuristic for the graph's weights now: the scale lowered to what the edited arcs
  /// allow (an edit that raised a weight keeps it admissible), O(edits); or recomputed, O(E),
  /// when the graph's log no longer reaches back.
  [[nodiscard]] EuclideanHeuristic synced() const;

  Cost operator()(VertexId n, VertexId goal) const {
    return scale_ * distance(graph_->position(n), graph_->position(goal));
  }

 private:
  const Graph* graph_;
  double scale_;
  std::uint64_t version_;
};

}  // namespace waymark::graph
