#pragma once
/// @file A found path: the nodes from start to goal and its total cost.

#include <vector>

#include "waymark/core/cost.hpp"

namespace waymark {

/// Nodes from start to goal inclusive; `cost` is the sum of the edge costs along them.
/// A path of one node (start == goal) has cost 0. A path that was not found is empty and its
/// cost is infinite_cost, never 0, so "the cheapest of several" can never pick it (a partial
/// path, QueryOptions::partial_result, has the finite cost of the nodes it holds).
template <class Node>
struct Path {
  std::vector<Node> nodes;
  Cost cost = infinite_cost;

  [[nodiscard]] bool empty() const { return nodes.empty(); }
  /// Whether the path holds any node (then `cost` is finite).
  [[nodiscard]] bool found() const { return !nodes.empty(); }
  /// Number of moves (edges), one less than the number of nodes.
  [[nodiscard]] std::size_t steps() const { return nodes.empty() ? 0 : nodes.size() - 1; }
  /// Empties the path (cost infinite_cost) but keeps its capacity, so reuse does not allocate.
  void clear() {
    nodes.clear();
    cost = infinite_cost;
  }
};

}  // namespace waymark
