#include "waymark/visibility/visibility_query.hpp"

#include <cmath>
#include <utility>

#include "waymark/search/best_first.hpp"
#include "waymark/search/events.hpp"
#include "waymark/search/generation_array.hpp"
#include "waymark/search/observer.hpp"

namespace waymark::visibility {

// Named, not anonymous: VisibilityQuery::Space has external linkage and holds these.
namespace query_detail {

/// The cost of a point's arc into the goal, set for the points the goal sees.
struct GoalLink {
  std::uint32_t stamp = 0;
  Cost cost = 0;
};

}  // namespace query_detail

/// The graph's points plus two overlay nodes, the start (point_count()) and the goal (one
/// after it). The start's arcs and the arcs into the goal are this query's own: a list, and a
/// generation-stamped cost per point, so a new query resets them in O(1).
class VisibilityQuery::Space {
 public:
  using node_type = std::uint32_t;

  explicit Space(const VisibilityGraph& graph)
      : graph_(&graph),
        start_(static_cast<node_type>(graph.point_count())),
        goal_(start_ + 1),
        scratch_(graph.make_scratch()) {
    start_links_.reserve(graph.point_count());
    goal_links_.assign(graph.point_count());
    goal_links_.touch_all();
  }

  /// Links both ends to the points they see; false (nothing linked) when either cannot be
  /// stood on. A goal the start sees needs no links: the segment is the shortest path.
  bool set_query(Vec2 from, Vec2 to) {
    from_ = from;
    to_ = to;
    start_links_.clear();
    goal_links_.reset();
    goal_link_count_ = 0;
    direct_ = infinite_cost;
    if (!graph_->standable(from) || !graph_->standable(to)) return false;
    if (graph_->visible(from, to, scratch_)) {
      direct_ = distance(from, to);
      return true;
    }
    // One end at a time: the segments from one end often pass the same obstacle, which the
    // scratch tries first (ProbeScratch::blocker).
    for (std::uint32_t i = 0; i < start_; ++i) {
      const Vec2 p = graph_->point(i);
      if (graph_->tangent_at(i, from) && graph_->visible(from, p, scratch_)) start_links_.push_back({i, distance(from, p)});
    }
    for (std::uint32_t i = 0; i < start_; ++i) {
      const Vec2 p = graph_->point(i);
      if (graph_->tangent_at(i, to) && graph_->visible(p, to, scratch_)) {
        goal_links_.touch(i).element.cost = distance(p, to);
        ++goal_link_count_;
      }
    }
    return true;
  }

  [[nodiscard]] node_type start() const { return start_; }
  [[nodiscard]] node_type goal() const { return goal_; }
  [[nodiscard]] std::size_t node_count() const { return goal_ + std::size_t{1}; }
  [[nodiscard]] std::size_t index_of(node_type n) const { return n; }
  [[nodiscard]] node_type node_at(std::size_t i) const { return static_cast<node_type>(i); }
  [[nodiscard]] std::size_t overlay_arc_count() const {
    return start_links_.size() + goal_link_count_ + (direct_ < infinite_cost ? 1 : 0);
  }

  [[nodiscard]] Vec2 position(node_type n) const {
    if (n == start_) return from_;
    if (n == goal_) return to_;
    return graph_->point(n);
  }

  template <class F>
  void for_each_successor(node_type n, F&& f) const {
    if (n == goal_) return;
    if (n == start_) {
      for (const VisibilityArc& a : start_links_) f(a.to, a.cost);
      if (direct_ < infinite_cost) f(goal_, direct_);
      return;
    }
    for (const VisibilityArc& a : graph_->arcs(n)) f(a.to, a.cost);
    if (goal_links_.is_set(n)) f(goal_, goal_links_[n].cost);
  }

 private:
  const VisibilityGraph* graph_;
  node_type start_;
  node_type goal_;
  ProbeScratch scratch_;
  Vec2 from_;
  Vec2 to_;
  std::vector<VisibilityArc> start_links_;
  search::GenerationArray<query_detail::GoalLink> goal_links_;
  std::size_t goal_link_count_ = 0;
  Cost direct_ = infinite_cost;
};

/// Straight-line distance to the goal: admissible and consistent (arc costs are lengths).
struct VisibilityQuery::Heuristic {
  const Space* space;
  Cost operator()(std::uint32_t n, std::uint32_t goal) const { return distance(space->position(n), space->position(goal)); }
};

VisibilityQuery::VisibilityQuery(const VisibilityGraph& graph, const VisibilityQueryOptions& options)
    : graph_(&graph), space_(std::make_unique<Space>(graph)) {
  const search::BestFirstOptions bf{.reopen_closed = true, .max_nodes = options.query.max_nodes,
                                    .partial_result = options.query.partial_result};
  const auto make = [&](auto observer) {
    using Search = search::BestFirstSearch<Space, Heuristic, search::AStarPriority, decltype(observer)>;
    auto model = std::make_unique<search::EngineModel<Search>>(*space_, Heuristic{space_.get()}, search::AStarPriority{},
                                                               observer, bf);
    model->search().reserve();  // node records for every point: the first query allocates none
    return search::SearchHandle<std::uint32_t>(std::move(model));
  };
  search_ = options.events ? make(search::EventObserver<std::uint32_t>(options.events))
                                 : make(search::NullObserver{});
  path_.points.reserve(graph.point_count() + 2);
}

VisibilityQuery::~VisibilityQuery() = default;

std::uint32_t VisibilityQuery::start_node() const { return space_->start(); }
std::uint32_t VisibilityQuery::goal_node() const { return space_->goal(); }
Vec2 VisibilityQuery::position(std::uint32_t node) const { return space_->position(node); }
std::size_t VisibilityQuery::overlay_arc_count() const { return space_->overlay_arc_count(); }

Status VisibilityQuery::begin(Vec2 from, Vec2 to) {
  path_.points.clear();
  path_.length = infinite_cost;  // until a path is found
  if (!space_->set_query(from, to)) {
    // Inside an inflated obstacle: blocked; not finite or outside the bounds: out of bounds.
    const auto why = [&](Vec2 p, StatusDetail blocked) {
      if (graph_->standable(p)) return StatusDetail::none;
      return std::isfinite(p.x) && std::isfinite(p.y) && graph_->obstacle_at(p) ? blocked : StatusDetail::out_of_bounds;
    };
    path_.status = Status::failure(StatusDetail::invalid_query | why(from, StatusDetail::start_blocked) |
                                   why(to, StatusDetail::goal_blocked));
    return path_.status;
  }
  path_.status = search_.begin(space_->start(), space_->goal());
  if (path_.status.finished()) finish();
  return path_.status;
}

Status VisibilityQuery::step(const search::Budget& budget) {
  if (!path_.status.running()) return path_.status;
  path_.status = search_.step(budget);
  if (path_.status.finished()) finish();
  return path_.status;
}

Status VisibilityQuery::find_path(Vec2 from, Vec2 to) {
  begin(from, to);
  return step();
}

void VisibilityQuery::finish() {
  if (!path_.status.succeeded() && !path_.status.has(StatusDetail::partial_result)) return;
  const auto& nodes = search_.path().nodes;
  if (!nodes.empty()) path_.length = 0;
  for (const std::uint32_t n : nodes) {
    const Vec2 p = space_->position(n);
    if (!path_.points.empty()) path_.length += distance(path_.points.back(), p);
    path_.points.push_back(p);
  }
}

}  // namespace waymark::visibility
