#include "waymark/io/movingai.hpp"

#include <cmath>
#include <cstdlib>
#include <string_view>

#include "text_lines.hpp"

#include "waymark/core/text.hpp"

namespace waymark::io {

using grid::CellCoord;
using grid::GridMap;
using grid::GridMapParams;
namespace {

using detail::LineReader;
using detail::parse_number;
using detail::split_fields;

/// Largest map side we accept; keeps width·height well inside 32-bit cell ids.
constexpr long max_map_side = 1 << 15;

/// Parses a non-negative decimal number, and one unit of its last printed digit.
bool parse_length(std::string_view s, double& out, double& unit) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
      return false;  // rejects "nan", "inf"
  }
  const std::string text(s);
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(out) || out < 0) return false;
  const std::size_t dot = text.find('.');
  const std::size_t exp = text.find_first_of("eE");
  const std::size_t digits_end = exp == std::string::npos ? text.size() : exp;
  const long decimals =
      dot == std::string::npos || dot > digits_end ? 0 : static_cast<long>(digits_end - dot - 1);
  unit = std::pow(10.0, -static_cast<double>(decimals));
  return true;
}

long header_value(const LineReader& reader, std::string_view line, std::string_view key) {
  const auto fields = split_fields(line);
  long v = 0;
  if (fields.size() != 2 || fields[0] != key)
    reader.fail("expected '" + std::string(key) + " N', got " + quoted(line));
  if (!parse_number(fields[1], v) || v < 1 || v > max_map_side)
    reader.fail(std::string(key) + " must be an integer from 1 to " + number_text(max_map_side) +
                ", got " + quoted(fields[1]));
  return v;
}

}  // namespace

GridMap parse_movingai_map(std::istream& in, const std::string& name, const MapLoadOptions& options) {
  LineReader reader(in, name);
  std::string line;
  if (!reader.next(line)) reader.fail("empty file: missing 'type' header");
  {
    const auto f = split_fields(line);
    if (f.size() != 2 || f[0] != "type" || f[1] != "octile") reader.fail("expected 'type octile', got " + quoted(line));
  }
  long height = -1, width = -1;
  while (height < 0 || width < 0) {
    if (!reader.next(line)) reader.fail("missing 'height' or 'width' header");
    const auto f = split_fields(line);
    if (!f.empty() && f[0] == "height" && height < 0) {
      height = header_value(reader, line, "height");
    } else if (!f.empty() && f[0] == "width" && width < 0) {
      width = header_value(reader, line, "width");
    } else {
      reader.fail("expected 'height N' or 'width N', got " + quoted(line));
    }
  }
  if (!reader.next(line) || split_fields(line) != std::vector<std::string_view>{"map"})
    reader.fail("expected 'map' before the rows");

  const auto cells = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  if (cells > options.max_cells)
    reader.fail("the map has " + number_text(width) + "x" + number_text(height) + " = " + number_text(cells) +
                " cells, more than the limit of " + number_text(options.max_cells) +
                " (MapLoadOptions::max_cells; the CLI's --max-cells)");
  // Grown row by row: a file shorter than its header declares allocates only what it holds.
  std::vector<std::uint8_t> passable;
  std::vector<double> terrain;  // allocated at the first terrain cell: most maps have none
  const auto set_terrain = [&](std::size_t i, double multiplier) {
    if (terrain.size() < passable.size()) terrain.resize(passable.size(), 1.0);
    terrain[i] = multiplier;
  };
  for (int y = 0; y < height; ++y) {
    if (!reader.next(line))
      reader.fail("truncated: expected " + number_text(height) + " rows, found " + number_text(y));
    if (static_cast<long>(line.size()) != width)
      reader.fail("row " + number_text(y) + " has " + number_text(line.size()) +
                  " cells, expected " + number_text(width));
    passable.resize(passable.size() + static_cast<std::size_t>(width), 1);
    for (int x = 0; x < width; ++x) {
      const char c = line[static_cast<std::size_t>(x)];
      const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
      switch (c) {
        case '.': case 'G': break;
        case '@': case 'O': case 'T': passable[i] = 0; break;
        case 'S':
          if (options.terrain) set_terrain(i, options.terrain->swamp);
          break;
        case 'W':
          if (options.terrain) set_terrain(i, options.terrain->water);
          else passable[i] = 0;
          break;
        default:
          reader.fail("bad cell character " + quoted(std::string_view(&c, 1)) + " at column " + number_text(x) +
                      " (expected . G @ O T S W)");
      }
    }
  }
  while (reader.next(line)) {
    if (!split_fields(line).empty())
      reader.fail("unexpected text after " + number_text(height) + " rows");
  }
  if (!terrain.empty()) terrain.resize(cells, 1.0);
  return GridMap(static_cast<int>(width), static_cast<int>(height), std::move(passable), std::move(terrain), options.grid);
}

