#pragma once
/// @file Graph: a weighted directed graph in compressed sparse row form, immutable once built,
/// with optional 2D or 3D vertex positions; GraphBuilder collects edges and builds it.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "waymark/core/assert.hpp"
#include "waymark/core/change_log.hpp"
#include "waymark/core/cost.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/core/ids.hpp"

namespace waymark::graph {

/// Which coordinates a graph's vertices carry.
enum class Coordinates : std::uint8_t {
  none,  ///< no positions (Euclidean heuristic and VertexIndex unavailable)
  xy,    ///< planar: z is 0 for every vertex
  xyz,   ///< spatial
};

/// One edit of a graph, as its change log keeps it.
struct ArcChange {
  std::uint64_t version = 0;  ///< the graph's version after the edit
  ArcId arc;                  ///< the arc whose weight changed
  Cost old_weight = 0;        ///< its weight before
};

/// Weighted directed graph over vertices 0..node_count()-1, arcs grouped by source (CSR):
/// the arcs of v are arcs offsets[v]..offsets[v+1]-1, in the order they were added.
/// Parallel arcs and self-loops are kept. Weights are finite and >= 0.
///
/// Models DenseSearchSpace (and TraversabilityAware: ids outside the graph are not
/// traversable, so a search given one fails at once). The vertices and arcs are fixed once
/// built; arc weights can be edited between queries (set_weight()), each edit bumping
/// version() and named in the change log, so preprocessing built for the old weights refuses
/// to answer until rebuilt. Read-only while searched: share one among threads.
/// Memory: 4 bytes per vertex + 12 per arc, + 24 per vertex with positions.
class Graph {
 public:
  using node_type = VertexId;

  Graph() : offsets_(1, 0) {}  // the empty graph

  [[nodiscard]] std::size_t node_count() const { return offsets_.size() - 1; }
  [[nodiscard]] std::size_t arc_count() const { return targets_.size(); }
  [[nodiscard]] std::size_t index_of(VertexId v) const { return v.value; }
  [[nodiscard]] VertexId node_at(std::size_t i) const { return VertexId{static_cast<std::uint32_t>(i)}; }
  [[nodiscard]] bool contains(VertexId v) const { return v.value < node_count(); }
  [[nodiscard]] bool is_traversable(VertexId v) const { return contains(v); }

  [[nodiscard]] std::size_t out_degree(VertexId v) const {
    WAYMARK_ASSERT(contains(v));
    return offsets_[v.value + 1] - offsets_[v.value];
  }
  /// Heads of v's outgoing arcs; weights(v)[i] is the weight of the arc to targets(v)[i].
  [[nodiscard]] std::span<const VertexId> targets(VertexId v) const { return arcs_of(targets_, v); }
  [[nodiscard]] std::span<const Cost> weights(VertexId v) const { return arcs_of(weights_, v); }

  /// Calls f(head, weight) for every outgoing arc of v, in insertion order. Forced inline
  /// into the searches, with their relaxation inside it.
  template <class F>
  [[gnu::always_inline]] void for_each_successor(VertexId v, F&& f) const {
    const std::uint32_t end = offsets_[v.value + 1];
    for (std::uint32_t a = offsets_[v.value]; a < end; ++a) f(targets_[a], weights_[a]);
  }

  /// Arc ids: the arcs of v are first_arc(v) .. first_arc(v) + out_degree(v) - 1.
  [[nodiscard]] ArcId first_arc(VertexId v) const {
    WAYMARK_ASSERT(contains(v));
    return ArcId{offsets_[v.value]};
  }
  [[nodiscard]] bool contains(ArcId a) const { return a.value < targets_.size(); }
  [[nodiscard]] VertexId head(ArcId a) const { return targets_[a.value]; }
  [[nodiscard]] Cost weight(ArcId a) const { return weights_[a.value]; }
  /// The vertex an arc leaves. O(log V).
  [[nodiscard]] VertexId tail(ArcId a) const;
  /// The cheapest arc from → to (the first of equal ones); nullopt when there is none.
  [[nodiscard]] std::optional<ArcId> find_arc(VertexId from, VertexId to) const;

  /// Gives an arc a new weight; bumps version() and logs it, unless the weight is the same.
  /// Throws BuildError for an arc not in the graph or a weight that is negative, NaN or
  /// infinite. Not thread-safe: edit only when no search runs on the graph.
  void set_weight(ArcId a, Cost weight);
  /// 0 for a graph no edit has changed since it was built; incremented by every edit.
  [[nodiscard]] std::uint64_t version() const { return log_.version(); }
  /// The edits after `version`, oldest first; nullopt when the log no longer reaches back.
  [[nodiscard]] std::optional<std::span<const ArcChange>> changes_since(std::uint64_t version) const {
    return log_.since(version);
  }

