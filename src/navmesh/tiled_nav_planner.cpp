#include "waymark/navmesh/tiled_nav_planner.hpp"

#include <optional>

namespace waymark::navmesh {

namespace {

/// A NavSearchModel on the planner's snapshot, refusing stale use and following sync().
class TiledSearchModel final : public search::SearchModel<Vec3>, public search::WorldResultSource<NavPath> {
 public:
  TiledSearchModel(const TiledNavPlanner& planner, const NavQueryOptions& options) : planner_(&planner), options_(options) {}

  void begin(std::span<const search::Source<Vec3>> sources, const search::Goal<Vec3>& goal) override {
    if (planner_->stale()) {
      refuse();
      return;
    }
    if (!inner_ || snapshot_ != planner_->snapshot()) {  // synced since: search the new snapshot
      snapshot_ = planner_->snapshot();
      inner_.emplace(snapshot_->mesh, options_, planner_->filter());
    }
    stale_ = false;
    inner_->begin(sources, goal);
  }
  Status step(const search::Budget& budget) override {
    if (stale_ || !inner_) return status();
    if (inner_->status().running() && planner_->stale()) {
      inner_->cancel();
      refuse();
      return status();
    }
    return inner_->step(budget);
  }
  void cancel() override {
    if (inner_ && !stale_) inner_->cancel();
  }
  [[nodiscard]] Status status() const override {
    return stale_ ? Status::failure(StatusDetail::stale_world) : inner_ ? inner_->status() : Status{};
  }
  [[nodiscard]] const Path<Vec3>& path() const override { return stale_ || !inner_ ? empty_ : inner_->path(); }
  [[nodiscard]] const SearchStats& stats() const override { return stale_ || !inner_ ? no_stats_ : inner_->stats(); }
  [[nodiscard]] const NavPath& world_result() const override { return stale_ || !inner_ ? no_result_ : inner_->world_result(); }

 private:
  void refuse() { stale_ = true; }

  const TiledNavPlanner* planner_;
  NavQueryOptions options_;
  std::shared_ptr<const TiledSnapshot> snapshot_;
  std::optional<NavSearchModel> inner_;
  bool stale_ = false;
  Path<Vec3> empty_;
  SearchStats no_stats_{};
  NavPath no_result_{};
};

}  // namespace

search::SearchHandle<Vec3> TiledNavPlanner::make_search(NavMode mode, const search::QueryOptions<Vec3>& query) const {
  NavQueryOptions made = options_;
  made.mode = mode;
  made.query = search::position_limits(made.query, query.limits());
  return search::SearchHandle<Vec3>(std::make_unique<TiledSearchModel>(*this, made));
}

}  // namespace waymark::navmesh
