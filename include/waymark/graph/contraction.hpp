#pragma once
/// @file Contraction hierarchies (Geisberger et al. 2008) for directed graphs: preprocessing
/// (ContractionHierarchy::build) and binary save/load. The per-thread query is ChQuery
/// (ch_query.hpp). See docs/graph.md for the ordering, the witness searches and the costs.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/core/path.hpp"
#include "waymark/core/status.hpp"
#include "waymark/graph/graph.hpp"
#include "waymark/search/indexed_heap.hpp"

namespace waymark::graph {

/// Tuning of ContractionHierarchy::build. Limits on witness searches only ever add shortcuts
/// that were not needed (slower queries, more memory); they never lose a shortest path.
///
/// Vertices are contracted lowest priority first, where
///   priority = edge_difference_weight × (shortcuts added − arcs removed)
///            + original_arcs_weight × (original arcs the added shortcuts stand for − those
///                                      of the arcs removed)
///            + contracted_neighbours_weight × (neighbours already contracted)
///            + depth_weight × depth (0, or 1 + the deepest contracted neighbour's depth).
struct ChParams {
  /// Vertices a witness search may settle when a vertex is contracted; beyond it the search
  /// gives up and the candidates it has not disproved become shortcuts. [Limit: >= 1]
  std::uint32_t witness_settle_limit = 500;
  /// The same limit for the searches that only estimate a priority: the initial priorities,
  /// and the neighbour updates when resimulate_neighbours is on. [Limit: >= 1]
  std::uint32_t priority_settle_limit = 60;
  /// Most arcs on a witness path; 0 = no limit. [Limit: >= 0]
  std::uint32_t witness_hop_limit = 0;
  double edge_difference_weight = 1.0;        ///< [Limit: finite]
  double original_arcs_weight = 1.0;          ///< [Limit: finite]
  double contracted_neighbours_weight = 1.0;  ///< [Limit: finite]
  double depth_weight = 1.0;                  ///< [Limit: finite]
  /// After contracting v, re-run each neighbour's witness searches to update its priority.
  /// Off: the neighbour-count and depth terms are updated exactly and the shortcut terms
  /// when the vertex reaches the top of the queue (lazy update). On a 10^6-vertex road grid,
  /// off was 2× faster to build, with 17% more shortcuts and 18% fewer vertices settled per
  /// query (docs/graph.md).
  bool resimulate_neighbours = false;
};

/// What build() did (kept by save/load).
struct ChBuildStats {
  std::uint64_t input_arcs = 0;          ///< arcs of the original graph
  std::uint64_t self_loops_dropped = 0;  ///< self-loops (never on a shortest path)
  std::uint64_t parallel_dropped = 0;    ///< arcs with a cheaper (or equal) twin of the same ends
  std::uint64_t shortcuts = 0;           ///< shortcut arcs in the hierarchy (added or replacing an arc)
  std::uint64_t witness_searches = 0;    ///< local searches run, for priorities and contractions
  std::uint32_t max_depth = 0;           ///< largest depth term of the priority (see ChParams)
  double time_s = 0;                     ///< wall time of build(), seconds
};

/// One arc of the hierarchy, stored at its lower-ranked end. `head` is the other end's rank.
/// `middle` is the rank of the vertex a shortcut bypasses, or no_middle for an original arc.
struct ChArc {
  static constexpr std::uint32_t no_middle = 0xFFFFFFFFu;
  Cost weight = 0;
  std::uint32_t head = 0;
  std::uint32_t middle = no_middle;
};

/// A shortcut's two halves, both stored at its middle vertex m: `down` indexes the downward
/// arcs (the half tail → m) and `up` the upward arcs (the half m → head).
struct ChShortcutHalves {
  std::uint32_t down = 0;
  std::uint32_t up = 0;
};

/// A contraction hierarchy of a directed graph: vertices ranked by contraction order, the
/// upward graph (arcs u → w with rank(w) > rank(u), stored at u, searched forward from the
/// source) and the downward graph reversed (arcs w → u with rank(w) > rank(u), stored at u as
/// "from w", searched backward from the target). Both in CSR form indexed by rank.
///
/// Immutable once built or loaded: share it among threads, one ChQuery per thread. Refers to
/// the graph it was built for, which must outlive it.
/// Memory: 16 bytes per vertex + 24 per hierarchy arc (see memory_bytes()); a road graph
/// gets 1.9–2.7 hierarchy arcs per original arc.
class ContractionHierarchy {
 public:
  /// The hierarchy of the empty graph.
  ContractionHierarchy();

  /// Contracts every vertex of `graph`, least important first (see ChParams). Self-loops are
  /// dropped and only the cheapest of parallel arcs is kept. Throws BuildError when `params`
  /// break their limits or the hierarchy would need more than 2^32 − 1 arcs in one direction.
  /// @warning Expensive: 0.02–0.05 s for the bundled road graphs (3–6·10^3 vertices), about
  /// 50 s for a 10^6-vertex generated road grid (docs/graph.md). Single-threaded.
  [[nodiscard]] static ContractionHierarchy build(const Graph& graph, ChParams params = {});
  static ContractionHierarchy build(const Graph&&, ChParams = {}) = delete;  // would dangle

