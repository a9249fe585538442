// A simulation's world while it runs: colliders that planning sees (the cells they close on the
// planning map), the game's edits of the grid map (copied to the planning map through its change
// log), and what the agents do about them — re-plan when an edit crosses the rest of their path,
// try again when their goal was unreachable, leave a cell that closed under them.
#include <algorithm>
#include <cmath>

#include "waymark/core/broad_phase.hpp"
#include "waymark/core/clip.hpp"
#include "waymark/steer/simulation.hpp"

#include "nearest_cell.hpp"

namespace waymark::steer {

ColliderId Simulation::add_obstacle(Shape shape, int layer) {
  const ColliderId id = obstacles_.add(std::move(shape), layer);
  if (planning_colliders_.size() <= id.value) planning_colliders_.resize(id.value + 1, 0);
  planning_colliders_[id.value] = 1;
  cover_cells(id, +1);
  return id;
}

bool Simulation::remove_obstacle(ColliderId id) {
  if (!obstacles_.contains(id)) return false;
  obstacles_.remove(id);
  // Only what add_obstacle counted is uncounted: a collider added to obstacles() directly
  // never closed a cell.
  if (id.value < planning_colliders_.size() && planning_colliders_[id.value] != 0) {
    planning_colliders_[id.value] = 0;
    cover_cells(id, -1);
  }
  return true;
}

void Simulation::note_change(grid::CellRect area) {
  if (changed_all_ || area.empty()) return;
  // Past this many rectangles a step re-plans everyone instead of testing each path against
  // each: the cost stays bounded, and the list never grows past its room.
  if (changed_.size() >= max_listed_changes) {
    changed_all_ = true;
    changed_.clear();
    return;
  }
  changed_.push_back(area);
}

void Simulation::cover_cells(ColliderId id, int delta) {
  if (!plan_map_ || !grid_.plan_around_obstacles) return;
  const grid::GridMap& map = *map_;
  const double s = map.cell_size();
  const Box b = obstacles_.bounds(id);
  // The cells whose centre may lie within half a cell of the collider: its bounds grown by
  // half a cell (clamped onto the map: bounds may be huge or lie outside it).
  const UniformGrid cells{map.params().origin, s, map.width(), map.height()};
  const UniformGrid::Range r = cells.cells_of(b.min - Vec2{s / 2, s / 2}, b.max + Vec2{s / 2, s / 2});
  const grid::CellRect area{r.x0, r.y0, r.x1 + 1, r.y1 + 1};
  bool covered_any = false;
  for (int y = area.y0; y < area.y1; ++y) {
    for (int x = area.x0; x < area.x1; ++x) {
      const CellId c = map.cell(x, y);
      if (!(obstacles_.distance(id, map.cell_center(c)) < s / 2)) continue;
      cover_[c.value] = static_cast<std::uint32_t>(static_cast<std::int64_t>(cover_[c.value]) + delta);
      covered_any = true;
    }
  }
  if (!covered_any) return;
  refresh_plan_area(area);
  note_change(area);
}

void Simulation::refresh_plan_area(grid::CellRect area) {
  // Passability in runs along each row, one logged edit a run, so that a large edit of the
  // game's map stays a few edits of the planning map (its log, and the planners' sync, stay
  // incremental); costs cell by cell (edits of terrain are rarer and smaller).
  for (int y = area.y0; y < area.y1; ++y) {
    int x = area.x0;
    while (x < area.x1) {
      const CellId c = map_->cell(x, y);
      const bool open = map_->passable(c) && cover_[c.value] == 0;
      const double m = map_->cost_multiplier(c);
      if (plan_map_->cost_multiplier(c) != m) plan_map_->set_cost_multiplier(x, y, m);
      if (plan_map_->passable(c) == open) {
        ++x;
        continue;
      }
      int end = x + 1;
      while (end < area.x1) {
        const CellId e = map_->cell(end, y);
        const bool e_open = map_->passable(e) && cover_[e.value] == 0;
        if (e_open != open || plan_map_->passable(e) == open) break;
        const double em = map_->cost_multiplier(e);
        if (plan_map_->cost_multiplier(e) != em) plan_map_->set_cost_multiplier(end, y, em);
        ++end;
      }
      plan_map_->set_passable(grid::CellRect{x, y, end, y + 1}, open);
      x = end;
    }
  }
}

bool Simulation::copy_map_edits() {
  const auto changes = map_->changes_since(map_seen_);
  map_seen_ = map_->version();
  if (!changes) {
    // The log no longer reaches back: the whole map, and everyone re-plans.
    refresh_plan_area(grid::CellRect{0, 0, map_->width(), map_->height()});
    changed_all_ = true;
    changed_.clear();
    return false;
  }
  for (const grid::GridChange& change : *changes) {
    const grid::CellRect area = change.area.clipped(map_->width(), map_->height());
    refresh_plan_area(area);
    note_change(area);
  }
  return true;
}

bool Simulation::path_crosses(const Agent& a, Vec2 lo, Vec2 hi) const {
  const Vec2 grow{a.params.radius, a.params.radius};
  lo -= grow;
  hi += grow;
  Vec2 from = a.state.position;
  const std::span<const Vec2> points = a.follower.waypoints();
  for (std::size_t i = a.follower.current(); i < points.size(); ++i) {
    double t0 = 0, t1 = 1;
    if (clip_to_box(from, points[i] - from, lo, hi, t0, t1)) return true;
    from = points[i];
  }
  return false;
}

bool Simulation::in_changed_cell(Vec2 p) const {
  if (changed_all_) return true;
  const std::optional<grid::CellCoord> at = plan_map_->world_to_cell(p);
  if (!at) return false;
  return std::any_of(changed_.begin(), changed_.end(), [&](const grid::CellRect& r) { return r.contains(at->x, at->y); });
}

bool Simulation::push_out_of_solid(Agent& a) {
  const grid::GridMap& map = *plan_map_;
  const std::optional<grid::CellCoord> at = map.world_to_cell(a.state.position);
  if (!at) return false;  // outside the map the walls push it back
  // A closed cell, or a centre inside a collider (one too small to close a cell, or one only
  // avoidance sees): from there no move of the disc gets out.
  const bool inside = !map.passable(at->x, at->y) || !(obstacles_.clearance(a.state.position, map.cell_size(), a.params.avoid_mask) > 0);
  if (!inside) return true;
  // Any free cell of the map whose centre no collider covers: the nearest to the agent (a
  // collider that closes no cell, e.g. with plan_around_obstacles off, leaves its cell open).
  const auto centre_clear = [&](grid::CellCoord c) {
    return obstacles_.clearance(map.cell_center(c), map.cell_size(), a.params.avoid_mask) > 0;
  };
  const std::optional<grid::CellCoord> free =
      detail::nearest_passable_cell(map, *at, a.state.position, std::max(map.width(), map.height()), centre_clear);
  if (!free) return false;  // no free cell anywhere: it stays
  const Vec2 target = map.cell_center(*free);
  a.state.position = target;
  a.state.velocity = {};
  a.anchor = target;
  a.still_for = 0;
  ++stats_.pushed_out;
  return true;
}

void Simulation::replace_tiled_walls(const navmesh::NavMesh& mesh) {
  std::map<std::array<double, 4>, ColliderId> now;
  for (const Segment2& s : navmesh_outline(mesh)) now.emplace(std::array<double, 4>{s.a.x, s.a.y, s.b.x, s.b.y}, ColliderId{});
  // One box per run of changed segments that touch or overlap the box so far (a carve changes
  // the outline round one hole: a box or a few).
  const auto note = [&](const std::array<double, 4>& s) {
    Aabb2 box;
    box.expand(Vec2{s[0], s[1]});
    box.expand(Vec2{s[2], s[3]});
    if (!changed_areas_.empty()) {
      Aabb2& last = changed_areas_.back();
      const bool near = box.min.x <= last.max.x + 1 && box.max.x >= last.min.x - 1 && box.min.y <= last.max.y + 1 &&
                        box.max.y >= last.min.y - 1;
      if (near) {
        last.expand(box.min);
        last.expand(box.max);
        return;
      }
    }
    if (changed_areas_.size() >= max_listed_changes) {
      changed_all_ = true;
      return;
    }
    changed_areas_.push_back(box);
  };
  for (const auto& [segment, id] : tiled_walls_) {
    if (now.contains(segment)) continue;
    obstacles_.remove(id);
    note(segment);
  }
  for (auto& [segment, id] : now) {
    const auto kept = tiled_walls_.find(segment);
    if (kept != tiled_walls_.end()) {
      id = kept->second;
      continue;
    }
    id = obstacles_.add(Segment2{{segment[0], segment[1]}, {segment[2], segment[3]}}, wall_layer_);
    note(segment);
  }
  tiled_walls_ = std::move(now);
}

void Simulation::absorb_world_change() {
  world_seen_ = paths_->world_version();
  paths_->sync();
  const std::size_t listed = changed_areas_.size();
  if (tiled_ != nullptr) {
    const KeepPtr<const navmesh::TiledSnapshot> now = tiled_->snapshot();  // the one paths_ synced to
    replace_tiled_walls(now->mesh);
  }
  if (changed_areas_.size() == listed) changed_all_ = true;  // no wall moved (links, say): everyone re-plans
}

void Simulation::absorb_edits() {
  if (map_ && map_->version() != map_seen_) copy_map_edits();
  if (paths_->world_version() != world_seen_) absorb_world_change();
  if (changed_.empty() && changed_areas_.empty() && !changed_all_) return;
  stats_.edits += changed_all_ ? 1 : changed_.size() + changed_areas_.size();
  paths_->sync();
  const double s = map_ ? map_->cell_size() : 1.0;
  const Vec2 origin = map_ ? map_->params().origin : Vec2{};
  for (Agent& a : agents_) {
    if (a.removed) continue;
    if (plan_map_ && in_changed_cell(a.state.position)) push_out_of_solid(a);
    if (!a.plans || a.arrived) continue;
    // An agent whose goal was unreachable, or that was stuck, tries again: the edit may have
    // opened a way. One asking (or about to ask) gets its answer on the synced world.
    bool again = a.unreachable || a.stuck;
    if (!again && !a.request.valid() && !a.follower.empty()) {
      again = changed_all_;
      for (const grid::CellRect& r : changed_) {
        if (again) break;
        again = path_crosses(a, origin + Vec2{r.x0 * s, r.y0 * s}, origin + Vec2{r.x1 * s, r.y1 * s});
      }
      for (const Aabb2& box : changed_areas_) {
        if (again) break;
        again = path_crosses(a, box.min, box.max);
      }
    }
    if (!again) continue;
    replan(a);
    ++stats_.edit_replans;
  }
  changed_.clear();
  changed_areas_.clear();
  changed_all_ = false;
}

}  // namespace waymark::steer
