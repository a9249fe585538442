#pragma once
/// @file Building Regions from seeds: geodesic regions on a grid, a road graph or a navmesh
/// (one multi-source Dijkstra of the search engine labels every element with the seed its
/// shortest path starts from), and Euclidean regions on a grid (nearest seed by straight
/// line, through SeedIndex). See docs/regions.md for the tie rule and the navmesh costs.

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "waymark/core/ids.hpp"
#include "waymark/graph/graph.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/moves.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/regions/regions.hpp"

namespace waymark::regions {

/// How grid regions are built.
struct GridRegionParams {
  /// The moves paths may make (geodesic distances) and that make two cells touch (adjacency).
  grid::DiagonalRule diagonal = grid::DiagonalRule::no_corner_cutting;
  Metric metric = Metric::geodesic;
};

/// Why a list of seeds cannot label a world: the seed (0-based index) and the reason, e.g.
/// "(400,2) is outside the 256x256 map", "(5,5) is a blocked cell", "(3,3) repeats seed 1".
struct SeedProblem {
  std::size_t index = 0;
  std::string reason;
};

/// The first seed that is outside the map, on a blocked cell or a repeat; nullopt when all
/// are fine. O(seeds log seeds).
[[nodiscard]] std::optional<SeedProblem> find_seed_problem(const grid::GridMap& map,
                                                           std::span<const grid::CellCoord> seeds);

/// Grid regions: every passable cell labelled with its nearest seed (params.metric), blocked
/// cells no_region. Seed i is region i. Throws BuildError ("seed N: reason", N from 1) when
/// find_seed_problem finds one, or when there are no seeds.
/// Geodesic: O(cells log cells); euclidean: about O(cells × seeds near each cell).
/// Memory: the result, and 32 bytes per cell while building (the search's node records).
[[nodiscard]] Regions label_grid(const grid::GridMap& map, std::span<const grid::CellCoord> seeds,
                                 const GridRegionParams& params = {});

/// Geodesic regions of a road graph: every vertex labelled with the seed vertex its shortest
/// path (along the arcs, from the seed) starts from. Throws BuildError when there are no
/// seeds, or a seed is not a vertex or repeats one. O((V + E) log V).
[[nodiscard]] Regions label_graph(const graph::Graph& graph, std::span<const VertexId> seeds);

/// The cost of stepping from polygon p to its neighbour across edge k (a corner index of p):
/// |centroid(p) − midpoint(k)| + |midpoint(k) − centroid(q)|, in 3D. The navmesh's geodesic
/// distance is approximated by these centroid-to-portal-midpoint legs (an overestimate of the
/// true shortest distance, which may cross a polygon anywhere).
[[nodiscard]] Cost polygon_step_cost(const navmesh::NavMesh& mesh, std::uint32_t corner);

/// Geodesic regions of a navmesh: every polygon labelled with the seed polygon nearest over
/// the polygon adjacency, each step costing polygon_step_cost. Throws BuildError when there
/// are no seeds, or a seed is not a polygon or repeats one.
[[nodiscard]] Regions label_navmesh(const navmesh::NavMesh& mesh, std::span<const PolyId> seeds);

}  // namespace waymark::regions
