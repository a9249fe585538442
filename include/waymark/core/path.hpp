#pragma once
/// @file A found path: the nodes from start to goal and its total cost.

#include <vector>

#include "waymark/core/cost.hpp"

namespace waymark {

/// Nodes from start to goal inclusive; `cost` is the sum of the edge costs along them.
/// A path of one node (start == goal) has cost 0; an empty path means "no path".
template <class Node>
struct Path {
  std::vector<Node> nodes;
  Cost cost = 0;

  [[nodiscard]] bool empty() const { return nodes.empty(); }
  /// Number of moves (edges), one less than the number of nodes.
  [[nodiscard]] std::size_t steps() const { return nodes.empty() ? 0 : nodes.size() - 1; }
  /// Empties the path but keeps its capacity, so reuse does not allocate.
  void clear() {
    nodes.clear();
    cost = 0;
  }
};

}  // namespace waymark
