#include "waymark/regions/labeling.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"
#include "waymark/grid/grid_space.hpp"
#include "waymark/regions/seed_index.hpp"
#include "waymark/search/shortest_path_tree.hpp"

namespace waymark::regions {

namespace {

/// A navmesh's polygons as a search space: successors across shared edges, each step costing
/// polygon_step_cost (precomputed per corner; walls get nothing).
class PolygonSpace {
 public:
  using node_type = PolyId;

  explicit PolygonSpace(const navmesh::NavMesh& mesh) : mesh_(&mesh), cost_(mesh.data().corners.size(), 0) {
    for (std::uint32_t k = 0; k < cost_.size(); ++k) {
      if (mesh.data().neighbors[k].valid()) cost_[k] = polygon_step_cost(mesh, k);
    }
  }

  [[nodiscard]] std::size_t node_count() const { return mesh_->poly_count(); }
  [[nodiscard]] std::size_t index_of(PolyId p) const { return p.value; }
  [[nodiscard]] PolyId node_at(std::size_t i) const { return PolyId{static_cast<std::uint32_t>(i)}; }
  [[nodiscard]] bool is_traversable(PolyId p) const { return p.value < mesh_->poly_count(); }

  template <class F>
  void for_each_successor(PolyId p, F&& f) const {
    const navmesh::NavMeshData& d = mesh_->data();
    for (std::uint32_t k = d.poly_begin[p.value]; k < d.poly_begin[p.value + 1]; ++k) {
      if (d.neighbors[k].valid()) f(d.neighbors[k], cost_[k]);
    }
  }

 private:
  const navmesh::NavMesh* mesh_;
  std::vector<Cost> cost_;
};

[[noreturn]] void refuse_seed(std::size_t index, const std::string& reason) {
  throw BuildError("seed " + number_text(index + 1) + ": " + reason);
}

/// Refuses an empty list, and the first id at or above `count` or repeated.
template <class Id>
void check_id_seeds(std::span<const Id> seeds, std::size_t count, const char* what, const char* plural,
                    const char* world) {
  if (seeds.empty()) throw BuildError("regions need at least one seed");
  std::unordered_map<std::uint32_t, std::size_t> first;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    const std::uint32_t v = seeds[i].value;
    if (v >= count) {
      refuse_seed(i, std::string(what) + " " + number_text(v) + " is not in the " + world + " (" +
                         number_text(count) + " " + plural + ")");
    }
    const auto [it, fresh] = first.emplace(v, i);
    if (!fresh) refuse_seed(i, std::string(what) + " " + number_text(v) + " repeats seed " + number_text(it->second + 1));
  }
}

std::string cell_text(grid::CellCoord c) {
  std::string s(1, '(');  // built by appending: GCC 12 warns (-Wrestrict) on "(" + std::string
  s += number_text(c.x);
  s += ',';
  s += number_text(c.y);
  s += ')';
  return s;
}

}  // namespace

/// Fills Regions: the labelling itself, then what every kind shares.
class RegionsBuilder {
 public:
  /// Geodesic labels: one multi-source Dijkstra of the engine; each element takes the label of
  /// the source its shortest-path tree branch starts from (parents followed once per element,
  /// memoised, so O(elements) on top of the search).
  template <search::DenseSearchSpace Space>
  static Regions geodesic(const Space& space, std::span<const typename Space::node_type> seeds) {
    using Node = typename Space::node_type;
    Regions r;
    r.metric_ = Metric::geodesic;
    search::ShortestPathTree<Space> tree(space);
    std::vector<search::Source<Node>> sources;
    sources.reserve(seeds.size());
    for (const Node& s : seeds) sources.push_back({s, 0});
    tree.compute(sources);  // seeds were checked: it succeeds
    const std::size_t n = space.node_count();
    r.labels_.assign(n, no_region);
    r.distances_.assign(n, infinite_cost);
    std::vector<std::size_t> chain;
    for (std::size_t i = 0; i < n; ++i) {
      Node v = space.node_at(i);
      if (r.labels_[i] != no_region || !tree.reached(v)) continue;
      chain.clear();
      RegionId label = no_region;
      for (;;) {
        const std::size_t at = space.index_of(v);
        if (r.labels_[at] != no_region) {
          label = r.labels_[at];
          break;
        }
        chain.push_back(at);
        const std::optional<Node> parent = tree.parent(v);
        if (!parent) {
          label = tree.origin(v).value_or(no_region);
          break;
        }
        v = *parent;
      }
      for (const std::size_t e : chain) {
        r.labels_[e] = label;
        r.distances_[e] = tree.distance(space.node_at(e));
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (r.labels_[i] == no_region && search::node_is_traversable(space, space.node_at(i))) ++r.unreached_;
    }
    for (const Node& s : seeds) r.seeds_.push_back(static_cast<std::uint32_t>(space.index_of(s)));
    return r;
  }

  /// Euclidean labels of a grid: each passable cell's centre goes to the nearest seed centre
  /// (`centers[i]`: the centre of seed cell `seeds[i]`).
  static Regions euclidean(const grid::GridMap& map, std::span<const CellId> seeds, std::span<const Vec3> centers) {
    Regions r;
    r.metric_ = Metric::euclidean;
    std::vector<SeedArea> areas;
    areas.reserve(seeds.size());
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      areas.push_back({centers[i]});
      r.seeds_.push_back(seeds[i].value);
    }
    const SeedIndex index(areas);
    r.labels_.assign(map.cell_count(), no_region);
    r.distances_.assign(map.cell_count(), infinite_cost);
    for (std::uint32_t i = 0; i < map.cell_count(); ++i) {
      if (!map.passable(CellId{i})) continue;
      const Vec3 p = map.position(CellId{i});
      const RegionId label = index.nearest(p);
      r.labels_[i] = label;
      r.distances_[i] = distance(p, areas[label].center);
    }
    return r;
  }

