#pragma once
// Private to the grid module: the planner's best-first searches over a PagedNodeTable
// (search::NodeTableKind::sparse), kept out of grid_planner.cpp so that their template
// instantiations live in one file.

#include <memory>

#include "waymark/grid/grid_planner.hpp"
#include "waymark/search/events.hpp"
#include "waymark/search/observer.hpp"

namespace waymark::grid::detail {

/// A search of `algorithm` backed by a PagedNodeTable with query's page budget, or null
/// when the algorithm has none (only astar, wastar, dijkstra and greedy do: the others keep
/// the dense table).
std::unique_ptr<search::SearchModel<CellId>> make_sparse_model(const GridMap& map, const GridSpace& space,
                                                               const GridPlannerOptions& options, Algorithm algorithm,
                                                               const search::QueryOptions<CellId>& query,
                                                               search::NullObserver observer);
std::unique_ptr<search::SearchModel<CellId>> make_sparse_model(const GridMap& map, const GridSpace& space,
                                                               const GridPlannerOptions& options, Algorithm algorithm,
                                                               const search::QueryOptions<CellId>& query,
                                                               search::EventObserver<CellId> observer);

}  // namespace waymark::grid::detail