  [[nodiscard]] Coordinates coordinates() const { return coordinates_; }
  [[nodiscard]] bool has_positions() const { return coordinates_ != Coordinates::none; }
  /// Position of v in world units (z = 0 for planar graphs). Requires has_positions().
  [[nodiscard]] Vec3 position(VertexId v) const {
    WAYMARK_ASSERT(has_positions() && contains(v));
    return positions_[v.value];
  }
  /// All positions indexed by vertex; empty without coordinates.
  [[nodiscard]] std::span<const Vec3> positions() const { return positions_; }

  /// The same vertices and positions with every arc turned around (u → v becomes v → u):
  /// searching it from t finds the distances *to* t (backward searches, landmarks, tables).
  /// O(V + E).
  [[nodiscard]] Graph reversed() const;

 private:
  friend class GraphBuilder;

  template <class T>
  std::span<const T> arcs_of(const std::vector<T>& column, VertexId v) const {
    WAYMARK_ASSERT(contains(v));
    return std::span<const T>(column).subspan(offsets_[v.value], offsets_[v.value + 1] - offsets_[v.value]);
  }

  std::vector<std::uint32_t> offsets_;  ///< node_count() + 1 entries
  std::vector<VertexId> targets_;
  std::vector<Cost> weights_;
  std::vector<Vec3> positions_;
  Coordinates coordinates_ = Coordinates::none;
  ChangeLog<ArcChange> log_;
};

/// A 64-bit hash of a graph's vertex count, arc count and every arc (source, head, weight
/// bits; +0 and −0 alike), in CSR order; positions are not included (they do not change
/// distances). Preprocessing files (landmarks, route tables, hierarchies) store it, so one
/// built for another graph is refused. O(V + E).
[[nodiscard]] std::uint64_t arc_fingerprint(const Graph& graph);

/// Collects vertices, arcs and positions, then builds a Graph. Every mutator checks its input
/// and throws BuildError on a bad one, leaving the builder unchanged.
class GraphBuilder {
 public:
  /// Most vertices a graph can hold: ids are 32-bit and one value means "invalid".
  static constexpr std::size_t max_vertices = VertexId::invalid_value;
  /// Most arcs a graph can hold: CSR offsets are 32-bit.
  static constexpr std::size_t max_arcs = UINT32_MAX;

  /// Starts with vertices 0..vertex_count-1 and no arcs.
  explicit GraphBuilder(std::size_t vertex_count = 0);

  [[nodiscard]] std::size_t vertex_count() const { return vertex_count_; }
  [[nodiscard]] std::size_t arc_count() const { return sources_.size(); }

  /// Appends a vertex and returns its id.
  VertexId add_vertex();
  /// Capacity hint; does not change the graph.
  void reserve_arcs(std::size_t arcs);

  /// Adds the arc from → to. Throws BuildError when a vertex is out of range or the weight is
  /// negative, NaN or infinite.
  void add_edge(VertexId from, VertexId to, Cost weight);
  /// Adds the two arcs a → b and b → a (also when a == b), with the checks of add_edge.
  void add_undirected_edge(VertexId a, VertexId b, Cost weight);

  /// Gives every vertex a position (index = vertex id). With Coordinates::xy the z values must
  /// be 0. Throws BuildError on a non-finite coordinate or `none`; the count is checked by
  /// build(), so vertices may still be added afterwards.
  void set_positions(std::vector<Vec3> positions, Coordinates kind);

  /// The graph: arcs grouped by source by a counting sort, insertion order kept within a
  /// source. O(V + E). Throws BuildError when positions were set for a different number of
  /// vertices. The builder is left as it was and can build again.
  [[nodiscard]] Graph build() const;

 private:
  void check_arc(VertexId from, VertexId to, Cost weight, std::size_t arcs_to_add) const;
  void push_arc(VertexId from, VertexId to, Cost weight);

  std::size_t vertex_count_ = 0;
  std::vector<VertexId> sources_;
  std::vector<VertexId> targets_;
  std::vector<Cost> weights_;
  std::vector<Vec3> positions_;
  Coordinates coordinates_ = Coordinates::none;
};

}  // namespace waymark::graph
