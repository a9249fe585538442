#pragma once
/// @file Priority policies: what makes the best-first engine A*, weighted A*, Dijkstra or
/// greedy best-first. Each maps (g, h) to the open-list key.

#include "waymark/core/cost.hpp"

namespace waymark {

/// f = g + h. Optimal with an admissible heuristic.
struct AStarPriority {
  static constexpr bool uses_heuristic = true;
  constexpr Cost operator()(Cost g, Cost h) const { return g + h; }
};

/// f = g + w·h. With an admissible heuristic the cost found is at most w × optimal.
struct WeightedAStarPriority {
  static constexpr bool uses_heuristic = true;
  static constexpr double default_weight = 1.5;
  double weight = default_weight;  ///< inflation factor. [Limit: >= 1]
  constexpr Cost operator()(Cost g, Cost h) const { return g + weight * h; }
};

/// f = g. Uniform-cost search; the heuristic is never evaluated.
struct DijkstraPriority {
  static constexpr bool uses_heuristic = false;
  constexpr Cost operator()(Cost g, Cost) const { return g; }
};

/// f = h. Fast, no cost guarantee.
struct GreedyPriority {
  static constexpr bool uses_heuristic = true;
  constexpr Cost operator()(Cost, Cost h) const { return h; }
};

}  // namespace waymark