  /// Writes the hierarchy in waymark's binary format (native byte order, checked on load;
  /// layout in docs/graph.md). The path overload throws SaveError when the file cannot be
  /// written; the stream overload leaves errors in the stream's state.
  void save(const std::string& path) const;
  void save(std::ostream& out) const;

  /// Reads a hierarchy saved by save(). `original` must be the graph it was built from:
  /// vertex and arc counts and arc_fingerprint() are compared. Throws
  /// LoadError(file, 0, reason) for an unreadable file, wrong magic or version, another
  /// graph, a truncated or corrupt file: the checksum and the structure are verified, and a
  /// proof that no shortcut is missing is run, so a forged file cannot answer wrongly
  /// (docs/robustness.md). The proof is a bounded search per arc into a vertex, on every core
  /// (up to 8 threads): a fraction of a build's time (docs/graph.md).
  [[nodiscard]] static ContractionHierarchy load(const std::string& path, const Graph& original);
  [[nodiscard]] static ContractionHierarchy load(std::istream& in, const std::string& name, const Graph& original);
  static ContractionHierarchy load(const std::string&, const Graph&&) = delete;  // would dangle

  [[nodiscard]] std::size_t node_count() const { return vertex_at_.size(); }
  /// Arcs of the graph the hierarchy was built from, as given (self-loops and parallels included).
  [[nodiscard]] std::uint64_t original_arc_count() const { return original_arcs_; }
  /// arc_fingerprint() of the graph the hierarchy was built from.
  [[nodiscard]] std::uint64_t graph_fingerprint() const { return fingerprint_; }
  /// Upward + downward arcs, shortcuts included.
  [[nodiscard]] std::size_t arc_count() const { return up_arcs_.size() + down_arcs_.size(); }

  /// Position of `v` in the contraction order: 0 was contracted first. Requires v < node_count().
  [[nodiscard]] std::uint32_t rank(VertexId v) const { return rank_of_[v.value]; }
  /// The vertex contracted `r`-th. Requires r < node_count().
  [[nodiscard]] VertexId vertex_at(std::uint32_t r) const { return vertex_at_[r]; }

  /// Arcs from the vertex of rank r to higher ranks (heads are ranks).
  [[nodiscard]] std::span<const ChArc> upward(std::uint32_t r) const {
    return std::span<const ChArc>(up_arcs_).subspan(up_offsets_[r], up_offsets_[r + 1] - up_offsets_[r]);
  }
  /// Arcs from higher ranks *into* the vertex of rank r; `head` is the arc's tail.
  [[nodiscard]] std::span<const ChArc> downward(std::uint32_t r) const {
    return std::span<const ChArc>(down_arcs_).subspan(down_offsets_[r], down_offsets_[r + 1] - down_offsets_[r]);
  }
  /// Index of an arc of upward(r) / downward(r) in the flat arrays shortcut halves refer to.
  [[nodiscard]] std::uint32_t upward_begin(std::uint32_t r) const { return up_offsets_[r]; }
  [[nodiscard]] std::uint32_t downward_begin(std::uint32_t r) const { return down_offsets_[r]; }
  [[nodiscard]] const ChArc& upward_arc(std::uint32_t i) const { return up_arcs_[i]; }
  [[nodiscard]] const ChArc& downward_arc(std::uint32_t i) const { return down_arcs_[i]; }
  [[nodiscard]] ChShortcutHalves upward_halves(std::uint32_t i) const { return up_halves_[i]; }
  [[nodiscard]] ChShortcutHalves downward_halves(std::uint32_t i) const { return down_halves_[i]; }

  [[nodiscard]] const ChBuildStats& stats() const { return stats_; }

  /// Whether the weights of the graph it was built (or loaded) for were edited since: its
  /// shortcuts may then be wrong, and queries refuse it (stale_world) until it is built again.
  [[nodiscard]] bool stale() const { return graph_ != nullptr && version_ != graph_->version(); }
  /// Bytes held by the hierarchy's arrays (capacity, not counting the object itself).
  [[nodiscard]] std::size_t memory_bytes() const;

 private:
  friend class ChBuilder;
  /// Rebuilds rank_of_ from vertex_at_ and checks the structure; throws LoadError.
  void validate(const std::string& name);
  /// Proves that no shortcut is missing (ch_verify.cpp); throws LoadError.
  void check_complete(const std::string& name) const;

  const Graph* graph_ = nullptr;  ///< the graph it belongs to, for stale()
  std::uint64_t version_ = 0;
  std::vector<std::uint32_t> rank_of_;  ///< vertex → rank
  std::vector<VertexId> vertex_at_;     ///< rank → vertex
  std::vector<std::uint32_t> up_offsets_;
  std::vector<ChArc> up_arcs_;
  std::vector<ChShortcutHalves> up_halves_;
  std::vector<std::uint32_t> down_offsets_;
  std::vector<ChArc> down_arcs_;
  std::vector<ChShortcutHalves> down_halves_;
  std::uint64_t original_arcs_ = 0;
  std::uint64_t fingerprint_ = 0;
  ChBuildStats stats_;
};

}  // namespace waymark::graph
