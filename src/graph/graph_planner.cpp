#include "waymark/graph/graph_planner.hpp"

#include <type_traits>
#include <utility>

#include "waymark/core/errors.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/core/text.hpp"
#include "waymark/search/best_first.hpp"

namespace waymark::graph {
namespace {

using search::Goal;
using search::Source;

/// A* with the planner's Euclidean heuristic, taken afresh at each begin(): sync() replaces it
/// when edits lower the admissible scale.
template <class Search>
class EuclideanModel final : public search::EngineModel<Search> {
 public:
  template <class... Args>
  explicit EuclideanModel(const EuclideanHeuristic& current, Args&&... args)
      : search::EngineModel<Search>(std::forward<Args>(args)...), current_(&current) {}

  void begin(std::span<const Source<VertexId>> sources, const Goal<VertexId>& goal) override {
    this->search().set_heuristic(*current_);
    search::EngineModel<Search>::begin(sources, goal);
  }

 private:
  const EuclideanHeuristic* current_;
};

/// Route-table read-outs as a search: begin() answers, step() has nothing left to do.
class TableModel final : public search::SearchModel<VertexId> {
 public:
  TableModel(const RouteTable& table, search::EventSink<VertexId>* events) : table_(&table), events_(events) {}

  void begin(std::span<const Source<VertexId>> sources, const Goal<VertexId>& goal) override {
    const Stopwatch watch;
    stats_ = SearchStats{};
    report(search::EventKind::begin, goal.kind() == Goal<VertexId>::Kind::node, goal.node());
    if (table_->stale()) {
      path_.clear();
      status_ = Status::failure(StatusDetail::stale_world);
    } else if (sources.size() != 1 || goal.kind() != Goal<VertexId>::Kind::node) {
      path_.clear();
      status_ = Status::failure(StatusDetail::invalid_query);  // one read-out per source-target pair
    } else {
      status_ = table_->route(sources[0].node, goal.node(), path_);
      path_.cost += status_.succeeded() ? sources[0].cost : 0;
    }
    if (status_.succeeded()) report(search::EventKind::goal, true, goal.node(), path_.cost);
    search::Event<VertexId> end;
    end.kind = search::EventKind::end;
    end.status = status_;
    if (events_) events_->on_event(end);
    stats_.time_s = watch.seconds();
  }
  Status step(const search::Budget&) override { return status_; }
  void cancel() override {}
  [[nodiscard]] Status status() const override { return status_; }
  [[nodiscard]] const Path<VertexId>& path() const override { return path_; }
  [[nodiscard]] const SearchStats& stats() const override { return stats_; }

 private:
  void report(search::EventKind kind, bool has_node, VertexId node, Cost g = 0) {
    if (!events_) return;
    search::Event<VertexId> e;
    e.kind = kind;
    e.has_node = has_node;
    e.node = node;
    e.g = g;
    events_->on_event(e);
  }

