#pragma once
/// @file GraphSearchSource: a GraphPlanner seen as a search::SearchSource (for request queues).

#include <cstddef>
#include <cstdint>

#include "waymark/graph/graph_planner.hpp"
#include "waymark/search/search_source.hpp"

namespace waymark::graph {

/// Hands out the planner's searches and reports its graph's version. Refers to the planner,
/// which must outlive it; adds nothing to share, so any number of threads may use one. Graph
/// searches have no sparse node table: QueryOptions::table is ignored.
class GraphSearchSource final : public search::SearchSource<VertexId> {
 public:
  explicit GraphSearchSource(const GraphPlanner& planner) : planner_(&planner) {}
  explicit GraphSearchSource(GraphPlanner&&) = delete;  // would dangle

  [[nodiscard]] search::SearchHandle<VertexId> make_search(
      const search::QueryOptions<VertexId>& options) const override {
    return planner_->make_search(options);
  }
  [[nodiscard]] std::uint64_t world_version() const override { return planner_->graph().version(); }
  [[nodiscard]] bool stale() const override { return planner_->stale(); }
  [[nodiscard]] std::size_t node_count() const override { return planner_->graph().node_count(); }
  [[nodiscard]] const GraphPlanner& planner() const { return *planner_; }

 private:
  const GraphPlanner* planner_;
};

}  // namespace waymark::graph
