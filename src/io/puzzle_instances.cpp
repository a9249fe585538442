#include "waymark/io/puzzle_instances.hpp"

#include "text_lines.hpp"

#include "waymark/core/text.hpp"

namespace waymark::io {

using puzzle::PuzzleState;
using puzzle::PuzzleCheck;
using puzzle::SlidingPuzzle;
using puzzle::describe;
using puzzle::max_puzzle_width;
using puzzle::min_puzzle_width;

using detail::LineReader;
using detail::parse_number;
using detail::split_fields;

namespace {

/// The board width for a line of `fields` numbers: N² tiles, optionally after an index, or
/// after an index and a length. Returns 0 when no width from 2 to 4 fits.
int width_for(std::size_t fields, std::size_t& prefix) {
  for (int w = max_puzzle_width; w >= min_puzzle_width; --w) {
    const auto cells = static_cast<std::size_t>(w * w);
    if (fields >= cells && fields - cells <= 2) {
      prefix = fields - cells;
      return w;
    }
  }
  return 0;
}

}  // namespace

PuzzleInstanceList parse_puzzle_instances(std::istream& in, const std::string& name) {
  PuzzleInstanceList list;
  std::optional<SlidingPuzzle> puzzle;
  LineReader r(in, name);
  std::string line;
  while (r.next(line)) {
    const auto f = split_fields(std::string_view(line).substr(0, line.find('#')));
    if (f.empty()) continue;
    std::size_t prefix = 0;
    const int width = width_for(f.size(), prefix);
    if (width == 0) {
      r.fail("expected 4, 9 or 16 tiles (optionally after an index, or an index and a length), got " +
             number_text(f.size()) + " fields");
    }
    if (!puzzle) {
      puzzle.emplace(width);
      list.width = width;
    } else if (width != list.width) {
      r.fail("a " + number_text(width) + "x" + number_text(width) + " board in a file of " +
             number_text(list.width) + "x" + number_text(list.width) + " boards");
    }
    PuzzleInstance inst;
    inst.line = r.number();
    if (prefix >= 1) {
      long index = 0;
      if (!parse_number(f[0], index)) r.fail("bad instance index \"" + std::string(f[0]) + "\"");
      inst.index = index;
    }
    if (prefix == 2) {
      int length = 0;
      if (!parse_number(f[1], length) || length < 0) r.fail("bad solution length \"" + std::string(f[1]) + "\"");
      inst.optimal_length = length;
    }
    for (std::size_t i = prefix; i < f.size(); ++i) {
      int t = 0;
      if (!parse_number(f[i], t)) r.fail("bad tile \"" + std::string(f[i]) + "\"");
      inst.tiles.push_back(t);
    }
    const PuzzleCheck check = puzzle->check(inst.tiles);
    if (check != PuzzleCheck::ok) r.fail(describe(check, inst.tiles, width));
    inst.state = puzzle->make_state(inst.tiles);
    list.instances.push_back(std::move(inst));
  }
  if (list.instances.empty()) r.fail_at(0, "no puzzle instances in the file");
  return list;
}

PuzzleInstanceList load_puzzle_instances(const std::string& path) {
  std::ifstream in = open_input_file(path);
  return parse_puzzle_instances(in, path);
}

}  // namespace waymark::io