  const RouteTable* table_;
  search::EventSink<VertexId>* events_;
  Status status_;
  Path<VertexId> path_;
  SearchStats stats_;
};

template <class Model>
void warm_up(Model& m) {
  if constexpr (requires { m.search().reserve(); }) m.search().reserve();
}

template <class Search, template <class> class Model = search::EngineModel, class... Args>
std::unique_ptr<search::SearchModel<VertexId>> model(Args&&... args) {
  auto m = std::make_unique<Model<Search>>(std::forward<Args>(args)...);
  warm_up(*m);
  return m;
}

}  // namespace

std::optional<std::string> graph_planner_unsupported(const Graph& graph, Algorithm algorithm) {
  if (algorithm == Algorithm::astar && !graph.has_positions())
    return "astar needs vertex coordinates (a .co file, or node lists); use dijkstra, bidijkstra, alt or ch";
  if (algorithm == Algorithm::table && graph.node_count() > RouteTable::max_vertices)
    return "route tables are limited to " + number_text(RouteTable::max_vertices) + " vertices (V² × 4 bytes); this graph has " +
           number_text(graph.node_count());
  return std::nullopt;
}

GraphPlanner::GraphPlanner(const Graph& graph, const GraphPlannerOptions& options)
    : graph_(&graph), options_(options) {
  if (const auto why = graph_planner_unsupported(graph, options.algorithm)) throw BuildError(*why);
  const bool load = !options.load_from.empty() || options.load_stream != nullptr;
  if (load && !has_preprocessing(options.algorithm))
    throw BuildError(std::string(to_string(options.algorithm)) + " has no preprocessing to load");
  const Stopwatch prep;
  build_preprocessing(options.algorithm, load);
  for (const Algorithm a : options.prepare) {
    if (const auto why = graph_planner_unsupported(graph, a)) throw BuildError(*why);
    build_preprocessing(a, false);
  }
  if (landmarks_ || hierarchy_ || table_) preprocess_s_ = prep.seconds();
  // The default search's shared data is made now: the warm-up.
  if (options.algorithm == Algorithm::bidijkstra) static_cast<void>(both_ways());
  if (options.algorithm == Algorithm::astar) static_cast<void>(euclidean());
}

GraphPlanner::~GraphPlanner() = default;

void GraphPlanner::build_preprocessing(Algorithm algorithm, bool load) {
  const Graph& graph = *graph_;
  // Reads the preprocessing with T::load from the stream or the file.
  const auto loaded = [&]<class T>(std::type_identity<T>) {
    if (options_.load_stream != nullptr) return T::load(*options_.load_stream, options_.load_from, graph);
    return T::load(options_.load_from, graph);
  };
  switch (algorithm) {
    case Algorithm::dijkstra:
    case Algorithm::bidijkstra:
    case Algorithm::astar: break;
    case Algorithm::alt:
      if (landmarks_) break;
      landmarks_ = std::make_unique<Landmarks>(load ? loaded(std::type_identity<Landmarks>{})
                                                    : Landmarks(graph, options_.landmarks));
      break;
    case Algorithm::ch:
      if (hierarchy_) break;
      hierarchy_ = std::make_unique<ContractionHierarchy>(load ? loaded(std::type_identity<ContractionHierarchy>{})
                                                               : ContractionHierarchy::build(graph, options_.hierarchy));
      break;
    case Algorithm::table:
      if (table_) break;
      table_ = std::make_unique<RouteTable>(load ? loaded(std::type_identity<RouteTable>{}) : RouteTable(graph));
      break;
  }
}

const BidirectionalGraph& GraphPlanner::both_ways() const {
  std::call_once(both_ways_once_, [&] {
    both_ways_ = std::make_unique<BidirectionalGraph>(*graph_);
    both_ways_ready_.store(both_ways_.get(), std::memory_order_release);
  });
  return *both_ways_;
}

const EuclideanHeuristic& GraphPlanner::euclidean() const {
  std::call_once(euclidean_once_, [&] {
    euclidean_ = std::make_unique<EuclideanHeuristic>(EuclideanHeuristic::admissible(*graph_));
    euclidean_ready_.store(euclidean_.get(), std::memory_order_release);
  });
  return *euclidean_;
}

std::optional<std::string> GraphPlanner::unsupported(Algorithm algorithm) const {
  if (auto why = graph_planner_unsupported(*graph_, algorithm)) return why;
  const bool prepared = (algorithm == Algorithm::alt && landmarks_) || (algorithm == Algorithm::ch && hierarchy_) ||
                        (algorithm == Algorithm::table && table_) || !has_preprocessing(algorithm);
  if (prepared) return std::nullopt;
  return std::string(to_string(algorithm)) + " needs preprocessing this planner did not build: add it to " +
         "GraphPlannerOptions::prepare (or make it the planner's algorithm)";
}

template <class Obs>
std::unique_ptr<search::SearchModel<VertexId>> GraphPlanner::make_model(Algorithm algorithm,
                                                                        const search::QueryOptions<VertexId>& query,
                                                                        Obs observer) const {
  if (unsupported(algorithm)) return std::make_unique<search::RefusingModel<VertexId>>();
  const Graph& g = *graph_;
  const search::BestFirstOptions bf{.reopen_closed = true, .max_nodes = query.max_nodes,
                                    .partial_result = query.partial_result};
  switch (algorithm) {
    case Algorithm::dijkstra:
      return model<search::Dijkstra<Graph, Obs>>(g, search::ZeroHeuristic{}, search::DijkstraPriority{}, observer, bf);
    case Algorithm::bidijkstra:
      return model<BidirectionalDijkstra<Obs>>(both_ways(), observer, options_.bidirectional);
    case Algorithm::astar:
      return model<search::AStar<Graph, EuclideanHeuristic, Obs>, EuclideanModel>(euclidean(), g, euclidean(),
                                                                                  search::AStarPriority{}, observer, bf);
    case Algorithm::alt:
      return model<search::AStar<Graph, LandmarkHeuristic, Obs>>(g, LandmarkHeuristic(*landmarks_),
                                                                 search::AStarPriority{}, observer, bf);
    case Algorithm::ch: return model<ChQuery>(*hierarchy_, ChQueryOptions{}, query.events);
    case Algorithm::table: return std::make_unique<TableModel>(*table_, query.events);
  }
  return std::make_unique<search::RefusingModel<VertexId>>();
}

search::SearchHandle<VertexId> GraphPlanner::make_search(Algorithm algorithm,
                                                         const search::QueryOptions<VertexId>& query) const {
  if (query.events == nullptr) return search::SearchHandle<VertexId>(make_model(algorithm, query, search::NullObserver{}));
  return search::SearchHandle<VertexId>(make_model(algorithm, query, search::EventObserver<VertexId>(query.events)));
}

bool GraphPlanner::stale() const {
  const BidirectionalGraph* both_ways = both_ways_ready_.load(std::memory_order_acquire);
  const EuclideanHeuristic* euclidean = euclidean_ready_.load(std::memory_order_acquire);
  return (both_ways && both_ways->stale()) || (euclidean && euclidean->stale()) ||
         (landmarks_ && landmarks_->stale()) || (hierarchy_ && hierarchy_->stale()) || (table_ && table_->stale());
}

search::SyncReport GraphPlanner::sync() {
  if (!stale()) return {world_version(), 0};
  const Graph& g = *graph_;
  // Rebuilt in place: the searches handed out keep pointing at these objects.
  if (both_ways_) both_ways_->sync();
  if (euclidean_) *euclidean_ = euclidean_->synced();
  if (landmarks_) *landmarks_ = Landmarks(g, options_.landmarks);
  if (hierarchy_) *hierarchy_ = ContractionHierarchy::build(g, options_.hierarchy);
  if (table_) table_->rebuild();
  return {world_version(), g.node_count()};
}

std::size_t GraphPlanner::preprocess_bytes() const {
  std::size_t bytes = 0;
  if (landmarks_) bytes += landmarks_->memory_bytes();
  if (hierarchy_) bytes += hierarchy_->memory_bytes();
  if (table_) bytes += table_->memory_bytes();
  return bytes;
}

void GraphPlanner::save_preprocessing(const std::string& path) const {
  if (options_.algorithm == Algorithm::alt && landmarks_) return landmarks_->save(path);
  if (options_.algorithm == Algorithm::table && table_) return table_->save(path);
  if (options_.algorithm == Algorithm::ch && hierarchy_) return hierarchy_->save(path);
  throw SaveError(path, std::string("algorithm ") + std::string(to_string(options_.algorithm)) + " has no preprocessing to save");
}

}  // namespace waymark::graph
