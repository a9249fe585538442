// Fuzz target: query files for `waymark batch` (plain `sx sy gx gy` lines or a Moving AI
// scenario), read for a map, then run as a batch. Input: the queries file; or, with a NUL, a
// Moving AI .map before it and the queries file after it. Every list read is non-empty,
// within its limit, on the map, numbered by increasing lines, of the format its first line
// names; every answer found leads from its start to its goal over passable cells.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/grid/batch.hpp"
#include "waymark/io/batch_queries.hpp"
#include "waymark/io/movingai.hpp"

namespace {

/// Small enough that inputs reach them; what matters is that they are checked.
constexpr std::size_t fuzz_max_queries = 64;
constexpr std::size_t fuzz_max_cells = 4096;

/// The map when the input brings none: 16x12 with a wall (x = 7, y = 0..9) and a blocked corner.
waymark::grid::GridMap default_map() {
  constexpr int width = 16, height = 12, wall_x = 7, wall_end = 10;
  waymark::grid::GridMap map(width, height);
  map.set_passable(waymark::grid::CellRect{wall_x, 0, wall_x + 1, wall_end}, false);
  map.set_passable(width - 1, height - 1, false);
  return map;
}

/// Whether the first line's first field is "version" (the parser's scenario test).
bool names_a_scenario(std::string_view text) {
  std::string_view first = text.substr(0, text.find('\n'));
  if (!first.empty() && first.back() == '\r') first.remove_suffix(1);
  const std::size_t begin = first.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return false;
  const std::string_view word = "version";
  first.remove_prefix(begin);
  return first.substr(0, word.size()) == word &&
         (first.size() == word.size() || first[word.size()] == ' ' || first[word.size()] == '\t');
}

void check(const waymark::io::BatchQueryList& list, const waymark::grid::GridMap& map, std::string_view text) {
  using namespace waymark;
  if (list.queries.empty() || list.queries.size() > fuzz_max_queries) fuzz::finding();
  if ((list.format == io::BatchQueryFormat::scenario) != names_a_scenario(text)) fuzz::finding();
  const std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  std::size_t previous = 0;
  for (const io::BatchQueryEntry& q : list.queries) {
    if (!map.in_bounds(q.start.x, q.start.y) || !map.in_bounds(q.goal.x, q.goal.y)) fuzz::finding();
    if (q.line <= previous || q.line > lines) fuzz::finding();
    previous = q.line;
  }
  // Run them: blocked cells and unreachable goals fail, every path found is sound.
  const grid::GridPlanner planner(map);
  const std::vector<grid::BatchQuery> queries = list.cells(map);
  const std::vector<grid::BatchResult> results = grid::run_batch(planner, queries, {.keep_paths = true});
  if (results.size() != queries.size()) fuzz::finding();
  for (std::size_t i = 0; i < results.size(); ++i) {
    const grid::BatchResult& r = results[i];
    if (!r.status.finished()) fuzz::finding();
    if (!r.status.succeeded()) {
      if (!r.path.empty() || r.cost != infinite_cost) fuzz::finding();
      continue;
    }
    if (r.path.empty() || r.path.front() != queries[i].start || r.path.back() != queries[i].goal) fuzz::finding();
    for (const CellId c : r.path) {
      if (!map.passable(c)) fuzz::finding();
    }
    if (!(r.cost >= 0) || r.cost == infinite_cost) fuzz::finding();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  const std::string_view input = fuzz::text_of(data, size);
  const bool with_map = input.find('\0') != std::string_view::npos;
  const auto [map_text, queries_text] = fuzz::two_files(input);
  const std::string& text = with_map ? queries_text : map_text;
  grid::GridMap map = default_map();
  if (with_map) {
    try {
      std::istringstream in(map_text);
      map = io::parse_movingai_map(in, "fuzz.map", {.max_cells = fuzz_max_cells});
    } catch (const LoadError&) {
      return 0;
    }
  }
  try {
    std::istringstream in(text);
    check(io::parse_batch_queries(in, "fuzz.queries", map, {.max_queries = fuzz_max_queries}), map, text);
  } catch (const LoadError&) {
  }
  return 0;
}
