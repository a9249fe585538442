#include "waymark/puzzle/heuristics.hpp"

#include <algorithm>
#include <cstdlib>

namespace waymark::puzzle {

namespace {

int manhattan(const PuzzleState& s, const std::array<std::uint8_t, max_puzzle_cells>& goal_cell, int width) {
  int h = 0;
  for (int c = 0; c < width * width; ++c) {
    const int t = s.tile_at(c);
    if (t == 0) continue;
    const int g = goal_cell[static_cast<std::size_t>(t)];
    h += std::abs(c / width - g / width) + std::abs(c % width - g % width);
  }
  return h;
}

}  // namespace

int line_conflict_tiles(const int* goal_slots, int length) {
  // Longest strictly increasing run of goal slots that can stay (O(n²); lines are short).
  std::array<int, max_puzzle_width> best{};
  int tiles = 0;
  int keep = 0;
  for (int i = 0; i < length; ++i) {
    if (goal_slots[i] < 0) continue;
    ++tiles;
    int longest = 1;
    for (int j = 0; j < i; ++j) {
      if (goal_slots[j] >= 0 && goal_slots[j] < goal_slots[i]) longest = std::max(longest, best[static_cast<std::size_t>(j)] + 1);
    }
    best[static_cast<std::size_t>(i)] = longest;
    keep = std::max(keep, longest);
  }
  return tiles - keep;
}

Cost ManhattanHeuristic::operator()(const PuzzleState& s, const PuzzleState& goal) const {
  return manhattan(s, goal.cells_of_tiles(width_ * width_), width_);
}

Cost LinearConflictHeuristic::operator()(const PuzzleState& s, const PuzzleState& goal) const {
  const int w = width_;
  const auto goal_cell = goal.cells_of_tiles(w * w);
  int conflicts = 0;
  std::array<int, max_puzzle_width> row{};
  std::array<int, max_puzzle_width> column{};
  for (int line = 0; line < w; ++line) {
    for (int i = 0; i < w; ++i) {
      const int tr = s.tile_at(line * w + i);  // the i-th cell of row `line`
      const int gr = goal_cell[static_cast<std::size_t>(tr)];
      row[static_cast<std::size_t>(i)] = tr != 0 && gr / w == line ? gr % w : -1;
      const int tc = s.tile_at(i * w + line);  // the i-th cell of column `line`
      const int gc = goal_cell[static_cast<std::size_t>(tc)];
      column[static_cast<std::size_t>(i)] = tc != 0 && gc % w == line ? gc / w : -1;
    }
    conflicts += line_conflict_tiles(row.data(), w) + line_conflict_tiles(column.data(), w);
  }
  return manhattan(s, goal_cell, w) + 2 * conflicts;
}

}  // namespace waymark::puzzle
