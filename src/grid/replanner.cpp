#include "waymark/grid/replanner.hpp"

#include <cmath>
#include <cstdlib>

#include "waymark/grid/grid_planner.hpp"
#include "waymark/grid/moves.hpp"

namespace waymark::grid {

std::string_view to_string(ReplanReason r) {
  switch (r) {
    case ReplanReason::none: return "none";
    case ReplanReason::left_path: return "left-path";
    case ReplanReason::goal_moved: return "goal-moved";
    case ReplanReason::path_blocked: return "path-blocked";
    case ReplanReason::path_cost_changed: return "path-cost-changed";
    case ReplanReason::map_edited: return "map-edited";
    case ReplanReason::path_ended: return "path-ended";
    case ReplanReason::interval: return "interval";
    case ReplanReason::retry: return "retry";
  }
  return "unknown";
}

std::string_view to_string(ReplanStrategy s) {
  return s == ReplanStrategy::incremental ? "incremental" : "from-scratch";
}

Replanner::Replanner(const GridMap& map, const ReplannerOptions& options) : map_(&map), options_(options) {
  WAYMARK_ASSERT(options.replan_interval_s >= 0 && options.goal_move_threshold >= 0);
  if (options.strategy == ReplanStrategy::incremental) {
    dstar_ = std::make_unique<DStarLite>(
        map, DStarLiteOptions{.diagonal = options.diagonal, .restart_area_fraction = options.restart_area_fraction});
  } else {
    planner_ = std::make_unique<GridPlanner>(
        map, GridPlannerOptions{.algorithm = Algorithm::astar, .diagonal = options.diagonal});
    search_ = planner_->make_search();
  }
  marks_.assign(map.cell_count());
}

Replanner::~Replanner() = default;

std::span<const CellId> Replanner::path() const {
  if (!status_.succeeded()) return {};
  return std::span<const CellId>(path_).subspan(progress_);
}

Cost Replanner::cost() const {
  if (!status_.succeeded()) return infinite_cost;
  return progress_ == 0 ? path_cost_ : path_cost_ - cumulative_[progress_];
}

Status Replanner::start(CellId agent, CellId goal) {
  agent_ = agent;
  goal_ = goal;
  started_ = true;
  fresh_start_ = true;
  return replan();
}

void Replanner::advance_to(CellId cell) {
  if (cell == agent_) return;
  agent_ = cell;
  agent_moved_ = true;
  if (!status_.succeeded()) return;
  if (cell.value < marks_.size() && marks_.is_set(cell.value) && marks_[cell.value].index >= progress_) {
    progress_ = marks_[cell.value].index;
  } else {
    left_path_ = true;
  }
}

void Replanner::set_goal(CellId cell) { goal_ = cell; }

bool Replanner::goal_moved_far() const {
  if (goal_ == planned_goal_) return false;
  if (goal_.value >= map_->cell_count() || planned_goal_.value >= map_->cell_count()) return true;
  const Vec2 a = map_->cell_center(goal_);
  const Vec2 b = map_->cell_center(planned_goal_);
  return std::hypot(a.x - b.x, a.y - b.y) > options_.goal_move_threshold;
}

ReplanUpdate Replanner::update(double elapsed_s) {
  if (!started_) return {status_, false, ReplanReason::none};
  since_replan_s_ += elapsed_s;
  const bool edited = map_->version() != seen_version_;
  const EditEffect effect = edited ? examine_edits() : EditEffect::none;
  seen_version_ = map_->version();
  const bool interval_due = options_.replan_interval_s > 0 && since_replan_s_ >= options_.replan_interval_s;

  ReplanReason why = ReplanReason::none;
  if (!status_.succeeded()) {
    if (edited || agent_moved_ || goal_ != planned_goal_ || interval_due) why = ReplanReason::retry;
  } else if (left_path_) {
    why = ReplanReason::left_path;
  } else if (goal_moved_far()) {
    why = ReplanReason::goal_moved;
  } else if (effect == EditEffect::blocks_path) {
    why = ReplanReason::path_blocked;
  } else if (effect == EditEffect::cost_on_path) {
    why = ReplanReason::path_cost_changed;
  } else if (edited && options_.replan_on_any_edit) {
    why = ReplanReason::map_edited;
  } else if (progress_ + 1 == path_.size() && agent_ != goal_) {
    why = ReplanReason::path_ended;
  } else if (interval_due) {
    why = ReplanReason::interval;
  }
  if (why == ReplanReason::none) return {status_, false, why};
  replan();
  return {status_, true, why};
}

Status Replanner::replan() {
  ++replans_;
  since_replan_s_ = 0;
  agent_moved_ = left_path_ = false;
  planned_goal_ = goal_;
  const bool fresh = fresh_start_;
  fresh_start_ = false;
  seen_version_ = map_->version();
  const Path<CellId>* found = nullptr;
  if (dstar_) {
    // D* Lite's tree hangs from the goal: a new goal means a new search.
    if (fresh || dstar_->goal() != goal_) {
      status_ = dstar_->plan(agent_, goal_);
    } else {
      dstar_->move_start(agent_);
      status_ = dstar_->replan();
    }
    last_stats_ = dstar_->stats();
    found = &dstar_->path();
  } else {
    if (planner_->stale()) planner_->sync();
    status_ = search_.run(agent_, goal_);
    last_stats_ = search_.stats();
    found = &search_.path();
  }
  if (status_.succeeded()) adopt(*found);
  return status_;
}

void Replanner::adopt(const Path<CellId>& p) {
  path_.assign(p.nodes.begin(), p.nodes.end());
  path_cost_ = p.cost;
  progress_ = 0;
  cumulative_.resize(path_.size());
  marks_.reset();
  path_box_ = CellRect{map_->width(), map_->height(), 0, 0};
  Cost sum = 0;
  for (std::size_t i = 0; i < path_.size(); ++i) {
    const CellCoord c = map_->coord(path_[i]);
    if (i > 0) {
      const CellCoord b = map_->coord(path_[i - 1]);
      sum += map_->move_cost(path_[i - 1], path_[i], b.x != c.x && b.y != c.y);
    }
    cumulative_[i] = sum;
    marks_.touch(path_[i].value).element.index = static_cast<std::uint32_t>(i);
    path_box_ = CellRect{std::min(path_box_.x0, c.x), std::min(path_box_.y0, c.y), std::max(path_box_.x1, c.x + 1),
                         std::max(path_box_.y1, c.y + 1)};
  }
}

bool Replanner::step_legal(std::size_t i) const {
  const GridMap& m = *map_;
  const CellCoord a = m.coord(path_[i]);
  const CellCoord b = m.coord(path_[i + 1]);
  if (!m.passable(a.x, a.y) || !m.passable(b.x, b.y)) return false;
  const int dx = b.x - a.x, dy = b.y - a.y;
  if (dx == 0 || dy == 0) return true;
  return diagonal_rule_allows(options_.diagonal, m.passable(a.x + dx, a.y), m.passable(a.x, a.y + dy));
}

Replanner::EditEffect Replanner::examine_edits() const {
  const auto changes = map_->changes_since(seen_version_);
  if (!changes) return EditEffect::blocks_path;  // the log no longer says what changed: assume the worst
  if (!status_.succeeded()) return EditEffect::elsewhere;
  EditEffect worst = EditEffect::elsewhere;
  for (const GridChange& c : *changes) {
    const EditEffect e = edit_effect(c);
    if (e == EditEffect::blocks_path) return e;
    if (e == EditEffect::cost_on_path) worst = e;
  }
  return worst;
}

Replanner::EditEffect Replanner::edit_effect(const GridChange& change) const {
  const GridMap& m = *map_;
  // A step's legality reads its two cells and, diagonally, its two corner cells: all within
  // one cell of either end. Its cost reads only its two cells.
  const CellRect near = change.passability ? change.area.grown(1) : change.area;
  const CellRect r{std::max(near.x0, path_box_.x0), std::max(near.y0, path_box_.y0), std::min(near.x1, path_box_.x1),
                   std::min(near.y1, path_box_.y1)};
  if (r.empty()) return EditEffect::elsewhere;
  const std::size_t remaining = path_.size() - progress_;
  bool touched = false;
  const auto on_path = [&](std::size_t i) {
    touched = true;
    if (!change.passability) return false;
    return (i > progress_ && !step_legal(i - 1)) || (i + 1 < path_.size() && !step_legal(i));
  };
  const auto area = static_cast<std::size_t>(r.x1 - r.x0) * static_cast<std::size_t>(r.y1 - r.y0);
  if (area <= remaining) {
    for (int y = r.y0; y < r.y1; ++y) {
      for (int x = r.x0; x < r.x1; ++x) {
        const std::uint32_t cell = m.cell(x, y).value;
        if (!marks_.is_set(cell) || marks_[cell].index < progress_) continue;
        if (on_path(marks_[cell].index)) return EditEffect::blocks_path;
      }
    }
  } else {
    for (std::size_t i = progress_; i < path_.size(); ++i) {
      const CellCoord c = m.coord(path_[i]);
      if (r.contains(c.x, c.y) && on_path(i)) return EditEffect::blocks_path;
    }
  }
  // A passability edit next to the path that leaves it legal cannot raise its cost.
  return touched && !change.passability ? EditEffect::cost_on_path : EditEffect::elsewhere;
}

}  // namespace waymark::grid
