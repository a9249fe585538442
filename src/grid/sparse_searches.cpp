#include "sparse_searches.hpp"

#include <algorithm>
#include <concepts>
#include <utility>

#include "tie_quantizer.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/paged_node_table.hpp"

namespace waymark::grid::detail {
namespace {

using search::AStarPriority;
using search::BestFirstOptions;
using search::BestFirstSearch;

/// A handle model around a best-first search over a PagedNodeTable: sets the table's page
/// budget, and keeps A*'s key rounding in step with the map's costs (as the dense models do).
template <class Search>
class SparseGridModel final : public search::EngineModel<Search> {
  using Base = search::EngineModel<Search>;
  static constexpr bool quantized = requires(const Search& s) {
    { s.priority() } -> std::same_as<const AStarPriority&>;
  };

 public:
  template <class... Args>
  SparseGridModel(const GridMap& map, std::size_t max_pages, Args&&... args)
      : Base(std::forward<Args>(args)...), map_(&map) {
    this->search().node_table().set_max_pages(max_pages);
    this->search().reserve();
  }

  void begin(std::span<const search::Source<CellId>> sources, const search::Goal<CellId>& goal) override {
    if constexpr (quantized) this->search().set_priority(AStarPriority{tie_quantizer(*map_)});
    Base::begin(sources, goal);
  }

 private:
  const GridMap* map_;
};

template <class Priority, class H, class Obs>
using SparseSearch = BestFirstSearch<GridSpace, H, Priority, Obs, search::PagedNodeTable<GridSpace>>;

template <class Obs>
std::unique_ptr<search::SearchModel<CellId>> make(const GridMap& map, const GridSpace& space,
                                                  const GridPlannerOptions& options, Algorithm algorithm,
                                                  const search::QueryOptions<CellId>& query, Obs observer) {
  using search::DijkstraPriority;
  using search::GreedyPriority;
  using search::WeightedAStarPriority;
  using search::ZeroHeuristic;
  // A byte budget below one page still allows one page (0 stays "no limit").
  const std::size_t pages =
      query.max_table_bytes == 0 ? 0 : std::max<std::size_t>(1, query.max_table_bytes / search::PagedNodeTable<GridSpace>::page_bytes);
  const AnyGridHeuristic h(map, options.heuristic.value_or(default_heuristic(options.diagonal)));
  const BestFirstOptions bf{.reopen_closed = true, .max_nodes = query.max_nodes, .partial_result = query.partial_result};
  switch (algorithm) {
    case Algorithm::astar:
      return std::make_unique<SparseGridModel<SparseSearch<AStarPriority, AnyGridHeuristic, Obs>>>(
          map, pages, space, h, AStarPriority{tie_quantizer(map)}, observer, bf);
    case Algorithm::wastar:
      return std::make_unique<SparseGridModel<SparseSearch<WeightedAStarPriority, AnyGridHeuristic, Obs>>>(
          map, pages, space, h, WeightedAStarPriority{query.weight}, observer, bf);
    case Algorithm::dijkstra:
      return std::make_unique<SparseGridModel<SparseSearch<DijkstraPriority, ZeroHeuristic, Obs>>>(
          map, pages, space, ZeroHeuristic{}, DijkstraPriority{}, observer, bf);
    case Algorithm::greedy:
      return std::make_unique<SparseGridModel<SparseSearch<GreedyPriority, AnyGridHeuristic, Obs>>>(
          map, pages, space, h, GreedyPriority{}, observer, bf);
    default:
      return nullptr;
  }
}

}  // namespace

std::unique_ptr<search::SearchModel<CellId>> make_sparse_model(const GridMap& map, const GridSpace& space,
                                                               const GridPlannerOptions& options, Algorithm algorithm,
                                                               const search::QueryOptions<CellId>& query,
                                                               search::NullObserver observer) {
  return make(map, space, options, algorithm, query, observer);
}

std::unique_ptr<search::SearchModel<CellId>> make_sparse_model(const GridMap& map, const GridSpace& space,
                                                               const GridPlannerOptions& options, Algorithm algorithm,
                                                               const search::QueryOptions<CellId>& query,
                                                               search::EventObserver<CellId> observer) {
  return make(map, space, options, algorithm, query, observer);
}

}  // namespace waymark::grid::detail
