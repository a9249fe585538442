#pragma once
/// @file Where a search starts and when it stops: sources with initial costs (several at once
/// for Dijkstra maps, flow fields and Dirichlet regions) and goals given as one node, a few
/// nodes, a predicate (a region), or none at all (explore everything reachable).

#include <algorithm>
#include <cstdint>
#include <ranges>
#include <span>
#include <type_traits>

#include "waymark/core/cost.hpp"

namespace waymark::search {

/// A start node and the cost already paid to stand on it (0 for an ordinary start).
/// [Limit: cost finite and >= 0]
template <class Node>
struct Source {
  Node node{};
  Cost cost = 0;
};

/// The goal test of a search, and what the heuristic aims at. Cheap to copy; it does not own
/// the nodes of any_of() or the predicate of matching(): keep those alive while the search
/// runs.
template <class Node>
class Goal {
 public:
  enum class Kind : std::uint8_t {
    node,       ///< one node; the heuristic aims at it
    any_of,     ///< any node of a list; the heuristic is the least over the list
    predicate,  ///< any node the predicate accepts; no heuristic (searched as by Dijkstra)
    none,       ///< never reached: the search explores everything reachable, then fails
  };

  /// The default goal: none.
  Goal() = default;

  [[nodiscard]] static Goal at(const Node& n) {
    Goal g;
    g.kind_ = Kind::node;
    g.node_ = n;
    return g;
  }
  /// Any of `nodes`. Each goal test and heuristic evaluation scans the list: meant for a few
  /// nodes; use matching() with a set of your own for many.
  [[nodiscard]] static Goal any_of(std::span<const Node> nodes) {
    Goal g;
    g.kind_ = Kind::any_of;
    g.nodes_ = nodes;
    return g;
  }
  /// A temporary container would be gone before the search reads the list (the goal keeps a
  /// span of it): keep the nodes in a variable.
  template <class Range>
    requires(!std::ranges::borrowed_range<Range> && !std::is_lvalue_reference_v<Range>)
  static Goal any_of(Range&& nodes) = delete;
  /// Any node for which `test(node)` is true. `test` is referenced, not copied.
  template <class Test>
  [[nodiscard]] static Goal matching(const Test& test) {
    Goal g;
    g.kind_ = Kind::predicate;
    g.context_ = &test;
    g.test_ = [](const void* context, const Node& n) { return static_cast<bool>((*static_cast<const Test*>(context))(n)); };
    return g;
  }
  /// A temporary test would be gone before the search reads it: keep it in a variable.
  template <class Test>
  static Goal matching(const Test&& test) = delete;
  [[nodiscard]] static Goal none() { return Goal{}; }

  [[nodiscard]] Kind kind() const { return kind_; }
  /// The node of a Kind::node goal (a default node otherwise).
  [[nodiscard]] const Node& node() const { return node_; }
  [[nodiscard]] std::span<const Node> nodes() const { return nodes_; }

  // Called once per expansion and per generated node: the one-node case is kept inline, the
  // others are out of line.
  [[nodiscard, gnu::always_inline]] bool reached(const Node& n) const {
    return kind_ == Kind::node ? n == node_ : kind_ != Kind::none && reached_other(n);
  }

  /// `h(n, goal)` aimed at this goal: at the node, the least over a list, or 0 when the goal
  /// gives nothing to aim at (still admissible).
  template <class H>
  [[nodiscard, gnu::always_inline]] Cost estimate(const H& h, const Node& n) const {
    return kind_ == Kind::node ? static_cast<Cost>(h(n, node_)) : estimate_other(h, n);
  }

 private:
  [[gnu::noinline]] bool reached_other(const Node& n) const {
    switch (kind_) {
      case Kind::node: return n == node_;
      case Kind::any_of: return std::find(nodes_.begin(), nodes_.end(), n) != nodes_.end();
      case Kind::predicate: return test_(context_, n);
      case Kind::none: return false;
    }
    return false;
  }
  template <class H>
  [[gnu::noinline]] Cost estimate_other(const H& h, const Node& n) const {
    if (kind_ != Kind::any_of || nodes_.empty()) return 0;
    Cost best = infinite_cost;
    for (const Node& g : nodes_) best = std::min(best, static_cast<Cost>(h(n, g)));
    return best;
  }

  Kind kind_ = Kind::none;
  Node node_{};
  std::span<const Node> nodes_;
  const void* context_ = nullptr;
  bool (*test_)(const void*, const Node&) = nullptr;
};

}  // namespace waymark::search
