#pragma once
/// @file Road-network graph formats: DIMACS 9th Implementation Challenge `.gr` (+ `.co`) and
/// plain node/edge lists (`id x y` / `edge_id u v length`, as in the Oldenburg and San
/// Joaquin sets of Li's spatial data repository). Loaders throw LoadError (file, line, reason)
/// on malformed input; CRLF is accepted.

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "waymark/core/assert.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/graph/graph.hpp"

namespace waymark::io {

/// How a file numbers its vertices: file id first() + k is VertexId k, for k < count().
/// DIMACS counts from 1, node lists from 0. Lets a CLI take and print the file's ids.
class FileVertexIds {
 public:
  FileVertexIds() = default;
  FileVertexIds(std::int64_t first, std::size_t count) : first_(first), count_(count) {}

  [[nodiscard]] std::int64_t first() const { return first_; }
  [[nodiscard]] std::size_t count() const { return count_; }

  /// The vertex a file id names; nullopt when the file has no such vertex.
  [[nodiscard]] std::optional<VertexId> to_vertex(std::int64_t file_id) const {
    if (file_id < first_ || static_cast<std::uint64_t>(file_id - first_) >= count_) return std::nullopt;
    return VertexId{static_cast<std::uint32_t>(file_id - first_)};
  }
  /// The file's id of `v`. Requires v.value < count().
  [[nodiscard]] std::int64_t to_file(VertexId v) const {
    WAYMARK_ASSERT(v.value < count_);
    return first_ + static_cast<std::int64_t>(v.value);
  }

 private:
  std::int64_t first_ = 0;
  std::size_t count_ = 0;
};

/// The default most vertices a graph file may declare or hold: 2^26 (67 million; the full USA
/// road graph of the DIMACS challenge has 24 million). Checked on the header before anything is
/// allocated; a graph this large needs about 0.5 GB plus 12 bytes per arc.
inline constexpr std::size_t max_graph_vertices = std::size_t{1} << 26;
/// The default most arcs a graph file may declare: 2^28 (USA: 58 million).
inline constexpr std::size_t max_graph_arcs = std::size_t{1} << 28;

/// Limits a graph loader checks before it allocates; a file over them is refused with a
/// LoadError that names the limit. Raise them for larger graphs, lower them where the input is
/// untrusted and memory is short (a DIMACS header of N vertices costs about 8·N bytes even when
/// the file is tiny).
struct GraphLoadOptions {
  std::size_t max_vertices = max_graph_vertices;
  std::size_t max_arcs = max_graph_arcs;
};

/// A graph read from files, with the files' vertex numbering.
struct LoadedGraph {
  graph::Graph graph;
  FileVertexIds ids;
};

/// DIMACS `.gr`: `c …` comments, one `p sp N M` line before any arc, then exactly M lines
/// `a U V W` (directed arc U → V, ids 1..N, weight W ≥ 0; decimals accepted). Parallel arcs
/// and self-loops are kept. `name` is used in error messages.
[[nodiscard]] LoadedGraph parse_dimacs_graph(std::istream& gr, const std::string& name,
                                             const GraphLoadOptions& options = {});
/// The same, with positions from a DIMACS `.co`: `c …` comments, `p aux sp co N` (N as in the
/// `.gr`), then one `v ID X Y` per vertex, in any order. The graph gets Coordinates::xy.
[[nodiscard]] LoadedGraph parse_dimacs_graph(std::istream& gr, const std::string& gr_name, std::istream& co,
                                             const std::string& co_name, const GraphLoadOptions& options = {});
/// Reads `gr_path`, and `co_path` unless it is empty.
[[nodiscard]] LoadedGraph load_dimacs_graph(const std::string& gr_path, const std::string& co_path = {},
                                            const GraphLoadOptions& options = {});

/// Whether an edge-list line `U V …` is the arc U → V only, or also V → U.
enum class EdgeDirection : std::uint8_t { directed, undirected };

/// Node list `ID X Y` (ids 0..n-1 for the n lines, each once, any order) and edge list
/// `EDGE_ID U V LENGTH` (the edge id is not used; Oldenburg's edges are undirected).
/// VertexId = file id. The graph gets Coordinates::xy.
[[nodiscard]] LoadedGraph parse_node_edge_lists(std::istream& nodes, const std::string& nodes_name,
                                                std::istream& edges, const std::string& edges_name,
                                                EdgeDirection direction = EdgeDirection::undirected,
                                                const GraphLoadOptions& options = {});
[[nodiscard]] LoadedGraph load_node_edge_lists(const std::string& nodes_path, const std::string& edges_path,
                                               EdgeDirection direction = EdgeDirection::undirected,
                                               const GraphLoadOptions& options = {});

/// One query of a query file: two vertices, and the line they were on.
struct VertexPair {
  VertexId from;
  VertexId to;
  std::size_t line;
};
/// A query file: one `U V` per line in the graph file's numbering (`ids`); blank lines and
/// lines starting with `#` are skipped. LoadError (file, line, reason) on a malformed line or
/// an id the graph does not have.
[[nodiscard]] std::vector<VertexPair> parse_vertex_pairs(std::istream& in, const std::string& name,
                                                         const FileVertexIds& ids);
[[nodiscard]] std::vector<VertexPair> load_vertex_pairs(const std::string& path, const FileVertexIds& ids);

}  // namespace waymark::io
