#pragma once
/// @file FlowField: one Dijkstra field over a GridMap toward one goal cell or several, so any
/// number of agents can steer toward the nearest goal by reading the cell they stand in; and
/// follow_flow, the steering force that does so. See docs/steering.md.

#include <array>
#include <cstdint>
#include <memory>
#include <numbers>
#include <optional>
#include <span>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/moves.hpp"
#include "waymark/steer/agent.hpp"

namespace waymark::steer {

struct FlowFieldParams {
  /// Which moves the field's Dijkstra and its directions use. With `never` or
  /// `no_corner_cutting`, a point following direction_at in steps shorter than half a cell
  /// never enters a blocked cell; the other two rules let diagonals graze blocked corners.
  grid::DiagonalRule diagonal = grid::DiagonalRule::no_corner_cutting;
  /// direction_at blends the four nearest cell centres' directions (false: the containing
  /// cell's direction alone, the classic blocky field).
  bool interpolate = true;
  /// A blend shorter than this, where neighbouring directions cancel (the flow splits), gives
  /// way to the containing cell's own direction. [0 ≤ x ≤ 1]
  double min_blend_length = 0.1;
};

/// Per cell of a grid, the cost to the nearest goal (GridMap::move_cost, terrain included) and
/// the unit direction, in world units, toward the neighbour that minimises move cost + that
/// neighbour's cost; zero at goals, blocked and unreachable cells. Ties within a relative
/// 1e-9 go to the neighbour nearer the goal (the diagonal where a diagonal and a cardinal
/// tie), then to the first of N, E, S, W, NE, SE, SW, NW (grid_space.hpp's order).
///
/// build() runs the engine's multi-source Dijkstra (search::ShortestPathTree over a GridSpace)
/// and reuses all its storage: after the first build, a rebuild allocates nothing unless its
/// goal list is longer than any before. Apart from the engine, a build and the next one's
/// reset visit only the cells reached. Queries are const and keep no scratch, so any number
/// of threads may read one field between builds. The map must outlive the field.
/// Memory: about 46 bytes per cell (9 for the field, 37 of build scratch) + the open list.
class FlowField {
 public:
  /// A field with nothing reachable (status() not_started) until build(). Sizes all storage.
  explicit FlowField(const grid::GridMap& map, FlowFieldParams params = {});
  explicit FlowField(const grid::GridMap&&, FlowFieldParams = {}) = delete;  // would dangle
  ~FlowField();
  FlowField(FlowField&&) noexcept;
  FlowField& operator=(FlowField&&) noexcept;
  FlowField(const FlowField&) = delete;
  FlowField& operator=(const FlowField&) = delete;

  /// The field toward one goal cell. See the span overload.
  Status build(grid::CellCoord goal);
  /// The field toward the nearest of `goals` (repeats allowed), on the map as it is now (edits
  /// since the last build are synced first). Refuses the whole list, leaving nothing reachable,
  /// when it is empty (invalid_query) or a goal lies outside the map (invalid_query +
  /// out_of_bounds) or is blocked (invalid_query + goal_blocked). Never throws.
  /// O(V log V + 8V) for V cells.
  Status build(std::span<const grid::CellCoord> goals);

  /// Success after a good build, the refusal after a bad one, not_started before any.
  [[nodiscard]] Status status() const { return status_; }
  /// The last build's Dijkstra: expanded = cells reached, time_s.
  [[nodiscard]] const SearchStats& stats() const { return stats_; }
  /// The map was edited since the last build: the field still answers for the map it was
  /// built on until build() is called again.
  [[nodiscard]] bool stale() const { return map_->edited_since(world_version_); }
  [[nodiscard]] std::uint64_t world_version() const { return world_version_; }
  [[nodiscard]] const grid::GridMap& map() const { return *map_; }
  [[nodiscard]] grid::DiagonalRule diagonal() const { return params_.diagonal; }

  /// Cost from the cell to its nearest goal: 0 at goals, infinite for blocked, unreachable
  /// and out-of-map cells.
  [[nodiscard]] Cost distance(grid::CellCoord c) const {
    return map_->in_bounds(c.x, c.y) ? distances_[map_->cell(c.x, c.y).value] : infinite_cost;
  }
  [[nodiscard]] Cost distance(CellId c) const { return c.value < distances_.size() ? distances_[c.value] : infinite_cost; }
  /// The cell's unit direction (world units); zero at goals, blocked, unreachable and out-of-map cells.
  [[nodiscard]] Vec2 direction(grid::CellCoord c) const {
    return map_->in_bounds(c.x, c.y) ? direction_of(codes_[map_->cell(c.x, c.y).value]) : Vec2{};
  }
  /// The neighbour the cell's direction points to; nullopt where the direction is zero.
  [[nodiscard]] std::optional<grid::CellCoord> next_cell(grid::CellCoord c) const;
  /// Whether the cell is one of the goals of the last successful build.
  [[nodiscard]] bool is_goal(grid::CellCoord c) const {
    return map_->in_bounds(c.x, c.y) && codes_[map_->cell(c.x, c.y).value] == goal_code;
  }

  /// Direction at a world point: a unit vector, or zero off the map and in goal, blocked and
  /// unreachable cells. Bilinear blend (renormalised) of the four nearest cell centres'
  /// directions when all four cells are reachable; otherwise, next to walls, unreachable cells
  /// and the map's edge, the containing cell's own direction. That keeps a point moving in
  /// steps below half a cell out of blocked cells (see FlowFieldParams::diagonal). O(1).
  [[nodiscard]] Vec2 direction_at(Vec2 world_position) const;
  /// The containing cell's distance (infinite off the map). O(1).
  [[nodiscard]] Cost distance_at(Vec2 world_position) const;

  /// Every cell's distance, by CellId.
  [[nodiscard]] std::span<const Cost> distances() const { return distances_; }

 private:
  struct Scratch;
  /// Per-cell code: a move index 0-7 (grid_moves order), or one of these.
  static constexpr std::uint8_t goal_code = 8;
  static constexpr std::uint8_t none_code = 9;  ///< blocked or unreachable
  static constexpr double diagonal_unit = std::numbers::sqrt2 / 2;
  /// The unit world vector of each code (row y grows with world y, cells are square).
  static constexpr std::array<Vec2, 10> unit_directions{{{0, -1}, {1, 0}, {0, 1}, {-1, 0},
                                                         {diagonal_unit, -diagonal_unit}, {diagonal_unit, diagonal_unit},
                                                         {-diagonal_unit, diagonal_unit}, {-diagonal_unit, -diagonal_unit},
                                                         {0, 0}, {0, 0}}};
  void compute_directions();
  [[nodiscard]] static Vec2 direction_of(std::uint8_t code) { return unit_directions[code]; }
  void clear();

  const grid::GridMap* map_;
  FlowFieldParams params_;
  std::unique_ptr<Scratch> scratch_;  ///< the Dijkstra and its space: used by build() only
  std::vector<Cost> distances_;       ///< by CellId
  std::vector<std::uint8_t> codes_;   ///< by CellId
  Status status_{};
  SearchStats stats_{};
  std::uint64_t world_version_ = 0;
};

/// The steering force that follows the field: steer_toward the velocity direction_at(position)
/// × max_speed. Zero desired velocity (braking) in goal cells and off the field.
[[nodiscard]] Vec2 follow_flow(const AgentParams& p, const AgentState& s, const FlowField& field);

}  // namespace waymark::steer
