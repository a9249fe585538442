#include "waymark/graph/landmarks.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <fstream>
#include <istream>
#include <limits>
#include <ostream>
#include <string>

#include "waymark/core/binary_io.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/core/text.hpp"
#include "waymark/graph/shortest_paths.hpp"

namespace waymark::graph {
namespace {

/// dist[v] = d(source, v) on the tree's graph, infinite when unreachable; resized to the
/// vertex count.
void distances_from(ShortestPathTree& tree, VertexId source, std::vector<double>& dist) {
  [[maybe_unused]] const Status st = tree.compute(source);
  WAYMARK_ASSERT(st.succeeded());
  dist.resize(tree.space().node_count());
  for (std::size_t v = 0; v < dist.size(); ++v) dist[v] = tree.distance(tree.space().node_at(v));
}

// ---------------------------------------------------------------------------------------------
// Landmark selection.

/// Every arc in both directions: farthest-point selection on undirected distances.
Graph undirected_copy(const Graph& graph) {
  GraphBuilder b(graph.node_count());
  b.reserve_arcs(2 * graph.arc_count());
  for (std::size_t i = 0; i < graph.node_count(); ++i) {
    const VertexId u = graph.node_at(i);
    graph.for_each_successor(u, [&](VertexId v, Cost w) {
      b.add_edge(u, v, w);
      b.add_edge(v, u, w);
    });
  }
  return b.build();
}

struct Component {
  std::uint32_t first;  ///< lowest vertex id in it
  std::size_t size;
};

/// Connected components of a symmetric graph with at least two vertices, largest first (ties:
/// lowest first vertex). Iterative depth-first search, O(V + E).
std::vector<Component> components_with_edges(const Graph& undirected) {
  const std::size_t n = undirected.node_count();
  std::vector<bool> seen(n, false);
  std::vector<VertexId> stack;
  std::vector<Component> found;
  for (std::size_t start = 0; start < n; ++start) {
    if (seen[start]) continue;
    seen[start] = true;
    stack.push_back(undirected.node_at(start));
    std::size_t size = 0;
    while (!stack.empty()) {
      const VertexId u = stack.back();
      stack.pop_back();
      ++size;
      for (const VertexId v : undirected.targets(u)) {
        if (!seen[v.value]) {
          seen[v.value] = true;
          stack.push_back(v);
        }
      }
    }
    if (size >= 2) found.push_back({static_cast<std::uint32_t>(start), size});
  }
  std::stable_sort(found.begin(), found.end(), [](const Component& a, const Component& b) { return a.size > b.size; });
  return found;
}

/// The vertex with the largest finite value (ties: lowest id), or invalid when none is finite.
VertexId farthest(const std::vector<double>& dist) {
  VertexId best;
  double best_d = -1;
  for (std::size_t v = 0; v < dist.size(); ++v) {
    if (dist[v] != infinite_cost && dist[v] > best_d) {
      best_d = dist[v];
      best = VertexId{static_cast<std::uint32_t>(v)};
    }
  }
  return best;
}

/// Farthest-point selection (see Landmarks): one landmark per component with edges, largest
/// component first, then the vertex farthest from the chosen set until `count` or until every
/// vertex is at distance 0 from it.
std::vector<VertexId> choose_landmarks(const Graph& graph, std::size_t count) {
  const Graph undirected = undirected_copy(graph);
  ShortestPathTree search(undirected);
  std::vector<double> dist;
  std::vector<double> cover(graph.node_count(), infinite_cost);  ///< distance to the chosen set
  std::vector<VertexId> chosen;
  const auto add = [&](VertexId landmark) {
    WAYMARK_ASSERT(landmark.valid() && cover[landmark.value] != 0);  // never the same vertex twice
    chosen.push_back(landmark);
    distances_from(search, landmark, dist);
    for (std::size_t v = 0; v < cover.size(); ++v) cover[v] = std::min(cover[v], dist[v]);
  };

  for (const Component& c : components_with_edges(undirected)) {
    if (chosen.size() == count) break;
    distances_from(search, VertexId{c.first}, dist);  // finite exactly on c
    add(farthest(dist));
  }
  while (chosen.size() < count) {
    // Vertices without a landmark in their component are isolated ones now (cover ∞): skipped.
    const VertexId next = farthest(cover);
    if (!next.valid() || cover[next.value] == 0) break;  // nothing left that a landmark would help
    add(next);
  }
  chosen.shrink_to_fit();  // memory_bytes() counts capacity
  return chosen;
}

/// A distance as stored: rounded to the nearest float; beyond the float range FLT_MAX (see
/// Landmarks::lower_bound for why that stays admissible). Avoids the undefined out-of-range
/// double → float conversion.
float stored_distance(double d) {
  if (d == infinite_cost) return std::numeric_limits<float>::infinity();
  if (d >= static_cast<double>(std::numeric_limits<float>::max())) return std::numeric_limits<float>::max();
  return static_cast<float>(d);
}

// ---------------------------------------------------------------------------------------------
// File format, all little-endian:
//   header   magic[8] "WMLANDMK", u32 version, u32 landmark count k, u64 vertex count V,
//            u64 arc count E, u64 arc fingerprint
//   ids      k × u32
//   table    V rows × 2k × f32 (IEEE-754 bits): d(L_i, v) for i < k, then d(v, L_i)
//   trailer  u64 checksum (core/binary_io.hpp: Hasher over every byte before it)

constexpr std::array<unsigned char, 8> landmark_file_magic{'W', 'M', 'L', 'A', 'N', 'D', 'M', 'K'};
constexpr std::uint32_t landmark_file_version = 1;
constexpr std::size_t header_bytes = 8 + 4 + 4 + 8 + 8 + 8;
constexpr std::size_t rows_per_chunk = 4096;  ///< table rows read or written at once

void put_le(std::vector<unsigned char>& out, std::uint64_t value, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) out.push_back(static_cast<unsigned char>(value >> (8 * i)));
}

std::uint64_t get_le(const unsigned char* p, std::size_t bytes) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < bytes; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}

}  // namespace

