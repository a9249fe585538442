#pragma once
/// @file GridSearchSource: a GridPlanner seen as a search::SearchSource (for request queues).

#include <cstddef>
#include <cstdint>

#include "waymark/grid/algorithm.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/search/search_source.hpp"

namespace waymark::grid {

/// Whether GridPlanner searches of this algorithm can run over a sparse node table
/// (QueryOptions::table; src/grid/sparse_searches.cpp): the best-first searches over cells.
/// bfs, dfs and ida keep scratch of their own; jps, jps-plus and theta run over other spaces.
[[nodiscard]] constexpr bool has_sparse_table(Algorithm a) {
  return a == Algorithm::astar || a == Algorithm::wastar || a == Algorithm::dijkstra || a == Algorithm::greedy;
}

/// Hands out the planner's searches and reports its map's version. Refers to the planner,
/// which must outlive it; adds nothing to share, so any number of threads may use one.
class GridSearchSource final : public search::SearchSource<CellId> {
 public:
  explicit GridSearchSource(const GridPlanner& planner) : planner_(&planner) {}
  explicit GridSearchSource(GridPlanner&&) = delete;  // would dangle

  [[nodiscard]] search::SearchHandle<CellId> make_search(const search::QueryOptions<CellId>& options) const override {
    return planner_->make_search(options);
  }
  [[nodiscard]] std::uint64_t world_version() const override { return planner_->map().version(); }
  [[nodiscard]] bool stale() const override { return planner_->stale(); }
  [[nodiscard]] std::size_t node_count() const override { return planner_->map().cell_count(); }
  [[nodiscard]] bool has_sparse_table(const search::QueryOptions<CellId>& options) const override {
    return options.table == search::NodeTableKind::sparse && grid::has_sparse_table(planner_->options().algorithm);
  }
  [[nodiscard]] const GridPlanner& planner() const { return *planner_; }

 private:
  const GridPlanner* planner_;
};

}  // namespace waymark::grid
