#include "waymark/graph/shortest_paths.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>

#include "waymark/core/binary_io.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/hash.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/core/text.hpp"

namespace waymark::graph {
namespace {

constexpr Status success = Status::success();

}  // namespace

// ---------------------------------------------------------------------------------------------
// BidirectionalGraph

BidirectionalGraph::BidirectionalGraph(const Graph& forward)
    : forward_(&forward), backward_(forward.reversed()), synced_version_(forward.version()) {
  // reversed() adds the arc u → v as v → u visiting u in order, so the arcs into each v keep
  // that order: the k-th arc into v (in that visit) is backward arc first_arc(v) + k.
  const std::size_t n = forward.node_count();
  std::vector<std::uint32_t> next(n);
  for (std::size_t v = 0; v < n; ++v) next[v] = backward_.first_arc(backward_.node_at(v)).value;
  backward_arc_.resize(forward.arc_count());
  for (std::size_t a = 0; a < forward.arc_count(); ++a) {
    backward_arc_[a] = ArcId{next[forward.head(ArcId{static_cast<std::uint32_t>(a)}).value]++};
  }
}

std::size_t BidirectionalGraph::sync() {
  std::size_t copied = 0;
  const auto copy = [&](ArcId a) {
    backward_.set_weight(backward_arc_[a.value], forward_->weight(a));
    ++copied;
  };
  if (const auto changes = forward_->changes_since(synced_version_)) {
    for (const ArcChange& c : *changes) copy(c.arc);
  } else {
    for (std::uint32_t a = 0; a < forward_->arc_count(); ++a) copy(ArcId{a});
  }
  synced_version_ = forward_->version();
  return copied;
}

// ---------------------------------------------------------------------------------------------
// RouteTable

namespace {

constexpr std::array<char, 8> route_file_magic{'W', 'M', 'R', 'O', 'U', 'T', 'E', 'S'};

struct RouteFileHeader {
  std::array<char, 8> magic;
  std::uint32_t version;
  std::uint32_t entry_bytes;  ///< sizeof one entry (4)
  std::uint64_t vertices;
  std::uint64_t arcs;
  std::uint64_t graph_fingerprint;
};
static_assert(sizeof(RouteFileHeader) == 40, "the header has no padding");

/// Checks that `row` (the first arcs toward `target`) is a shortest-path tree of `graph`:
/// following entries from any vertex reaches the target without a cycle, every vertex that can
/// reach the target has an entry, and no arc offers a shorter way than the tree's distance
/// (d(u) <= w(u,v) + d(v) for every arc, exactly: the tree's sums w + d(next) are the very
/// ones the build's Dijkstra made, and it kept d(u) <= w + d(v) for every arc it relaxed).
/// `dist` and `state` are scratch of V entries.
/// Returns the first vertex that breaks it, or nullopt.
std::optional<std::size_t> wrong_tree_entry(const Graph& graph, const std::uint32_t* row, std::size_t target,
                                            std::vector<Cost>& dist, std::vector<std::uint8_t>& state,
                                            std::vector<std::size_t>& chain) {
  enum : std::uint8_t { unknown, on_chain, done };
  const std::size_t n = graph.node_count();
  state.assign(n, unknown);
  dist.assign(n, infinite_cost);
  dist[target] = 0;
  state[target] = done;
  for (std::size_t s = 0; s < n; ++s) {
    chain.clear();
    std::size_t at = s;
    while (state[at] == unknown) {  // walk to a vertex whose distance is known
      state[at] = on_chain;
      chain.push_back(at);
      if (row[at] == RouteTable::no_arc) {
        state[at] = done;  // dist stays infinite: unreachable, checked below
        chain.pop_back();
        break;
      }
      at = graph.targets(graph.node_at(at))[row[at]].value;
    }
    if (state[at] == on_chain) return at;  // the entries form a cycle
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const std::size_t u = *it;
      const VertexId uv = graph.node_at(u);
      const std::size_t next = graph.targets(uv)[row[u]].value;
      dist[u] = graph.weights(uv)[row[u]] + dist[next];
      state[u] = done;
    }
  }
  for (std::size_t u = 0; u < n; ++u) {
    const VertexId uv = graph.node_at(u);
    const auto heads = graph.targets(uv);
    const auto weights = graph.weights(uv);
    for (std::size_t i = 0; i < heads.size(); ++i) {
      if (weights[i] + dist[heads[i].value] < dist[u]) return u;  // a shorter way, or an entry missing
    }
  }
  return std::nullopt;
}

}  // namespace

RouteTable::RouteTable(const Graph& graph) : graph_(&graph), version_(graph.version()) {
  const std::size_t n = graph.node_count();
  if (n > max_vertices)
    throw BuildError("a route table holds at most " + number_text(max_vertices) + " vertices (V² × 4 bytes), " +
                     "the graph has " + number_text(n));
  rebuild();
}

