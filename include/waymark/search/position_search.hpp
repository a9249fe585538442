#pragma once
/// @file PositionSearchModel: a query between two points (a navmesh's NavMeshQuery, a
/// visibility graph's VisibilityQuery) behind the run-time handle, so that worlds searched
/// from positions rather than node ids serve request queues. The nodes of its handles are the
/// points themselves: a request's start and goal, and the path's corners.

#include <cmath>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "waymark/core/path.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/search/goal.hpp"
#include "waymark/search/handle.hpp"

namespace waymark::search {

/// A position query's own limits with a request's: max_nodes and partial_result are the
/// request's; weight, table and max_table_bytes stay the query's (they do not apply: a
/// navmesh's and a visibility graph's searches keep their own tables). What NavPlanner,
/// TiledNavPlanner and VisibilityPlanner hand each search.
[[nodiscard]] inline QueryLimits position_limits(QueryLimits own, const QueryLimits& request) {
  own.max_nodes = request.max_nodes;
  own.partial_result = request.partial_result;
  return own;
}

/// Drives one `Query` (which it owns): `begin(from, to, extra...)`, `step(budget)`,
/// `cancel()`, `stats()`, and `path()` whose member `Points` holds the points and whose
/// `length` their length (a navmesh's `&NavPath::corners`, a visibility graph's
/// `&VisibilityPath::points`). `extra` are the further arguments of every begin (a navmesh's
/// filter), fixed when the model is made.
///
/// begin() takes one source (the start point; its initial cost is added to the path's cost)
/// and a one-node goal (the goal point). Several sources and goal lists, predicates or none
/// are refused (Failure flagged invalid_query, at once, nothing searched): the queries search
/// from one point to one point. Any other refusal, and every status, is the query's own, so a
/// result says what the one-shot query says. On success (or a partial result) path() holds
/// the query's points and cost = initial cost + length; empty otherwise.
///
/// stats() are the query's (zero after a refusal at begin()). world_result() is the query's own
/// path (SearchHandle::world_result<NavPath>() or <VisibilityPath>()). memory_bytes() is not reported
/// (0): the queries keep their scratch inside. Allocates nothing per query once its path has
/// held as many points (the query's own guarantee, plus the copy of the points).
template <class Query, auto Points, class... Extra>
class PositionSearchModel final
    : public SearchModel<typename std::remove_cvref_t<
          decltype(std::declval<const Query&>().path().*Points)>::value_type>,
      public WorldResultSource<std::remove_cvref_t<decltype(std::declval<const Query&>().path())>> {
 public:
  using Point = typename std::remove_cvref_t<decltype(std::declval<const Query&>().path().*Points)>::value_type;
  using QueryPath = std::remove_cvref_t<decltype(std::declval<const Query&>().path())>;

  /// `world` and `options` make the query; `extra` go to each of its begins.
  template <class World, class Options>
  PositionSearchModel(const World& world, const Options& options, Extra... extra)
      : query_(world, options), extra_(std::move(extra)...) {}

  void begin(std::span<const Source<Point>> sources, const Goal<Point>& goal) override {
    path_.clear();
    const bool one_source = sources.size() == 1 && sources.front().cost >= 0 && std::isfinite(sources.front().cost);
    asked_ = false;
    if (!one_source || goal.kind() != Goal<Point>::Kind::node) {
      refuse(Status::failure(StatusDetail::invalid_query));
      return;
    }
    asked_ = true;
    initial_ = sources.front().cost;
    status_ = std::apply([&](const Extra&... e) { return query_.begin(sources.front().node, goal.node(), e...); },
                         extra_);
    refused_ = status_.has(StatusDetail::invalid_query);
    if (status_.finished()) take_path();
  }

  Status step(const Budget& budget) override {
    if (!status_.running()) return status_;
    status_ = query_.step(budget);
    if (status_.finished()) take_path();
    return status_;
  }
  void cancel() override {
    if (status_.running()) query_.cancel();
  }
  [[nodiscard]] Status status() const override { return status_; }
  [[nodiscard]] const Path<Point>& path() const override { return path_; }
  [[nodiscard]] const SearchStats& stats() const override { return refused_ ? no_stats_ : query_.stats(); }

  /// The query inside.
  [[nodiscard]] const Query& query() const { return query_; }
  /// The query's own path (a navmesh's NavPath: polygons, links, method): what
  /// SearchHandle::world_result() reaches. Empty before the first begin() and after one this
  /// model refused (several sources, a goal other than one point).
  [[nodiscard]] const QueryPath& world_result() const override { return asked_ ? query_.path() : no_result_; }

 private:
  void refuse(Status s) {
    status_ = s;
    refused_ = true;
  }
  void take_path() {
    const std::vector<Point>& points = query_.path().*Points;
    if (points.empty()) return;
    path_.nodes.assign(points.begin(), points.end());
    path_.cost = initial_ + query_.path().length;
  }

  Query query_;
  std::tuple<Extra...> extra_;
  Status status_{};
  Path<Point> path_;
  Cost initial_ = 0;
  bool refused_ = false;
  bool asked_ = false;  ///< the query was begun (world_result() is its path)
  SearchStats no_stats_{};
  QueryPath no_result_{};
};

}  // namespace waymark::search
