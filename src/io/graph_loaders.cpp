#include "waymark/io/graph_loaders.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>
#include <vector>

#include "text_lines.hpp"

#include "waymark/core/text.hpp"

namespace waymark::io {

using graph::Coordinates;
using graph::Graph;
using graph::GraphBuilder;
namespace {

using detail::LineReader;
using detail::parse_number;
using detail::split_fields;

/// DIMACS numbers vertices from 1, node lists from 0.
constexpr std::int64_t dimacs_first_id = 1;
constexpr std::int64_t node_list_first_id = 0;
/// Arcs reserved up front at most, so a bogus `p` line cannot allocate gigabytes before the
/// arcs are there; larger graphs grow as they are read.
constexpr std::size_t max_reserved_arcs = std::size_t{1} << 24;

std::string id_range(const FileVertexIds& ids) {
  if (ids.count() == 0) return "(the graph has no vertices)";
  return number_text(ids.first()) + ".." + number_text(ids.to_file(VertexId{static_cast<std::uint32_t>(ids.count() - 1)}));
}

/// A field holding a file's vertex id, as the vertex it names.
VertexId vertex_field(const LineReader& r, std::string_view field, const FileVertexIds& ids) {
  std::int64_t id = 0;
  if (!parse_number(field, id)) r.fail("bad vertex id " + quoted(field));
  const std::optional<VertexId> v = ids.to_vertex(id);
  if (!v) r.fail("vertex id " + number_text(id) + " out of range " + id_range(ids));
  return *v;
}

/// A number field; NaN and infinities pass (the builder or the caller judges the value).
double number_field(const LineReader& r, std::string_view field, std::string_view what) {
  double x = 0;
  if (!parse_number(field, x)) r.fail("bad " + std::string(what) + " " + quoted(field));
  return x;
}

double coordinate_field(const LineReader& r, std::string_view field) {
  const double x = number_field(r, field, "coordinate");
  if (!std::isfinite(x)) r.fail("coordinate must be finite, got " + quoted(field));
  return x;
}

/// Runs a builder call; its BuildError becomes a LoadError at the reader's line.
template <class F>
void at_line(const LineReader& r, F&& f) {
  try {
    f();
  } catch (const BuildError& e) {
    r.fail(e.what());
  }
}

/// Parses an unsigned count field of a header line, at most `limit`.
std::size_t count_field(const LineReader& r, std::string_view field, std::size_t limit, std::string_view what,
                        std::string_view limit_name) {
  std::uint64_t n = 0;
  if (!parse_number(field, n) || n > limit)
    r.fail(std::string(what) + " must be an integer from 0 to " + number_text(limit) + ", got " + quoted(field) +
           " (the limit GraphLoadOptions::" + std::string(limit_name) + "; raise it for larger graphs)");
  return static_cast<std::size_t>(n);
}

bool is_comment_or_blank(const std::vector<std::string_view>& f) { return f.empty() || f[0] == "c"; }

struct DimacsArcs {
  GraphBuilder builder;
  FileVertexIds ids;
};

DimacsArcs read_dimacs_arcs(std::istream& in, const std::string& name, const GraphLoadOptions& options) {
  LineReader r(in, name);
  GraphBuilder builder;
  FileVertexIds ids;
  std::size_t p_line = 0;  // 0: no 'p' line yet
  std::size_t announced_arcs = 0;
  std::string line;
  while (r.next(line)) {
    const auto f = split_fields(line);
    if (is_comment_or_blank(f)) continue;
    if (f[0] == "p") {
      if (p_line != 0) r.fail("second 'p' line (the first is line " + number_text(p_line) + ")");
      if (f.size() != 4 || f[1] != "sp") r.fail("expected 'p sp N M', got " + quoted(line));
      const std::size_t n = count_field(r, f[2], std::min(options.max_vertices, GraphBuilder::max_vertices),
                                        "vertex count", "max_vertices");
      announced_arcs = count_field(r, f[3], options.max_arcs, "arc count", "max_arcs");
      builder = GraphBuilder(n);
      builder.reserve_arcs(std::min(announced_arcs, max_reserved_arcs));
      ids = FileVertexIds(dimacs_first_id, n);
      p_line = r.number();
    } else if (f[0] == "a") {
      if (p_line == 0) r.fail("arc before the 'p sp N M' line");
      if (f.size() != 4) r.fail("expected 'a U V W', got " + quoted(line));
      if (builder.arc_count() == announced_arcs)
        r.fail("more arcs than the " + number_text(announced_arcs) + " announced on line " + number_text(p_line));
      const VertexId u = vertex_field(r, f[1], ids);
      const VertexId v = vertex_field(r, f[2], ids);
      const Cost w = number_field(r, f[3], "arc weight");
      at_line(r, [&] { builder.add_edge(u, v, w); });
    } else {
      r.fail("unknown line type " + quoted(f[0]) + " (expected c, p or a)");
    }
  }
  if (p_line == 0) r.fail_at(0, "missing 'p sp N M' line");
  if (builder.arc_count() != announced_arcs)
    r.fail_at(p_line, "'p' line announces " + number_text(announced_arcs) + " arcs, the file has " +
                          number_text(builder.arc_count()));
  return {std::move(builder), ids};
}

/// Positions indexed by vertex. Each vertex must get exactly one `v` line. The lines are
/// gathered first, so a header that declares more vertices than the file holds allocates
/// nothing for them.
std::vector<Vec3> read_dimacs_coordinates(std::istream& in, const std::string& name, const FileVertexIds& ids) {
  LineReader r(in, name);
  struct VertexLine {
    VertexId v;
    Vec3 position;
    std::size_t line;
  };
  std::vector<VertexLine> lines;
  std::size_t p_line = 0;
  std::string line;
  while (r.next(line)) {
    const auto f = split_fields(line);
    if (is_comment_or_blank(f)) continue;
    if (f[0] == "p") {
      if (p_line != 0) r.fail("second 'p' line (the first is line " + number_text(p_line) + ")");
      if (f.size() != 5 || f[1] != "aux" || f[2] != "sp" || f[3] != "co")
        r.fail("expected 'p aux sp co N', got " + quoted(line));
      std::uint64_t n = 0;
      if (!parse_number(f[4], n) || n != ids.count())
        r.fail("coordinates for " + quoted(f[4]) + " vertices, the graph has " + number_text(ids.count()));
      p_line = r.number();
    } else if (f[0] == "v") {
      if (p_line == 0) r.fail("coordinates before the 'p aux sp co N' line");
      if (f.size() != 4) r.fail("expected 'v ID X Y', got " + quoted(line));
      const VertexId v = vertex_field(r, f[1], ids);
      lines.push_back({v, Vec3{coordinate_field(r, f[2]), coordinate_field(r, f[3]), 0}, r.number()});
    } else {
      r.fail("unknown line type " + quoted(f[0]) + " (expected c, p or v)");
    }
  }
  if (p_line == 0) r.fail_at(0, "missing 'p aux sp co N' line");
  if (lines.size() < ids.count())
    r.fail_at(p_line, number_text(ids.count() - lines.size()) + " of " + number_text(ids.count()) +
                          " vertices have no coordinates");
  std::vector<Vec3> positions(ids.count());
  std::vector<std::size_t> given_on(ids.count(), 0);  // line of each vertex's 'v', 0: none yet
  for (const VertexLine& l : lines) {
    if (given_on[l.v.value] != 0)
      r.fail_at(l.line, "duplicate coordinates for vertex id " + number_text(ids.to_file(l.v)) + " (first on line " +
                            number_text(given_on[l.v.value]) + ")");
    positions[l.v.value] = l.position;
    given_on[l.v.value] = l.line;
  }
  // As many distinct ids as vertices: none is missing.
  return positions;
}

}  // namespace

LoadedGraph parse_dimacs_graph(std::istream& gr, const std::string& name, const GraphLoadOptions& options) {
  const DimacsArcs arcs = read_dimacs_arcs(gr, name, options);
  return {arcs.builder.build(), arcs.ids};
}

LoadedGraph parse_dimacs_graph(std::istream& gr, const std::string& gr_name, std::istream& co,
                               const std::string& co_name, const GraphLoadOptions& options) {
  DimacsArcs arcs = read_dimacs_arcs(gr, gr_name, options);
  arcs.builder.set_positions(read_dimacs_coordinates(co, co_name, arcs.ids), Coordinates::xy);
  return {arcs.builder.build(), arcs.ids};
}

LoadedGraph load_dimacs_graph(const std::string& gr_path, const std::string& co_path,
                              const GraphLoadOptions& options) {
  std::ifstream gr = open_input_file(gr_path);
  if (co_path.empty()) return parse_dimacs_graph(gr, gr_path, options);
  std::ifstream co = open_input_file(co_path);
  return parse_dimacs_graph(gr, gr_path, co, co_path, options);
}

LoadedGraph parse_node_edge_lists(std::istream& nodes, const std::string& nodes_name, std::istream& edges,
                                  const std::string& edges_name, EdgeDirection direction,
                                  const GraphLoadOptions& options) {
  // Nodes: the id range is known only once every line is read.
  struct NodeLine {
    std::int64_t id;
    Vec3 position;
    std::size_t line;
  };
  std::vector<NodeLine> node_lines;
  std::string line;
  {
    LineReader r(nodes, nodes_name);
    while (r.next(line)) {
      const auto f = split_fields(line);
      if (f.empty()) continue;
      if (f.size() != 3) r.fail("expected 'ID X Y', got " + quoted(line));
      std::int64_t id = 0;
      if (!parse_number(f[0], id)) r.fail("bad vertex id " + quoted(f[0]));
      const std::size_t limit = std::min(options.max_vertices, GraphBuilder::max_vertices);
      if (node_lines.size() == limit)
        r.fail("more than " + number_text(limit) +
               " nodes (the limit GraphLoadOptions::max_vertices; raise it for larger graphs)");
      node_lines.push_back({id, Vec3{coordinate_field(r, f[1]), coordinate_field(r, f[2]), 0}, r.number()});
    }
  }
  const FileVertexIds ids(node_list_first_id, node_lines.size());
  std::vector<Vec3> positions(ids.count());
  std::vector<std::size_t> given_on(ids.count(), 0);
  for (const NodeLine& n : node_lines) {
    const std::optional<VertexId> v = ids.to_vertex(n.id);
    if (!v)
      throw LoadError(nodes_name, n.line, "vertex id " + number_text(n.id) + " out of range " + id_range(ids) +
                                              " (the file lists " + number_text(ids.count()) + " nodes)");
    if (given_on[v->value] != 0)
      throw LoadError(nodes_name, n.line, "duplicate vertex id " + number_text(n.id) + " (first on line " +
                                              number_text(given_on[v->value]) + ")");
    positions[v->value] = n.position;
    given_on[v->value] = n.line;
  }
  // n distinct ids in 0..n-1: none is missing.

  GraphBuilder builder(ids.count());
  builder.set_positions(std::move(positions), Coordinates::xy);
  LineReader r(edges, edges_name);
  while (r.next(line)) {
    const auto f = split_fields(line);
    if (f.empty()) continue;
    if (f.size() != 4) r.fail("expected 'EDGE_ID U V LENGTH', got " + quoted(line));
    std::int64_t edge_id = 0;
    if (!parse_number(f[0], edge_id)) r.fail("bad edge id " + quoted(f[0]));
    const VertexId u = vertex_field(r, f[1], ids);
    const VertexId v = vertex_field(r, f[2], ids);
    const Cost length = number_field(r, f[3], "edge length");
    at_line(r, [&] {
      if (direction == EdgeDirection::undirected) {
        builder.add_undirected_edge(u, v, length);
      } else {
        builder.add_edge(u, v, length);
      }
    });
  }
  return {builder.build(), ids};
}

LoadedGraph load_node_edge_lists(const std::string& nodes_path, const std::string& edges_path,
                                 EdgeDirection direction, const GraphLoadOptions& options) {
  std::ifstream nodes = open_input_file(nodes_path);
  std::ifstream edges = open_input_file(edges_path);
  return parse_node_edge_lists(nodes, nodes_path, edges, edges_path, direction, options);
}

std::vector<VertexPair> parse_vertex_pairs(std::istream& in, const std::string& name, const FileVertexIds& ids) {
  std::vector<VertexPair> pairs;
  LineReader r(in, name);
  std::string line;
  while (r.next(line)) {
    const auto f = split_fields(line);
    if (f.empty() || f[0].starts_with('#')) continue;
    if (f.size() != 2) r.fail("expected 'U V' (two vertex ids), got " + quoted(line));
    pairs.push_back({vertex_field(r, f[0], ids), vertex_field(r, f[1], ids), r.number()});
  }
  return pairs;
}

std::vector<VertexPair> load_vertex_pairs(const std::string& path, const FileVertexIds& ids) {
  std::ifstream in = open_input_file(path);
  return parse_vertex_pairs(in, path, ids);
}

}  // namespace waymark::io