void RouteTable::rebuild() {
  const Graph& graph = *graph_;
  const std::size_t n = graph.node_count();
  version_ = graph.version();
  first_arc_.assign(n * n, no_arc);
  // The tree of the reversed graph rooted at t: parent(s) is s's next hop towards t.
  const Graph reversed = graph.reversed();
  ShortestPathTree tree(reversed);
  for (std::size_t t = 0; t < n; ++t) {
    tree.compute(graph.node_at(t));
    std::uint32_t* row = first_arc_.data() + t * n;
    for (std::size_t s = 0; s < n; ++s) {
      const VertexId source = graph.node_at(s);
      const std::optional<VertexId> next = tree.parent(source);
      if (!next) continue;
      // The cheapest of parallel arcs to the next hop, as its position among source's arcs.
      const std::optional<ArcId> arc = graph.find_arc(source, *next);
      WAYMARK_ASSERT(arc.has_value());
      row[s] = arc->value - graph.first_arc(source).value;
    }
  }
}

std::uint32_t RouteTable::first_arc(VertexId source, VertexId target) const {
  if (!graph_->contains(source) || !graph_->contains(target)) return no_arc;
  return first_arc_[std::size_t{target.value} * graph_->node_count() + source.value];
}

template <class Visit>
bool RouteTable::walk(VertexId source, VertexId target, Visit&& visit) const {
  const Graph& g = *graph_;
  if (!g.contains(source) || !g.contains(target)) return false;
  const std::size_t n = g.node_count();
  const std::uint32_t* row = first_arc_.data() + std::size_t{target.value} * n;
  VertexId at = source;
  // Built or loaded, a row is a shortest-path tree (load() refuses cycles): the walk ends.
  while (at != target) {
    const std::uint32_t arc = row[at.value];
    if (arc == no_arc) return false;
    const VertexId next = g.targets(at)[arc];
    visit(next, g.weights(at)[arc]);
    at = next;
  }
  return true;
}

Status RouteTable::route(VertexId source, VertexId target, Path<VertexId>& out) const {
  out.clear();
  out.nodes.push_back(source);
  out.cost = 0;
  const bool found = walk(source, target, [&](VertexId next, Cost w) {
    out.nodes.push_back(next);
    out.cost += w;
  });
  if (!found) {
    out.clear();
    if (!graph_->contains(source) || !graph_->contains(target))
      return Status::failure(StatusDetail::invalid_query | StatusDetail::out_of_bounds);
    return Status::failure(StatusDetail::unreachable);
  }
  return success;
}

Cost RouteTable::distance(VertexId source, VertexId target) const {
  Cost sum = 0;
  return walk(source, target, [&](VertexId, Cost w) { sum += w; }) ? sum : infinite_cost;
}

void RouteTable::save(const std::string& path) const {
  save_file(path, [&](std::ostream& out) {
    ChecksummedWriter w(out);
    const RouteFileHeader header{route_file_magic,     file_version,         sizeof(std::uint32_t),
                                 graph_->node_count(), graph_->arc_count(), arc_fingerprint(*graph_)};
    w.bytes(&header, sizeof header);
    w.array(first_arc_);
    w.finish();
  });
}

RouteTable RouteTable::load(const std::string& path, const Graph& graph) {
  return load_file(path, [&](std::istream& in) { return load(in, path, graph); });
}

RouteTable RouteTable::load(std::istream& in, const std::string& name, const Graph& graph) {
  ChecksummedReader r(in, name);
  RouteFileHeader header{};
  r.bytes(&header, sizeof header, "header");
  if (header.magic != route_file_magic) r.fail("not a waymark route table");
  if (header.version != file_version)
    r.fail("route table version " + number_text(header.version) + ", expected " + number_text(file_version));
  if (header.entry_bytes != sizeof(std::uint32_t))
    r.fail("entries of " + number_text(header.entry_bytes) + " bytes, expected 4");
  const std::size_t n = graph.node_count();
  if (header.vertices != n || header.arcs != graph.arc_count())
    r.fail("table is for a graph with " + number_text(header.vertices) + " vertices and " +
           number_text(header.arcs) + " arcs, this graph has " + number_text(n) + " and " +
           number_text(graph.arc_count()));
  if (n > max_vertices) r.fail("a route table holds at most " + number_text(max_vertices) + " vertices");
  if (header.graph_fingerprint != arc_fingerprint(graph)) r.fail("table was built for a different graph (the arcs differ)");
  std::vector<std::uint32_t> entries;
  r.array(entries, n * n, "entries");
  r.finish();

  // Every entry must name one of its source's arcs, so a read-out never leaves the graph, and
  // each target's entries must form a shortest-path tree, so a forged file cannot answer
  // wrongly. O(V · (V + E)), a fraction of the build's cost.
  std::vector<Cost> dist;
  std::vector<std::uint8_t> state;
  std::vector<std::size_t> chain;
  for (std::size_t t = 0; t < n; ++t) {
    const std::uint32_t* row = entries.data() + t * n;
    for (std::size_t s = 0; s < n; ++s) {
      const std::uint32_t e = row[s];
      if (e == no_arc ? false : (s == t || e >= graph.out_degree(graph.node_at(s))))
        r.fail("corrupt entry for source " + number_text(s) + ", target " + number_text(t));
    }
    if (const auto s = wrong_tree_entry(graph, row, t, dist, state, chain))
      r.fail("the entries toward target " + number_text(t) + " are not shortest paths (wrong at source " +
             number_text(*s) + ")");
  }
  return RouteTable(graph, std::move(entries));
}

}  // namespace waymark::graph
