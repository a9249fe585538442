#include "waymark/graph/shortest_paths.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <fstream>
#include <string>

#include "waymark/core/errors.hpp"
#include "waymark/core/hash.hpp"
#include "waymark/core/stopwatch.hpp"

namespace waymark::graph {
namespace {

constexpr Status success{SearchState::success, StatusDetail::none};
constexpr Status failure{SearchState::failure, StatusDetail::none};

}  // namespace

// ---------------------------------------------------------------------------------------------
// ShortestPathTree

Status ShortestPathTree::compute(VertexId source) {
  const Stopwatch watch;
  stats_ = SearchStats{};
  source_ = source;
  if (!graph_->contains(source)) {
    status_ = failure;
    return status_;
  }
  search_.start(*graph_, source);
  std::size_t max_open = 1;
  while (!search_.exhausted()) {
    search_.settle_next();
    max_open = std::max(max_open, search_.frontier_size());
  }
  stats_.expanded = search_.settled_count();
  stats_.generated = search_.scanned_arcs();
  stats_.max_open_size = max_open;
  stats_.time_s = watch.seconds();
  status_ = success;
  return status_;
}

Status ShortestPathTree::path_to(VertexId target, Path<VertexId>& out) const {
  out.clear();
  if (!reached(target)) return failure;
  for (VertexId v = target; v.valid(); v = search_.parent(v)) out.nodes.push_back(v);
  std::reverse(out.nodes.begin(), out.nodes.end());
  out.cost = search_.distance(target);
  return success;
}

// ---------------------------------------------------------------------------------------------
// BidirectionalDijkstra

void BidirectionalDijkstra::begin(VertexId source, VertexId target) {
  const Timer timer(stats_);
  start_query(source, target);
  best_ = infinite_cost;
  meet_forward_ = meet_backward_ = VertexId::invalid();
  searched_ = false;
  const Graph& forward = graphs_->forward();
  if (!forward.contains(source) || !forward.contains(target)) {
    finish_failure();
    return;
  }
  forward_.start(forward, source);
  backward_.start(graphs_->backward(), target);
  searched_ = true;
  if (source == target) {
    path_.nodes.push_back(source);
    finish_success();
    return;
  }
  note_frontier_size(2);
}

void BidirectionalDijkstra::reserve() {
  forward_.reserve(graphs_->forward());
  backward_.reserve(graphs_->backward());
}

void BidirectionalDijkstra::offer(VertexId forward_end, VertexId backward_end, Cost cost) {
  if (cost < best_) {
    best_ = cost;
    meet_forward_ = forward_end;
    meet_backward_ = backward_end;
  }
}

Status BidirectionalDijkstra::step(std::size_t max_expansions) {
  if (!status_.running()) return status_;
  const Timer timer(stats_);
  for (std::size_t n = 0; n < max_expansions; ++n) {
    if (cancelled_) {
      finish_failure(StatusDetail::cancelled);
      break;
    }
    const Cost forward_key = forward_.min_key();
    const Cost backward_key = backward_.min_key();
    // Every path through a vertex settled by neither side costs at least the sum of the two
    // keys, and every other path was offered when its joining arc was scanned (docs/graph.md).
    // An exhausted side has key infinity, so this also ends unreachable queries.
    if (forward_key + backward_key >= best_) {
      finish_query();
      break;
    }
    const bool go_forward = options_.alternation == Alternation::smaller_key
                                ? forward_key <= backward_key
                                : forward_.frontier_size() <= backward_.frontier_size();
    // Self-loops never shorten a path, so they are not offered as meeting arcs.
    if (go_forward) {
      forward_.settle_next([&](VertexId u, Cost gu, VertexId v, Cost w) {
        if (u != v && backward_.reached(v)) offer(u, v, gu + w + backward_.distance(v));
      });
    } else {
      // Scanning reversed arc x → v is the arc v → x of the graph: forward part ends at v.
      backward_.settle_next([&](VertexId x, Cost gx, VertexId v, Cost w) {
        if (x != v && forward_.reached(v)) offer(v, x, forward_.distance(v) + w + gx);
      });
    }
    note_frontier_size(forward_.frontier_size() + backward_.frontier_size());
  }
  stats_.expanded = forward_.settled_count() + backward_.settled_count();
  stats_.generated = forward_.scanned_arcs() + backward_.scanned_arcs();
  return status_;
}

void BidirectionalDijkstra::finish_query() {
  if (best_ == infinite_cost) {
    finish_failure();
    return;
  }
  path_.clear();
  for (VertexId v = meet_forward_; v.valid(); v = forward_.parent(v)) path_.nodes.push_back(v);
  std::reverse(path_.nodes.begin(), path_.nodes.end());
  for (VertexId v = meet_backward_; v.valid(); v = backward_.parent(v)) path_.nodes.push_back(v);
  path_.cost = best_;
  finish_success();
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
  std::uint64_t checksum;  ///< of the entries
};
static_assert(sizeof(RouteFileHeader) == 48, "the header has no padding");

/// Catches corrupted entries that still name existing arcs.
std::uint64_t entries_checksum(const std::vector<std::uint32_t>& entries) {
  Hasher h;
  for (const std::uint32_t e : entries) h.add(e);
  return h.value();
}

/// Position of the cheapest arc from → to among from's arcs (the first of equal ones).
std::uint32_t cheapest_arc(const Graph& graph, VertexId from, VertexId to) {
  const auto heads = graph.targets(from);
  const auto weights = graph.weights(from);
  std::uint32_t best = RouteTable::no_arc;
  for (std::uint32_t i = 0; i < heads.size(); ++i) {
    if (heads[i] == to && (best == RouteTable::no_arc || weights[i] < weights[best])) best = i;
  }
  WAYMARK_ASSERT(best != RouteTable::no_arc);
  return best;
}

}  // namespace