Landmarks::Landmarks(const Graph& graph, LandmarkParams params)
    : graph_(&graph), version_(graph.version()), node_count_(graph.node_count()), arc_count_(graph.arc_count()) {
  if (params.count < 1 || params.count > LandmarkParams::max_count)
    throw BuildError("LandmarkParams::count must be in 1.." + number_text(LandmarkParams::max_count) + ", got " +
                     number_text(params.count));
  const Stopwatch watch;
  fingerprint_ = arc_fingerprint(graph);
  vertices_ = choose_landmarks(graph, params.count);
  distances_ = stored_distances(graph, vertices_);
  preprocessing_seconds_ = watch.seconds();
}

std::vector<float> Landmarks::stored_distances(const Graph& graph, std::span<const VertexId> landmarks) {
  const std::size_t k = landmarks.size(), n = graph.node_count();
  std::vector<float> table(n * 2 * k);
  std::vector<double> dist;
  const auto fill = [&](const Graph& g, std::size_t column_offset) {
    ShortestPathTree search(g);
    for (std::size_t i = 0; i < k; ++i) {
      distances_from(search, landmarks[i], dist);
      for (std::size_t v = 0; v < n; ++v) table[v * 2 * k + column_offset + i] = stored_distance(dist[v]);
    }
  };
  fill(graph, 0);             // d(L, v): from L on the graph
  fill(graph.reversed(), k);  // d(v, L): from L on the reversed graph
  return table;
}

bool Landmarks::matches(const Graph& graph) const {
  return graph.node_count() == node_count_ && graph.arc_count() == arc_count_ && arc_fingerprint(graph) == fingerprint_;
}

void Landmarks::save(const std::string& path) const {
  save_file(path, [&](std::ostream& out) { save(out); });
}

void Landmarks::save(std::ostream& out) const {
  ChecksummedWriter writer(out);
  const std::size_t k = count();
  std::vector<unsigned char> bytes(landmark_file_magic.begin(), landmark_file_magic.end());
  put_le(bytes, landmark_file_version, 4);
  put_le(bytes, k, 4);
  put_le(bytes, node_count_, 8);
  put_le(bytes, arc_count_, 8);
  put_le(bytes, fingerprint_, 8);
  for (const VertexId v : vertices_) put_le(bytes, v.value, 4);
  writer.bytes(bytes.data(), bytes.size());
  const std::size_t row_floats = 2 * k;
  for (std::size_t first = 0; first < node_count_; first += rows_per_chunk) {
    const std::size_t rows = std::min(rows_per_chunk, node_count_ - first);
    bytes.clear();
    for (std::size_t i = first * row_floats; i < (first + rows) * row_floats; ++i)
      put_le(bytes, std::bit_cast<std::uint32_t>(distances_[i]), 4);
    writer.bytes(bytes.data(), bytes.size());
  }
  writer.finish();
}