GridMap load_movingai_map(const std::string& path, const MapLoadOptions& options) {
  std::ifstream in = open_input_file(path);
  return parse_movingai_map(in, path, options);
}

Scenario parse_movingai_scenario(std::istream& in, const std::string& name, const ScenarioLoadOptions& options) {
  LineReader reader(in, name);
  Scenario scenario{name, {}};
  std::string line;
  if (!reader.next(line)) reader.fail("empty file: missing 'version 1' header");
  {
    const auto f = split_fields(line);
    if (f.size() != 2 || f[0] != "version" || (f[1] != "1" && f[1] != "1.0"))
      reader.fail("expected 'version 1', got " + quoted(line));
  }
  constexpr std::size_t columns = 9;
  while (reader.next(line)) {
    const auto f = split_fields(line);
    if (f.empty()) continue;
    if (f.size() != columns)
      reader.fail("expected 9 columns (bucket map width height sx sy gx gy length), got " +
                  number_text(f.size()));
    long v[6];
    long bucket = 0;
    if (!parse_number(f[0], bucket)) reader.fail("bad bucket " + quoted(f[0]));
    for (int i = 0; i < 6; ++i) {
      if (!parse_number(f[static_cast<std::size_t>(2 + i)], v[i]) || v[i] < 0 || v[i] > max_map_side)
        reader.fail("bad number " + quoted(f[static_cast<std::size_t>(2 + i)]) + " in column " +
                    number_text(3 + i));
    }
    ScenarioQuery q;
    q.bucket = static_cast<int>(bucket);
    q.map = std::string(f[1]);
    q.map_width = static_cast<int>(v[0]);
    q.map_height = static_cast<int>(v[1]);
    q.start = {static_cast<int>(v[2]), static_cast<int>(v[3])};
    q.goal = {static_cast<int>(v[4]), static_cast<int>(v[5])};
    q.line = reader.number();
    if (q.start.x >= q.map_width || q.start.y >= q.map_height || q.goal.x >= q.map_width ||
        q.goal.y >= q.map_height)
      reader.fail("start or goal outside the " + number_text(q.map_width) + "x" +
                  number_text(q.map_height) + " map");
    if (!parse_length(f[8], q.optimal, q.printed_unit))
      reader.fail("optimal length must be a finite number >= 0, got " + quoted(f[8]));
    if (scenario.queries.size() >= options.max_queries)
      reader.fail("more than " + number_text(options.max_queries) + " queries (ScenarioLoadOptions::max_queries)");
    scenario.queries.push_back(std::move(q));
  }
  return scenario;
}

Scenario load_movingai_scenario(const std::string& path, const ScenarioLoadOptions& options) {
  std::ifstream in = open_input_file(path);
  return parse_movingai_scenario(in, path, options);
}

void validate_query(const Scenario& scenario, const ScenarioQuery& q, const GridMap& map, std::string_view map_name) {
  auto fail = [&](const std::string& reason) { throw LoadError(scenario.file, q.line, reason); };
  if (q.map_width != map.width() || q.map_height != map.height())
    fail("the scenario's map " + quoted(q.map) + " is " + number_text(q.map_width) + "x" + number_text(q.map_height) +
         " but " + quoted(map_name) + " is " + number_text(map.width()) + "x" + number_text(map.height()));
  for (const CellCoord c : {q.start, q.goal}) {
    if (!map.in_bounds(c.x, c.y))
      fail("cell (" + number_text(c.x) + "," + number_text(c.y) + ") is outside the map");
    if (!map.passable(c.x, c.y))
      fail("cell (" + number_text(c.x) + "," + number_text(c.y) + ") is blocked");
  }
}

}  // namespace waymark::io