RouteTable::RouteTable(const Graph& graph) : graph_(&graph) {
  const std::size_t n = graph.node_count();
  if (n > max_vertices)
    throw BuildError("a route table holds at most " + std::to_string(max_vertices) + " vertices (V² × 4 bytes), " +
                     "the graph has " + std::to_string(n));
  first_arc_.assign(n * n, no_arc);
  // The tree of the reversed graph rooted at t: parent(s) is s's next hop towards t.
  const Graph reversed = graph.reversed();
  ShortestPathTree tree(reversed);
  for (std::size_t t = 0; t < n; ++t) {
    tree.compute(graph.node_at(t));
    std::uint32_t* row = first_arc_.data() + t * n;
    for (std::size_t s = 0; s < n; ++s) {
      const VertexId source = graph.node_at(s);
      const VertexId next = tree.parent(source);
      if (next.valid()) row[s] = cheapest_arc(graph, source, next);
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
  // A shortest path has fewer than n arcs; the hop limit only guards against a forged file
  // whose entries form a cycle yet pass load()'s checks.
  for (std::size_t hops = 0; at != target; ++hops) {
    const std::uint32_t arc = row[at.value];
    if (arc == no_arc || hops == n) return false;
    const VertexId next = g.targets(at)[arc];
    visit(next, g.weights(at)[arc]);
    at = next;
  }
  return true;
}

Status RouteTable::route(VertexId source, VertexId target, Path<VertexId>& out) const {
  out.clear();
  out.nodes.push_back(source);
  const bool found = walk(source, target, [&](VertexId next, Cost w) {
    out.nodes.push_back(next);
    out.cost += w;
  });
  if (!found) {
    out.clear();
    return failure;
  }
  return success;
}

Cost RouteTable::distance(VertexId source, VertexId target) const {
  Cost sum = 0;
  return walk(source, target, [&](VertexId, Cost w) { sum += w; }) ? sum : infinite_cost;
}

bool RouteTable::save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary);
  if (!out) return false;
  const RouteFileHeader header{route_file_magic,
                               file_version,
                               sizeof(std::uint32_t),
                               graph_->node_count(),
                               graph_->arc_count(),
                               arc_fingerprint(*graph_),
                               entries_checksum(first_arc_)};
  out.write(reinterpret_cast<const char*>(&header), sizeof header);
  out.write(reinterpret_cast<const char*>(first_arc_.data()),
            static_cast<std::streamsize>(first_arc_.size() * sizeof(std::uint32_t)));
  out.close();
  return !out.fail();
}

RouteTable RouteTable::load(const std::string& path, const Graph& graph) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path, 0, "cannot open file");
  RouteFileHeader header{};
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header)) {
    const bool magic_read = in.gcount() >= static_cast<std::streamsize>(route_file_magic.size());
    if (magic_read && header.magic == route_file_magic)
      throw LoadError(path, 0, "truncated header (" + std::to_string(in.gcount()) + " of " +
                                   std::to_string(sizeof header) + " bytes)");
    throw LoadError(path, 0, "not a waymark route table");
  }
  if (header.magic != route_file_magic) throw LoadError(path, 0, "not a waymark route table");
  if (header.version != file_version)
    throw LoadError(path, 0, "route table version " + std::to_string(header.version) + ", expected " +
                                 std::to_string(file_version));
  if (header.entry_bytes != sizeof(std::uint32_t))
    throw LoadError(path, 0, "entries of " + std::to_string(header.entry_bytes) + " bytes, expected 4");
  const std::size_t n = graph.node_count();
  if (header.vertices != n || header.arcs != graph.arc_count())
    throw LoadError(path, 0, "table is for a graph with " + std::to_string(header.vertices) + " vertices and " +
                                 std::to_string(header.arcs) + " arcs, this graph has " + std::to_string(n) +
                                 " and " + std::to_string(graph.arc_count()));
  if (n > max_vertices)
    throw LoadError(path, 0, "a route table holds at most " + std::to_string(max_vertices) + " vertices");
  if (header.graph_fingerprint != arc_fingerprint(graph))
    throw LoadError(path, 0, "table was built for a different graph (the arcs differ)");

  std::vector<std::uint32_t> entries(n * n);
  const auto bytes = static_cast<std::streamsize>(entries.size() * sizeof(std::uint32_t));
  if (!in.read(reinterpret_cast<char*>(entries.data()), bytes))
    throw LoadError(path, 0, "truncated table (" + std::to_string(in.gcount()) + " of " + std::to_string(bytes) +
                                 " bytes of entries)");
  if (in.peek() != std::char_traits<char>::eof()) throw LoadError(path, 0, "unexpected data after the table");
  if (entries_checksum(entries) != header.checksum) throw LoadError(path, 0, "checksum mismatch: corrupt table");

  // Every entry must name one of its source's arcs, so a read-out never leaves the graph.
  std::vector<std::uint32_t> degree(n);
  for (std::size_t s = 0; s < n; ++s) degree[s] = static_cast<std::uint32_t>(graph.out_degree(graph.node_at(s)));
  for (std::size_t t = 0; t < n; ++t) {
    const std::uint32_t* row = entries.data() + t * n;
    for (std::size_t s = 0; s < n; ++s) {
      const std::uint32_t e = row[s];
      if (e == no_arc ? false : (s == t || e >= degree[s]))
        throw LoadError(path, 0, "corrupt entry for source " + std::to_string(s) + ", target " + std::to_string(t));
    }
  }
  return RouteTable(graph, std::move(entries));
}

}  // namespace waymark::graph
