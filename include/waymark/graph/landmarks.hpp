#pragma once
/// @file ALT (A*, Landmarks, Triangle inequality; Goldberg & Harrelson 2005): distances from
/// and to a few landmark vertices, precomputed once, give A* a lower bound on any distance.
/// The ALT query is `AStar<Graph, LandmarkHeuristic>`. See docs/graph.md.

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "waymark/core/assert.hpp"
#include "waymark/core/cost.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/graph/graph.hpp"

namespace waymark::graph {

struct LandmarkParams {
  static constexpr std::size_t default_count = 16;
  /// Most landmarks a table holds (the file format and the per-query loop allow more, but
  /// beyond a few dozen each heuristic call costs more than the expansions it saves).
  static constexpr std::size_t max_count = 256;
  /// Landmarks to choose. Fewer are chosen when the graph has no more useful vertices (see
  /// Landmarks). [Limit: 1..max_count]
  std::size_t count = default_count;
};

/// k landmark vertices and, for each, the distances d(L, v) from it and d(v, L) to it for every
/// vertex v. Immutable: share one among threads (each thread runs its own AStar).
///
/// Selection (farthest point, on the *undirected* distances: every arc also counted
/// backwards, so one-way streets do not hide vertices): the weakly connected components with
/// at least two vertices are visited largest first (ties: lowest vertex id); each gets as its
/// first landmark the vertex farthest from its lowest-id vertex. Then, while landmarks are
/// left, the next is the vertex farthest from all chosen ones (ties: lowest id). Isolated
/// vertices never become landmarks (they bound nothing), no vertex is chosen twice, and
/// selection stops early once every vertex of every component is at distance 0 from the
/// chosen set. With fewer landmarks than components, the smallest components get none, and
/// queries there run as plain Dijkstra.
///
/// Storage: one row of 2k floats per vertex (k forward then k backward distances), rounded
/// to nearest; lower_bound() widens each by its largest rounding error, so the bound stays
/// admissible (see there). Memory: 8·k bytes per vertex + 4·k.
class Landmarks {
 public:
  /// Chooses the landmarks and runs their Dijkstra searches (the library's engine run to
  /// exhaustion) on the graph and on graph.reversed(): about 4k one-to-all searches,
  /// O(k · (V + E) log V) time, O(V + E) scratch besides the table. Throws BuildError when
  /// params.count breaks its limits. The graph must outlive the table (stale() reads its
  /// version).
  explicit Landmarks(const Graph& graph, LandmarkParams params = {});
  explicit Landmarks(const Graph&&, LandmarkParams = {}) = delete;  // would dangle

  /// Writes the table to a binary file (little-endian; header with the graph's vertex and arc
  /// counts and arc fingerprint, landmark ids, distances, checksum).
  /// @throws SaveError when the file cannot be written.
  void save(const std::string& path) const;
  /// Writes the same bytes to a stream; errors are left in the stream's state.
  void save(std::ostream& out) const;
  /// Reads a table written by save(). Throws LoadError(path, 0, reason) when the file cannot
  /// be opened, is not a landmark file (magic), has another version, was built for another
  /// graph (vertex count, arc count or arc fingerprint differ), is truncated, has trailing
  /// bytes, fails its checksum, names landmarks that are not vertices, or holds any distance
  /// other than the one a build stores (the landmarks' distances are searched again: 2k
  /// Dijkstra searches, a build without choosing the landmarks), so even a forged file with a
  /// matching checksum cannot make ALT's bound overestimate.
  static Landmarks load(const std::string& path, const Graph& graph);
  static Landmarks load(const std::string&, const Graph&&) = delete;  // would dangle
  /// The same from a stream; `name` is the file name LoadError reports.
  static Landmarks load(std::istream& in, const std::string& name, const Graph& graph);

  /// Number of landmarks k (≤ the count asked for).
  [[nodiscard]] std::size_t count() const { return vertices_.size(); }
  /// Vertices of the graph the table was built for.
  [[nodiscard]] std::size_t node_count() const { return node_count_; }
  /// The landmarks in the order they were chosen.
  [[nodiscard]] std::span<const VertexId> vertices() const { return vertices_; }

  /// d(L_i, v) as stored (float-rounded); infinite when L_i cannot reach v.
  [[nodiscard]] Cost forward_distance(std::size_t i, VertexId v) const {
    WAYMARK_ASSERT(i < count() && v.value < node_count_);
    return row(v)[i];
  }
  /// d(v, L_i) as stored (float-rounded); infinite when v cannot reach L_i.
  [[nodiscard]] Cost backward_distance(std::size_t i, VertexId v) const {
    WAYMARK_ASSERT(i < count() && v.value < node_count_);
    return row(v)[count() + i];
  }

