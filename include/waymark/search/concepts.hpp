#pragma once
/// @file The boundary between worlds and searches.
///
/// A world is searched through a *space*: something that enumerates a node's successors with
/// their edge costs. Dense spaces (grids, graphs) also number their nodes 0..node_count()-1 so
/// searches can keep scratch in flat arrays; implicit spaces (puzzles) do not and are searched
/// with a hashed node table instead.

#include <concepts>
#include <cstddef>
#include <cstdint>

#include "waymark/core/cost.hpp"
#include "waymark/core/status.hpp"

namespace waymark::search {

/// Callback shape used to probe `for_each_successor` in the concept.
template <class Node>
struct SuccessorSink {
  void operator()(Node, Cost) const {}
};

/// `space.for_each_successor(n, f)` calls `f(successor, edge_cost)` for every outgoing edge of
/// n; edge costs must be finite and >= 0 (zero-cost edges are fine). Nodes must be cheap to
/// copy, equality comparable and default-constructible (the searches keep nodes in their own
/// records and results).
template <class S>
concept SearchSpace = requires(const S& s, typename S::node_type n) {
  typename S::node_type;
  requires std::equality_comparable<typename S::node_type>;
  requires std::default_initializable<typename S::node_type>;
  requires std::copyable<typename S::node_type>;
  s.for_each_successor(n, SuccessorSink<typename S::node_type>{});
};

/// A space whose nodes map one-to-one onto 0..node_count()-1.
template <class S>
concept DenseSearchSpace = SearchSpace<S> && requires(const S& s, typename S::node_type n,
                                                      std::size_t i) {
  { s.node_count() } -> std::convertible_to<std::size_t>;
  { s.index_of(n) } -> std::convertible_to<std::size_t>;
  { s.node_at(i) } -> std::same_as<typename S::node_type>;
};

/// Optional: spaces whose successors depend on how a node was reached and where the query
/// goes (jump point search prunes by the direction of arrival and stops jumps at the goal):
/// `for_each_successor(n, parent, goal, f)`, `parent` null at the start node. The best-first
/// engine calls this form when a space provides it.
template <class S>
concept ParentAwareSearchSpace = SearchSpace<S> && requires(const S& s, typename S::node_type n) {
  s.for_each_successor(n, static_cast<const typename S::node_type*>(nullptr), n,
                       SuccessorSink<typename S::node_type>{});
};

/// Optional: parent-aware spaces whose successor generation does a variable amount of work
/// (jumps pass over many cells): `for_each_successor(n, parent, goal, f, scanned)` adds the
/// cells it looked at to `scanned`, which search budgets can limit (see Budget::scanned).
template <class S>
concept ScanningSearchSpace = SearchSpace<S> && requires(const S& s, typename S::node_type n, std::uint64_t& scanned) {
  s.for_each_successor(n, static_cast<const typename S::node_type*>(nullptr), n,
                       SuccessorSink<typename S::node_type>{}, scanned);
};

/// Optional: spaces that use the cost a node was reached at to leave out successors that
/// cannot be reached for less than before (a navmesh polygon's off-mesh links: its nodes may
/// each reach every link, docs/navmesh.md): `for_each_successor(n, g, f, extra)`, g the
/// expanded node's cost so far, adds to `extra` the work it did besides the successors it
/// gave (what it looked at to leave others out). The engine counts SearchStats::scanned as
/// successors generated plus that extra work, which search budgets can limit
/// (Budget::scanned). The best-first engine calls this form to expand; the plain form still
/// gives every successor (for path costing).
template <class S>
concept CostAwareSearchSpace = SearchSpace<S> && requires(const S& s, typename S::node_type n, Cost g, std::uint64_t& extra) {
  s.for_each_successor(n, g, SuccessorSink<typename S::node_type>{}, extra);
};

/// Optional: spaces that drop a successor by what they saw earlier in the query (Polyanya's
/// root-level pruning: a node whose root vertex was already reached more cheaply):
/// `dominated(succ, g)` is asked before a successor reached at cost g is stored, and true drops
/// it. The space keeps that memory itself, per query.
template <class S>
concept DominancePruningSpace = SearchSpace<S> && requires(const S& s, typename S::node_type n, Cost g) {
  { s.dominated(n, g) } -> std::convertible_to<bool>;
};

/// Optional: any-angle spaces (Theta*): `shortcut_cost(from, to)` is the cost of going
/// straight from `from` to `to` (infinite_cost when the world does not allow it). The
/// best-first engine then also tries to reach each successor straight from the expanded node's
/// parent and keeps the cheaper way; other spaces compile to the plain relaxation.
template <class S>
concept ShortcutSearchSpace = SearchSpace<S> && requires(const S& s, typename S::node_type n) {
  { s.shortcut_cost(n, n) } -> std::convertible_to<Cost>;
};

/// Optional: derived data that can fall behind the world it was made from (move masks after a
/// map edit, a heuristic whose bound an edit broke). `stale()` is true until it is synced;
/// searches refuse to run on stale spaces and heuristics (StatusDetail::stale_world), so an
/// edited world is never answered from old data.
template <class T>
concept Versioned = requires(const T& t) {
  { t.stale() } -> std::convertible_to<bool>;
};

template <class T>
[[nodiscard]] bool is_stale(const T& t) {
  if constexpr (Versioned<T>) {
    return t.stale();
  } else {
    (void)t;
    return false;
  }
}

/// Optional: a space that cannot search its world while the world is in some state (a jump
/// space while its map has cost multipliers) says so with `unsupported()`; searches then
/// refuse at once with invalid_query | unsupported — no sync() changes that, only the world
/// (or another algorithm) does. Distinct from stale(), which the owner's sync() clears.
template <class T>
concept Restricted = requires(const T& t) {
  { t.unsupported() } -> std::convertible_to<bool>;
};

template <class T>
[[nodiscard]] bool is_unsupported(const T& t) {
  if constexpr (Restricted<T>) {
    return t.unsupported();
  } else {
    (void)t;
    return false;
  }
}

/// Optional: spaces that can say a node may not be stood on (a blocked grid cell). Searches
/// fail at once when the start or goal is not traversable.
template <class S>
concept TraversabilityAware = requires(const S& s, typename S::node_type n) {
  { s.is_traversable(n) } -> std::convertible_to<bool>;
};

/// Optional: spaces that can tell their nodes from values that name none (a CellId past the
/// map's last cell, a vertex id past the graph's): `contains(n)`. A start or goal they do not
/// contain fails as out_of_bounds; one they contain but cannot traverse as blocked.
template <class S>
concept BoundedSearchSpace = requires(const S& s, typename S::node_type n) {
  { s.contains(n) } -> std::convertible_to<bool>;
};

/// A heuristic: an estimate of the cost from `n` to `goal`. Admissible (never above the true
/// cost) for optimal results from A* and IDA*.
template <class H, class Node>
concept Heuristic = requires(const H& h, Node n) {
  { h(n, n) } -> std::convertible_to<Cost>;
};

/// The zero heuristic: turns A* into Dijkstra, always admissible.
struct ZeroHeuristic {
  template <class Node>
  constexpr Cost operator()(const Node&, const Node&) const {
    return 0;
  }
};

template <class S>
bool node_is_traversable(const S& space, const typename S::node_type& n) {
  if constexpr (TraversabilityAware<S>) {
    return space.is_traversable(n);
  } else {
    (void)space;
    (void)n;
    return true;
  }
}

/// Why `n` cannot be a start (`blocked` = start_blocked) or the goal (goal_blocked), for a node
/// the space does not traverse: invalid_query plus out_of_bounds when the space can tell it
/// names no node of the world, else plus `blocked`. Called only on refusal, never per expansion.
template <class S>
[[nodiscard]] StatusDetail endpoint_refusal(const S& space, const typename S::node_type& n, StatusDetail blocked) {
  if constexpr (BoundedSearchSpace<S>) {
    if (!space.contains(n)) return StatusDetail::invalid_query | StatusDetail::out_of_bounds;
  } else {
    (void)space;
    (void)n;
  }
  return StatusDetail::invalid_query | blocked;
}

/// The refusal of a query none of whose `sources` can be stood on: every source's reason
/// together (invalid_query alone for no sources).
template <class S, class Sources>
[[nodiscard]] StatusDetail sources_refusal(const S& space, const Sources& sources) {
  StatusDetail why = StatusDetail::invalid_query;
  for (const auto& s : sources) why = why | endpoint_refusal(space, s.node, StatusDetail::start_blocked);
  return why;
}

}  // namespace waymark::search