Landmarks Landmarks::load(const std::string& path, const Graph& graph) {
  return load_file(path, [&](std::istream& in) { return load(in, path, graph); });
}

Landmarks Landmarks::load(std::istream& in, const std::string& name, const Graph& graph) {
  ChecksummedReader reader(in, name);
  std::vector<unsigned char> bytes;
  // Exactly n bytes into `bytes`.
  const auto read = [&](std::size_t n, const char* what) {
    bytes.resize(n);
    reader.bytes(bytes.data(), n, what);
  };
  read(landmark_file_magic.size(), "magic number");
  if (!std::equal(landmark_file_magic.begin(), landmark_file_magic.end(), bytes.begin())) reader.fail("not a waymark landmark file");
  read(header_bytes - landmark_file_magic.size(), "header");
  const auto version = static_cast<std::uint32_t>(get_le(&bytes[0], 4));
  const std::uint64_t k = get_le(&bytes[4], 4);
  const std::uint64_t vertices = get_le(&bytes[8], 8);
  const std::uint64_t arcs = get_le(&bytes[16], 8);
  const std::uint64_t fingerprint = get_le(&bytes[24], 8);
  if (version != landmark_file_version)
    reader.fail("landmark file version " + number_text(version) + ", this build reads version " +
                number_text(landmark_file_version));
  if (k > LandmarkParams::max_count)
    reader.fail(number_text(k) + " landmarks, more than the limit of " + number_text(LandmarkParams::max_count));
  if (vertices != graph.node_count() || arcs != graph.arc_count())
    reader.fail("landmarks were built for a graph with " + number_text(vertices) + " vertices and " +
                number_text(arcs) + " arcs, this graph has " + number_text(graph.node_count()) + " and " +
                number_text(graph.arc_count()));
  if (fingerprint != arc_fingerprint(graph))
    reader.fail("landmarks were built for a different graph (same size, different arcs)");

  Landmarks table;
  table.graph_ = &graph;
  table.version_ = graph.version();
  table.node_count_ = graph.node_count();
  table.arc_count_ = graph.arc_count();
  table.fingerprint_ = fingerprint;
  read(4 * k, "landmark list");
  table.vertices_.reserve(k);
  for (std::size_t i = 0; i < k; ++i) table.vertices_.push_back(VertexId{static_cast<std::uint32_t>(get_le(&bytes[4 * i], 4))});

  const std::size_t row_floats = 2 * k;
  table.distances_.resize(table.node_count_ * row_floats);
  for (std::size_t first = 0; first < table.node_count_; first += rows_per_chunk) {
    const std::size_t rows = std::min(rows_per_chunk, table.node_count_ - first);
    read(4 * rows * row_floats, "distance table");
    for (std::size_t i = 0; i < rows * row_floats; ++i)
      table.distances_[first * row_floats + i] = std::bit_cast<float>(static_cast<std::uint32_t>(get_le(&bytes[4 * i], 4)));
  }
  reader.finish();

  // The ids first: the searches below start from them.
  std::vector<bool> is_landmark(table.node_count_, false);
  for (const VertexId l : table.vertices_) {
    if (l.value >= table.node_count_) reader.fail("landmark " + number_text(l.value) + " is not a vertex");
    if (is_landmark[l.value]) reader.fail("landmark " + number_text(l.value) + " is listed twice");
    is_landmark[l.value] = true;
  }
  // A checksum does not stop a forger: the distances are searched again from the stored
  // landmarks (2k Dijkstra searches, the build without choosing landmarks) and must be the
  // very floats a build stores, so ALT's bound can never overestimate.
  const std::vector<float> expected = stored_distances(graph, table.vertices_);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (std::bit_cast<std::uint32_t>(expected[i]) != std::bit_cast<std::uint32_t>(table.distances_[i])) {
      const std::size_t v = i / (2 * k), column = i % (2 * k);
      reader.fail("the distances of landmark " + number_text(table.vertices_[column % k].value) +
                  " are not its shortest distances (vertex " + number_text(v) + ")");
    }
  }
  return table;
}

}  // namespace waymark::graph