  /// The ALT lower bound on d(v, t): the largest of d(L, t) − d(L, v) and d(v, L) − d(t, L)
  /// over the landmarks, and 0. Admissible (never above d(v, t)); infinite only when t is
  /// provably unreachable from v. O(k), allocates nothing.
  ///
  /// Why each term is a bound: d(L, t) ≤ d(L, v) + d(v, t) and d(v, L) ≤ d(v, t) + d(t, L).
  /// Infinite distances:
  /// - d(L, v) = ∞ (or d(t, L) = ∞): the inequality says nothing; the term is −∞ or ∞ − ∞ =
  ///   NaN, and both lose the `term > best` comparison, so it is skipped.
  /// - d(L, v) finite, d(L, t) = ∞: if v reached t, L would reach t through v, so
  ///   d(v, t) = ∞ and the term ∞ is exact. Likewise d(t, L) finite, d(v, L) = ∞.
  /// Float storage: a stored f of a distance D obeys f(1 − 2⁻²³) − 2⁻¹⁴⁹ ≤ D ≤ f(1 + 2⁻²³) +
  /// 2⁻¹⁴⁹ (rounding to nearest, subnormals included). Each term takes the stored minuend
  /// shrunk and the subtrahend grown by twice that (rounding_margin, absolute_margin); the
  /// other half covers the double rounding here and in the Dijkstra sums, so h stays below
  /// the distance a search computes, not only the exact one. Distances above FLT_MAX are
  /// stored as FLT_MAX: a lower bound for the minuend, and as subtrahend the term is < 0.
  /// Consistency: each exact term is consistent (d(L, ·) changes by at most w along an arc
  /// of weight w), and so is their maximum; the margins break that by a relative 2⁻²² and
  /// the ∞ values break it at vertices that cannot reach t. The engine's reopen_closed
  /// (default on) keeps A* optimal with any admissible heuristic.
  [[nodiscard]] Cost lower_bound(VertexId v, VertexId t) const {
    WAYMARK_ASSERT(v.value < node_count_ && t.value < node_count_);
    const float* const rv = row(v);
    const float* const rt = row(t);
    const std::size_t k = count();
    // Minuends shrunk, subtrahends grown; written so that ∞ − finite stays ∞ (not ∞ − ∞).
    constexpr double shrink = 1 - rounding_margin, grow = 1 + rounding_margin;
    double best = 0;
    for (std::size_t i = 0; i < k; ++i) {
      const double forward = rt[i] * shrink - rv[i] * grow;            // d(L, t) − d(L, v)
      const double backward = rv[k + i] * shrink - rt[k + i] * grow;  // d(v, L) − d(t, L)
      if (forward > best) best = forward;                              // NaN and −∞ never win
      if (backward > best) best = backward;
    }
    return best > 2 * absolute_margin ? best - 2 * absolute_margin : 0;
  }

  /// Relative widening of each stored distance in lower_bound(): twice float rounding (2⁻²⁴
  /// of the value, bounded by 2⁻²³ of the stored float).
  static constexpr double rounding_margin = 0x1p-22;
  /// Absolute widening of each stored distance: twice the 2⁻¹⁴⁹ above (a float's absolute
  /// rounding error is at most 2⁻¹⁵⁰, half the subnormal spacing).
  static constexpr double absolute_margin = 0x1p-148;

  /// Whether the weights of the graph the table was built (or loaded) for were edited since:
  /// its bounds may then overestimate, and searches refuse the heuristic (stale_world).
  [[nodiscard]] bool stale() const { return graph_ != nullptr && version_ != graph_->version(); }

  /// Fingerprint of the arcs of the graph the table was built for (arc_fingerprint()).
  [[nodiscard]] std::uint64_t graph_fingerprint() const { return fingerprint_; }
  /// Whether `graph` has the vertex count, arc count and arc fingerprint of the graph the
  /// table was built for. O(E).
  [[nodiscard]] bool matches(const Graph& graph) const;

  /// Bytes held: the distance table and the landmark ids.
  [[nodiscard]] std::size_t memory_bytes() const {
    return distances_.capacity() * sizeof(float) + vertices_.capacity() * sizeof(VertexId);
  }
  /// Wall time the constructor took (selection + distance searches), seconds; 0 after load().
  [[nodiscard]] double preprocessing_seconds() const { return preprocessing_seconds_; }

 private:
  Landmarks() = default;
  /// The table a build stores for these landmarks: per vertex, d(L_i, v) then d(v, L_i), as
  /// floats. 2k Dijkstra searches.
  static std::vector<float> stored_distances(const Graph& graph, std::span<const VertexId> landmarks);

  const float* row(VertexId v) const { return distances_.data() + std::size_t{v.value} * 2 * count(); }

  const Graph* graph_ = nullptr;  ///< the graph the table belongs to, for stale()
  std::uint64_t version_ = 0;
  std::vector<VertexId> vertices_;
  std::vector<float> distances_;  ///< node_count_ rows of 2·count() floats
  std::size_t node_count_ = 0;
  std::size_t arc_count_ = 0;
  std::uint64_t fingerprint_ = 0;
  double preprocessing_seconds_ = 0;
};

/// The ALT heuristic for AStar<Graph, LandmarkHeuristic>: Landmarks::lower_bound(n, goal).
/// Admissible, so A* stays optimal (see lower_bound() on consistency). Holds a pointer: cheap
/// to copy, and the Landmarks must outlive it and belong to the searched graph
/// (Landmarks::matches).
class LandmarkHeuristic {
 public:
  explicit LandmarkHeuristic(const Landmarks& landmarks) : landmarks_(&landmarks) {}
  explicit LandmarkHeuristic(const Landmarks&&) = delete;  // would dangle

  [[nodiscard]] const Landmarks& landmarks() const { return *landmarks_; }
  [[nodiscard]] bool stale() const { return landmarks_->stale(); }

  Cost operator()(VertexId n, VertexId goal) const { return landmarks_->lower_bound(n, goal); }

 private:
  const Landmarks* landmarks_;
};

}  // namespace waymark::graph
