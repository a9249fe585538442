#pragma once
/// @file One-to-all shortest paths over any dense space: Dijkstra from one source or several
/// (each with an initial cost) run to exhaustion, then distances, parents and the source each
/// node belongs to, read in O(1). Dijkstra maps, flow fields, Dirichlet regions, graph
/// landmarks and route tables are all built on it.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>

#include "waymark/core/path.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/search/best_first.hpp"

namespace waymark::search {

/// Runs the best-first engine with Dijkstra's priority and no goal, so every node reachable
/// from the sources is settled with its shortest distance.
///
/// Reusable: compute() resets in O(1) and allocates nothing once the open list has reached
/// its largest size (the node table is generation-stamped; reserve() sizes it up front). One
/// object per thread; the space, which must outlive it, may be shared. Never throws.
/// Memory: 32 bytes per node of the space + the open list.
template <DenseSearchSpace Space, class Obs = NullObserver>
class ShortestPathTree {
 public:
  using Node = typename Space::node_type;

  explicit ShortestPathTree(const Space& space, Obs observer = {}) : search_(space, {}, {}, std::move(observer)) {}
  explicit ShortestPathTree(const Space&&, Obs = {}) = delete;  // would dangle

  /// Distances from `source` to every node. Failure (nothing computed) when `source` is not a
  /// traversable node of the space. O((V + E) log V) for the part reachable from it.
  Status compute(const Node& source) {
    const Source<Node> s{source, 0};
    return compute(std::span<const Source<Node>>(&s, 1));
  }
  /// Distances from the nearest source, counting each source's initial cost (a Dijkstra map;
  /// origin() then partitions the nodes among the sources). Failure when no source is a
  /// traversable node.
  Status compute(std::span<const Source<Node>> sources) {
    search_.begin(sources, Goal<Node>::none());
    if (!search_.status().running()) {  // no usable source, or a stale space
      status_ = search_.status();
      return status_;
    }
    search_.step();
    // A search without a goal ends by running out of nodes to expand: here that is success.
    status_ = search_.status().detail == StatusDetail::unreachable ? Status::success() : search_.status();
    return status_;
  }

  /// Warm-up: sizes and touches the scratch so even the first compute() allocates nothing.
  void reserve() { search_.reserve(); }

  [[nodiscard]] const Space& space() const { return search_.space(); }
  /// Success after a computed tree, failure after bad sources, not_started before compute().
  [[nodiscard]] Status status() const { return status_; }
  /// expanded: nodes settled (= reached); generated: edges scanned; max_open_size; time_s.
  [[nodiscard]] const SearchStats& stats() const { return search_.stats(); }

  /// Whether `n` is reachable from a source (false for nodes outside the space).
  [[nodiscard]] bool reached(const Node& n) const {
    return status_.succeeded() && node_is_traversable(space(), n) && search_.reached(n);
  }
  /// Shortest distance from the sources; infinite when unreachable.
  [[nodiscard]] Cost distance(const Node& n) const { return reached(n) ? search_.g_of(n) : infinite_cost; }
  /// The node before `n` on a shortest path; nullopt for sources and unreached nodes.
  [[nodiscard]] std::optional<Node> parent(const Node& n) const {
    return reached(n) ? search_.parent_of(n) : std::nullopt;
  }
  /// Index (into compute()'s sources) of the source nearest to `n`; nullopt when unreached.
  [[nodiscard]] std::optional<std::uint32_t> origin(const Node& n) const {
    return reached(n) ? search_.origin_of(n) : std::nullopt;
  }

  /// Writes the path from its source to `target` into `out` (source first) with its cost.
  /// Failure and an empty `out` when `target` is unreachable. O(path length); allocates only
  /// when `out` has to grow.
  Status path_to(const Node& target, Path<Node>& out) const {
    out.clear();
    if (!reached(target)) return Status::failure();
    for (std::optional<Node> v = target; v; v = search_.parent_of(*v)) out.nodes.push_back(*v);
    std::reverse(out.nodes.begin(), out.nodes.end());
    out.cost = search_.g_of(target);
    return Status::success();
  }

  /// The engine underneath, for its observer.
  [[nodiscard]] Dijkstra<Space, Obs>& search() { return search_; }

 private:
  Dijkstra<Space, Obs> search_;
  Status status_{};
};

}  // namespace waymark::search
