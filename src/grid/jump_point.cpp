#include "waymark/grid/jump_point.hpp"

namespace waymark {

std::optional<std::string> jump_search_unsupported(const GridMap& map, DiagonalRule rule) {
  if (rule != DiagonalRule::no_corner_cutting)
    return "jump point search is implemented for the no-corner-cutting rule only (got " +
           std::string(to_string(rule)) + ")";
  if (map.has_costs())
    return "jump point search needs uniform move costs; this map has terrain costs or zones";
  return std::nullopt;
}

JumpRules::JumpRules(const PaddedGrid& grid) : grid_(&grid) {
  for (int d = 0; d < direction_count; ++d) {
    offsets_[static_cast<std::size_t>(d)] =
        grid.offset(direction_dx[static_cast<std::size_t>(d)], direction_dy[static_cast<std::size_t>(d)]);
  }
}

namespace {
constexpr DirectionSet bit(int dir) { return static_cast<DirectionSet>(1u << dir); }
}  // namespace

bool JumpRules::can_move(std::uint32_t p, int dir) const {
  if (!grid_->open(p + static_cast<std::uint32_t>(offset(dir)))) return false;
  if (!is_diagonal(dir)) return true;
  // The two cardinal cells a diagonal passes: its neighbours one eighth-turn either side.
  return grid_->open(p + static_cast<std::uint32_t>(offset(turn(dir, -1)))) &&
         grid_->open(p + static_cast<std::uint32_t>(offset(turn(dir, 1))));
}

bool JumpRules::side_forced(std::uint32_t p, int dir, int side) const {
  // Entered moving `dir`: a side cell that is free while the cell behind it is blocked cannot
  // have been reached diagonally from the previous cell (no corner cutting), so it is forced.
  const auto s = static_cast<std::uint32_t>(offset(side));
  return grid_->open(p + s) && !grid_->open(p - static_cast<std::uint32_t>(offset(dir)) + s);
}

bool JumpRules::has_forced_neighbour(std::uint32_t p, int dir) const {
  return side_forced(p, dir, turn(dir, 2)) || side_forced(p, dir, turn(dir, -2));
}

DirectionSet JumpRules::successors(std::uint32_t p, int arrival) const {
  if (arrival < 0) return all_directions;
  if (is_diagonal(arrival)) return static_cast<DirectionSet>(bit(arrival) | bit(turn(arrival, -1)) | bit(turn(arrival, 1)));
  DirectionSet dirs = bit(arrival);
  for (const int eighths : {2, -2}) {  // the two perpendicular sides, and the diagonal toward each
    if (side_forced(p, arrival, turn(arrival, eighths))) {
      dirs = static_cast<DirectionSet>(dirs | bit(turn(arrival, eighths)) | bit(turn(arrival, eighths / 2)));
    }
  }
  return dirs;
}

JumpRules::Jump JumpRules::jump(std::uint32_t p, int dir, std::uint32_t goal) const {
  return is_diagonal(dir) ? jump_diagonal(p, dir, goal) : jump_cardinal(p, dir, goal);
}

JumpRules::Jump JumpRules::jump_cardinal(std::uint32_t p, int dir, std::uint32_t goal) const {
  const auto step = static_cast<std::uint32_t>(offset(dir));
  for (std::int32_t steps = 1;; ++steps) {
    p += step;
    if (!grid_->open(p)) return {};
    if (p == goal || has_forced_neighbour(p, dir)) return {p, steps};
  }
}

JumpRules::Jump JumpRules::jump_diagonal(std::uint32_t p, int dir, std::uint32_t goal) const {
  const auto step = static_cast<std::uint32_t>(offset(dir));
  const int left = turn(dir, -1), right = turn(dir, 1);
  for (std::int32_t steps = 1;; ++steps) {
    if (!can_move(p, dir)) return {};
    p += step;
    if (p == goal) return {p, steps};
    if (jump_cardinal(p, left, goal).to != 0 || jump_cardinal(p, right, goal).to != 0) return {p, steps};
  }
}

void expand_jump_path(const GridMap& map, const std::vector<CellId>& jump_points, std::vector<CellId>& cells) {
  cells.clear();
  if (jump_points.empty()) return;
  cells.push_back(jump_points.front());
  for (std::size_t i = 1; i < jump_points.size(); ++i) {
    const CellCoord a = map.coord(jump_points[i - 1]);
    const Run run = run_between(a, map.coord(jump_points[i]));
    const auto d = static_cast<std::size_t>(run.direction);
    for (int k = 1; k <= run.steps; ++k) {
      cells.push_back(map.cell(a.x + k * direction_dx[d], a.y + k * direction_dy[d]));
    }
  }
}

}  // namespace waymark
