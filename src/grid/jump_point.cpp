#include "waymark/grid/jump_point.hpp"

#include <algorithm>
#include <bit>

namespace waymark::grid {

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

BlockJumps::BlockJumps(const JumpRules& rules)
    : rules_(&rules),
      padded_width_(rules.grid().stride()),
      padded_height_(rules.grid().height() + 2),
      row_of_padded_(static_cast<std::uint32_t>(padded_width_)) {
  constexpr std::int32_t bits_per_word = 64;
  for (int c = 0; c < 4; ++c) {
    // N and S rows run along the padded columns.
    const std::int32_t length = (c % 2 == 0) ? padded_height_ : padded_width_;
    const std::int32_t count = (c % 2 == 0) ? padded_width_ : padded_height_;
    BitRows& r = rows_[static_cast<std::size_t>(c)];
    r.words_per_row = length / bits_per_word + 2;
    r.words.assign(static_cast<std::size_t>(r.words_per_row) * static_cast<std::size_t>(count), 0);
  }
  const PaddedGrid& g = rules.grid();
  for (std::int32_t py = 0; py < padded_height_; ++py) {
    for (std::int32_t px = 0; px < padded_width_; ++px) {
      if (g.open(static_cast<std::uint32_t>(py * padded_width_ + px))) set_open(px, py, true);
    }
  }
}

std::uint64_t BlockJumps::BitRows::window(std::int32_t x, std::int32_t y) const {
  const auto* row = words.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(words_per_row);
  const auto i = static_cast<std::size_t>(x >> 6);
  const unsigned shift = static_cast<unsigned>(x) & 63u;
  const std::uint64_t low = row[i] >> shift;
  return shift == 0 ? low : low | row[i + 1] << (64 - shift);
}

BlockJumps::Oriented BlockJumps::orient(int cardinal, std::int32_t px, std::int32_t py) const {
  switch (cardinal) {
    case 0: return {padded_height_ - 1 - py, px};  // N: columns read upward
    case 2: return {px, py};                       // E: rows as they are
    case 4: return {py, px};                       // S: columns read downward
    default: return {padded_width_ - 1 - px, py};  // W: rows mirrored
  }
}

std::int32_t BlockJumps::scan(int cardinal, std::int32_t px, std::int32_t py, std::int32_t goal_x,
                              std::int32_t goal_y) const {
  const BitRows& rows = rows_[static_cast<std::size_t>(cardinal / 2)];
  const Oriented from = orient(cardinal, px, py);
  const Oriented goal = orient(cardinal, goal_x, goal_y);
  const bool goal_ahead = goal.y == from.y && goal.x > from.x;
  // Moving +x along row y, cell x has a forced neighbour when a side row is open at x but
  // blocked at x − 1 (see JumpRules::side_forced). The border ends every row with a blocked
  // cell, so the loop stops.
  for (std::int32_t x = from.x + 1;; x += 64) {
    const std::uint64_t open = rows.window(x, from.y);
    const std::uint64_t above = rows.window(x, from.y - 1), above_behind = rows.window(x - 1, from.y - 1);
    const std::uint64_t below = rows.window(x, from.y + 1), below_behind = rows.window(x - 1, from.y + 1);
    std::uint64_t stop = ~open | (above & ~above_behind) | (below & ~below_behind);
    if (goal_ahead && goal.x - x < 64) stop |= std::uint64_t{1} << (goal.x - x);
    if (stop == 0) continue;
    const int k = std::countr_zero(stop);
    const std::int32_t steps = x + k - from.x;
    return (open >> k & 1u) == 0 ? -steps : steps;  // a wall first: dead end
  }
}

JumpRules::Jump BlockJumps::jump(std::uint32_t p, int dir, std::uint32_t goal, std::uint32_t limit,
                                  std::uint64_t& scanned) const {
  const auto [py, px] = row_of_padded_.divide(p);
  const auto [gy, gx] = row_of_padded_.divide(goal);
  const auto x = static_cast<std::int32_t>(px), y = static_cast<std::int32_t>(py);
  const auto goal_x = static_cast<std::int32_t>(gx), goal_y = static_cast<std::int32_t>(gy);
  const auto cells = [](std::int32_t r) { return static_cast<std::uint32_t>(r > 0 ? r : -r); };
  // A straight jump runs to its end: at most one row, a few µs even on the largest maps.
  if (!is_diagonal(dir)) {
    const std::int32_t r = scan(dir, x, y, goal_x, goal_y);
    scanned += cells(r);
    return r <= 0 ? JumpRules::Jump{} : JumpRules::Jump{p + static_cast<std::uint32_t>(r * rules_->offset(dir)), r};
  }
  // Diagonal: step while allowed; stop at the goal or where either straight side scan finds a
  // jump point, or, once the side scans have passed over `limit` cells, at the cell reached
  // (checked after each step: the last step's side scans may go past it).
  const auto step = static_cast<std::uint32_t>(rules_->offset(dir));
  const int dx = direction_dx[static_cast<std::size_t>(dir)], dy = direction_dy[static_cast<std::size_t>(dir)];
  const int left = turn(dir, -1), right = turn(dir, 1);
  std::int32_t cx = x, cy = y;
  std::uint32_t side = 0;  // cells the side scans passed over (a dead-end scan returns minus that)
  for (;;) {
    if (!rules_->can_move(p, dir)) {
      scanned += side + cells(cx - x);
      return {};
    }
    p += step;
    cx += dx;
    cy += dy;
    if (p == goal) break;
    const std::int32_t l = scan(left, cx, cy, goal_x, goal_y);
    if (l > 0) {
      side += static_cast<std::uint32_t>(l);
      break;
    }
    const std::int32_t r = scan(right, cx, cy, goal_x, goal_y);
    side += static_cast<std::uint32_t>(-l) + cells(r);
    if (r > 0 || side >= limit) break;
  }
  const auto steps = static_cast<std::int32_t>(cells(cx - x));  // one column per diagonal step
  scanned += side + static_cast<std::uint32_t>(steps);
  return {p, steps};
}

void BlockJumps::set_open(std::int32_t px, std::int32_t py, bool open) {
  constexpr std::int32_t bits_per_word = 64;
  for (int c = 0; c < 4; ++c) {
    const Oriented o = orient(2 * c, px, py);
    BitRows& r = rows_[static_cast<std::size_t>(c)];
    std::uint64_t& word = r.words[static_cast<std::size_t>(o.y * r.words_per_row + o.x / bits_per_word)];
    const std::uint64_t bit = std::uint64_t{1} << (o.x % bits_per_word);
    word = open ? word | bit : word & ~bit;
  }
}

void BlockJumps::copy_cells(const GridMap& map, CellRect area) {
  for (int y = area.y0; y < area.y1; ++y) {
    for (int x = area.x0; x < area.x1; ++x) set_open(x + 1, y + 1, map.passable(x, y));
  }
}

std::size_t JumpPointSpace::sync() {
  constexpr int no_margin = 0;  // the padded copy holds exactly the map's cells
  const std::size_t n = replay_passability_changes(*map_, synced_version_, no_margin, [&](CellRect area) {
    grid_.copy_cells(*map_, area);
    jumps_.copy_cells(*map_, area);
  });
  synced_version_ = map_->version();
  return n;
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

}  // namespace waymark::grid