  /// Sizes, borders and the adjacency graph (positioned at `seed_positions` unless empty).
  template <search::SearchSpace Space>
  static void finish(Regions& r, const Space& space, std::vector<Vec3> seed_positions, graph::Coordinates kind,
                     std::uint64_t version) {
    r.world_version_ = version;
    r.sizes_.assign(r.seeds_.size(), 0);
    for (const RegionId l : r.labels_) {
      if (l != no_region) ++r.sizes_[l];
    }
    std::vector<RegionBorder> crossings;
    for (std::size_t i = 0; i < r.labels_.size(); ++i) {
      const RegionId a = r.labels_[i];
      if (a == no_region) continue;
      space.for_each_successor(space.node_at(i), [&](const typename Space::node_type& s, Cost w) {
        const std::size_t j = space.index_of(s);
        const RegionId b = r.labels_[j];
        if (b == no_region || b == a) return;
        crossings.push_back({std::min(a, b), std::max(a, b), r.distances_[i] + w + r.distances_[j]});
      });
    }
    std::sort(crossings.begin(), crossings.end(), [](const RegionBorder& x, const RegionBorder& y) {
      return x.a != y.a ? x.a < y.a : x.b != y.b ? x.b < y.b : x.cost < y.cost;
    });
    for (const RegionBorder& c : crossings) {  // sorted: the first of each pair is its cheapest
      if (r.borders_.empty() || r.borders_.back().a != c.a || r.borders_.back().b != c.b) r.borders_.push_back(c);
    }
    graph::GraphBuilder builder(r.seeds_.size());
    builder.reserve_arcs(2 * r.borders_.size());
    for (const RegionBorder& b : r.borders_) builder.add_undirected_edge(VertexId{b.a}, VertexId{b.b}, b.cost);
    if (!seed_positions.empty()) builder.set_positions(std::move(seed_positions), kind);
    r.adjacency_ = builder.build();
  }
};

std::optional<SeedProblem> find_seed_problem(const grid::GridMap& map, std::span<const grid::CellCoord> seeds) {
  std::unordered_map<std::uint32_t, std::size_t> first;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    const grid::CellCoord c = seeds[i];
    if (!map.in_bounds(c.x, c.y)) {
      return SeedProblem{i, cell_text(c) + " is outside the " + number_text(map.width()) + "x" +
                                number_text(map.height()) + " map"};
    }
    if (!map.passable(c.x, c.y)) return SeedProblem{i, cell_text(c) + " is a blocked cell"};
    const auto [it, fresh] = first.emplace(map.cell(c.x, c.y).value, i);
    if (!fresh) return SeedProblem{i, cell_text(c) + " repeats seed " + number_text(it->second + 1)};
  }
  return std::nullopt;
}

Regions label_grid(const grid::GridMap& map, std::span<const grid::CellCoord> seeds, const GridRegionParams& params) {
  if (seeds.empty()) throw BuildError("regions need at least one seed");
  if (const auto problem = find_seed_problem(map, seeds)) refuse_seed(problem->index, problem->reason);
  std::vector<CellId> cells;
  std::vector<Vec3> positions;
  cells.reserve(seeds.size());
  positions.reserve(seeds.size());
  for (const grid::CellCoord c : seeds) {
    cells.push_back(map.cell(c.x, c.y));
    positions.push_back(map.position(cells.back()));
  }
  const grid::GridSpace space(map, params.diagonal);
  Regions r = params.metric == Metric::geodesic ? RegionsBuilder::geodesic(space, std::span<const CellId>(cells))
                                                : RegionsBuilder::euclidean(map, cells, positions);
  RegionsBuilder::finish(r, space, std::move(positions), graph::Coordinates::xy, map.version());
  return r;
}

Regions label_graph(const graph::Graph& graph, std::span<const VertexId> seeds) {
  check_id_seeds(seeds, graph.node_count(), "vertex", "vertices", "graph");
  Regions r = RegionsBuilder::geodesic(graph, seeds);
  std::vector<Vec3> positions;
  if (graph.has_positions()) {
    for (const VertexId v : seeds) positions.push_back(graph.position(v));
  }
  RegionsBuilder::finish(r, graph, std::move(positions), graph.coordinates(), graph.version());
  return r;
}

Cost polygon_step_cost(const navmesh::NavMesh& mesh, std::uint32_t corner) {
  const PolyId q = mesh.data().neighbors[corner];
  if (!q.valid()) return infinite_cost;
  const Vec3 mid = mesh.edge(corner).at(0.5);
  return distance(mesh.centroid(mesh.poly_of_corner(corner)), mid) + distance(mid, mesh.centroid(q));
}

Regions label_navmesh(const navmesh::NavMesh& mesh, std::span<const PolyId> seeds) {
  check_id_seeds(seeds, mesh.poly_count(), "polygon", "polygons", "mesh");
  const PolygonSpace space(mesh);
  Regions r = RegionsBuilder::geodesic(space, seeds);
  std::vector<Vec3> positions;
  for (const PolyId p : seeds) positions.push_back(mesh.centroid(p));
  RegionsBuilder::finish(r, space, std::move(positions), graph::Coordinates::xyz, 0);
  return r;
}

}  // namespace waymark::regions
