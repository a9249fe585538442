#include "waymark/io/batch_queries.hpp"

#include "text_lines.hpp"
#include "waymark/core/text.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::io {

using detail::LineReader;
using detail::parse_number;
using detail::split_fields;
using grid::CellCoord;
using grid::GridMap;

namespace {

constexpr std::size_t plain_columns = 4;

std::string spell(CellCoord c) { return pair_text(c.x, c.y, ","); }

std::string map_size(const GridMap& map) { return number_text(map.width()) + "x" + number_text(map.height()); }

/// Why the start or goal of a query does not fit `map`, or "" when both do.
std::string outside(const GridMap& map, CellCoord start, CellCoord goal) {
  if (!map.in_bounds(start.x, start.y)) return "start " + spell(start) + " is outside the " + map_size(map) + " map";
  if (!map.in_bounds(goal.x, goal.y)) return "goal " + spell(goal) + " is outside the " + map_size(map) + " map";
  return {};
}

BatchQueryList from_scenario(const Scenario& scenario, const GridMap& map) {
  BatchQueryList list;
  list.source = scenario.file;
  list.format = BatchQueryFormat::scenario;
  list.queries.reserve(scenario.queries.size());
  for (const ScenarioQuery& q : scenario.queries) {
    if (q.map_width != map.width() || q.map_height != map.height())
      throw LoadError(scenario.file, q.line,
                      "the scenario says its map is " + number_text(q.map_width) + "x" +
                          number_text(q.map_height) + ", the map given is " + map_size(map));
    if (const std::string why = outside(map, q.start, q.goal); !why.empty()) throw LoadError(scenario.file, q.line, why);
    list.queries.push_back({q.start, q.goal, q.line});
  }
  return list;
}

}  // namespace

std::vector<grid::BatchQuery> BatchQueryList::cells(const GridMap& map) const {
  std::vector<grid::BatchQuery> out;
  out.reserve(queries.size());
  for (const BatchQueryEntry& q : queries) out.push_back({map.cell(q.start.x, q.start.y), map.cell(q.goal.x, q.goal.y)});
  return out;
}

BatchQueryList parse_batch_queries(std::istream& in, const std::string& name, const GridMap& map,
                                   const BatchQueryOptions& options) {
  const std::istream::pos_type origin = in.tellg();
  LineReader reader(in, name);
  std::string line;
  bool more = reader.next(line);
  if (more) {
    const auto fields = split_fields(line);
    if (!fields.empty() && fields[0] == "version") {
      in.clear();
      if (origin == std::istream::pos_type(-1) || !in.seekg(origin))
        reader.fail("cannot read the scenario again from its start (the input cannot seek)");
      Scenario scenario = parse_movingai_scenario(in, name, {.max_queries = options.max_queries});
      if (scenario.queries.empty()) reader.fail_at(0, "no queries in the scenario");
      return from_scenario(scenario, map);
    }
  }
  BatchQueryList list;
  list.source = name;
  list.format = BatchQueryFormat::plain;
  for (; more; more = reader.next(line)) {
    const auto fields = split_fields(std::string_view(line).substr(0, line.find('#')));
    if (fields.empty()) continue;
    if (fields.size() != plain_columns)
      reader.fail("expected 4 integers 'sx sy gx gy', got " + number_text(fields.size()) + " fields");
    int v[plain_columns];
    for (std::size_t i = 0; i < plain_columns; ++i) {
      if (!parse_number(fields[i], v[i]))
        reader.fail("expected an integer in column " + number_text(i + 1) + ", got " + quoted(fields[i]));
    }
    const CellCoord start{v[0], v[1]}, goal{v[2], v[3]};
    if (const std::string why = outside(map, start, goal); !why.empty()) reader.fail(why);
    if (list.queries.size() >= options.max_queries)
      reader.fail("more than " + number_text(options.max_queries) + " queries (BatchQueryOptions::max_queries)");
    list.queries.push_back({start, goal, reader.number()});
  }
  if (list.queries.empty()) reader.fail_at(0, "no queries in the file (expected lines 'sx sy gx gy')");
  return list;
}

BatchQueryList load_batch_queries(const std::string& path, const GridMap& map, const BatchQueryOptions& options) {
  std::ifstream in = open_input_file(path);
  return parse_batch_queries(in, path, map, options);
}

}  // namespace waymark::io
