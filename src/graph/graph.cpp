#include "waymark/graph/graph.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <utility>

#include "waymark/core/errors.hpp"
#include "waymark/core/hash.hpp"
#include "waymark/core/text.hpp"

namespace waymark::graph {
namespace {

bool is_valid_weight(Cost w) { return w >= 0 && std::isfinite(w); }  // false for NaN too

}  // namespace

GraphBuilder::GraphBuilder(std::size_t vertex_count) : vertex_count_(vertex_count) {
  if (vertex_count > max_vertices)
    throw BuildError("a graph holds at most " + number_text(max_vertices) + " vertices, asked for " +
                     number_text(vertex_count));
}

VertexId GraphBuilder::add_vertex() {
  if (vertex_count_ == max_vertices)
    throw BuildError("a graph holds at most " + number_text(max_vertices) + " vertices");
  return VertexId{static_cast<std::uint32_t>(vertex_count_++)};
}

void GraphBuilder::reserve_arcs(std::size_t arcs) {
  sources_.reserve(arcs);
  targets_.reserve(arcs);
  weights_.reserve(arcs);
}

void GraphBuilder::check_arc(VertexId from, VertexId to, Cost weight, std::size_t arcs_to_add) const {
  for (const VertexId v : {from, to}) {
    if (v.value >= vertex_count_)
      throw BuildError("vertex " + number_text(v.value) + " out of range (the graph has " +
                       number_text(vertex_count_) + " vertices)");
  }
  if (!is_valid_weight(weight))
    throw BuildError("edge weight must be finite and >= 0, got " + number_text(weight));
  if (max_arcs - arc_count() < arcs_to_add)
    throw BuildError("a graph holds at most " + number_text(max_arcs) + " arcs");
}

void GraphBuilder::push_arc(VertexId from, VertexId to, Cost weight) {
  sources_.push_back(from);
  targets_.push_back(to);
  weights_.push_back(weight);
}

void GraphBuilder::add_edge(VertexId from, VertexId to, Cost weight) {
  check_arc(from, to, weight, 1);
  push_arc(from, to, weight);
}

void GraphBuilder::add_undirected_edge(VertexId a, VertexId b, Cost weight) {
  check_arc(a, b, weight, 2);
  push_arc(a, b, weight);
  push_arc(b, a, weight);
}

void GraphBuilder::set_positions(std::vector<Vec3> positions, Coordinates kind) {
  if (kind == Coordinates::none) throw BuildError("positions need Coordinates::xy or Coordinates::xyz");
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const Vec3 p = positions[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      throw BuildError("vertex " + number_text(i) + " has a non-finite coordinate");
    if (kind == Coordinates::xy && p.z != 0)
      throw BuildError("vertex " + number_text(i) + " has z = " + number_text(p.z) + " in a planar graph");
  }
  positions_ = std::move(positions);
  coordinates_ = kind;
}

Graph GraphBuilder::build() const {
  if (coordinates_ != Coordinates::none && positions_.size() != vertex_count_)
    throw BuildError(number_text(positions_.size()) + " positions for " + number_text(vertex_count_) +
                     " vertices");
  Graph g;
  // Counting sort by source: out-degrees, prefix sums, then each arc into its source's next free slot.
  g.offsets_.assign(vertex_count_ + 1, 0);
  for (const VertexId s : sources_) ++g.offsets_[s.value + 1];
  for (std::size_t v = 0; v < vertex_count_; ++v) g.offsets_[v + 1] += g.offsets_[v];
  std::vector<std::uint32_t> next(g.offsets_.begin(), g.offsets_.end() - 1);
  g.targets_.resize(arc_count());
  g.weights_.resize(arc_count());
  for (std::size_t a = 0; a < arc_count(); ++a) {
    const std::uint32_t slot = next[sources_[a].value]++;
    g.targets_[slot] = targets_[a];
    g.weights_[slot] = weights_[a];
  }
  g.positions_ = positions_;
  g.coordinates_ = coordinates_;
  return g;
}

VertexId Graph::tail(ArcId a) const {
  WAYMARK_ASSERT(contains(a));
  // The last vertex whose first arc is at or before a.
  const auto it = std::upper_bound(offsets_.begin(), offsets_.end(), a.value);
  return VertexId{static_cast<std::uint32_t>(it - offsets_.begin() - 1)};
}

std::optional<ArcId> Graph::find_arc(VertexId from, VertexId to) const {
  if (!contains(from)) return std::nullopt;
  std::optional<ArcId> best;
  for (std::uint32_t a = offsets_[from.value]; a < offsets_[from.value + 1]; ++a) {
    if (targets_[a] == to && (!best || weights_[a] < weights_[best->value])) best = ArcId{a};
  }
  return best;
}

void Graph::set_weight(ArcId a, Cost weight) {
  if (!contains(a)) throw BuildError("arc " + number_text(a.value) + " is not in the graph");
  if (!is_valid_weight(weight)) throw BuildError("edge weight must be finite and >= 0, got " + number_text(weight));
  if (weights_[a.value] == weight) return;
  log_.record(ArcChange{0, a, weights_[a.value]});
  weights_[a.value] = weight;
}

Graph Graph::reversed() const {
  GraphBuilder b(node_count());
  b.reserve_arcs(arc_count());
  for (std::uint32_t u = 0; u < node_count(); ++u) {
    for_each_successor(VertexId{u}, [&](VertexId v, Cost w) { b.add_edge(v, VertexId{u}, w); });
  }
  if (has_positions()) b.set_positions(positions_, coordinates_);
  return b.build();
}

std::uint64_t arc_fingerprint(const Graph& graph) {
  Hasher h;
  h.add(graph.node_count());
  h.add(graph.arc_count());
  for (std::size_t i = 0; i < graph.node_count(); ++i) {
    const VertexId u = graph.node_at(i);
    h.add(graph.out_degree(u));
    graph.for_each_successor(u, [&](VertexId v, Cost w) {
      h.add(v.value);
      h.add(w == 0 ? 0 : std::bit_cast<std::uint64_t>(w));  // +0 and −0 weigh the same
    });
  }
  return h.value();
}

}  // namespace waymark::graph
