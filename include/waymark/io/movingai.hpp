#pragma once
/// @file Moving AI benchmark formats (Sturtevant 2012): `.map` grids and `.map.scen` query
/// lists. Loaders throw LoadError (file, line, reason) on malformed input; CRLF is accepted.

#include <cstddef>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/grid/grid_map.hpp"

namespace waymark::io {

/// Costs given to the Moving AI terrain letters when terrain costs are on.
struct TerrainCosts {
  double swamp = 3.0;  ///< multiplier for 'S' cells. [Limit: > 0]
  double water = 5.0;  ///< multiplier for 'W' cells (rivers, shallows). [Limit: > 0]
};

/// The default largest map the loader accepts: 2^25 cells (5792² or 8192 × 4096), about
/// 1.3 GB for the map and a grid planner (GridPlanner warms up ~40 bytes per cell).
inline constexpr std::size_t default_max_map_cells = std::size_t{1} << 25;

struct MapLoadOptions {
  /// Unset (default, benchmark semantics): '.' 'G' 'S' passable at cost 1, '@' 'O' 'T' 'W'
  /// blocked. Set: 'S' and 'W' become passable with these multipliers.
  std::optional<TerrainCosts> terrain{};
  grid::GridMapParams grid;  ///< cell size, origin and cost limits of the resulting map
  /// Largest width × height accepted, checked on the header before anything is allocated (a
  /// LoadError names this limit). Each side is at most 32768 whatever this says.
  /// [Limit: >= 1; raise it for larger maps when the memory is there]
  std::size_t max_cells = default_max_map_cells;
};

/// Parses a `.map`. `name` is used in error messages.
[[nodiscard]] grid::GridMap parse_movingai_map(std::istream& in, const std::string& name,
                                         const MapLoadOptions& options = {});
[[nodiscard]] grid::GridMap load_movingai_map(const std::string& path, const MapLoadOptions& options = {});

/// One line of a scenario file.
struct ScenarioQuery {
  int bucket = 0;
  std::string map;  ///< map-name column as written (may carry a directory prefix)
  int map_width = 0;
  int map_height = 0;
  grid::CellCoord start;
  grid::CellCoord goal;
  double optimal = 0;  ///< optimal length as printed
  double printed_unit = 1;  ///< one unit of the last printed digit of `optimal` (1e-8 for "3.00000000")
  std::size_t line = 0;  ///< line number in the file, for messages

  /// Whether a found length agrees with the printed optimum: found − optimal lies in
  /// [−unit/2 − slack, unit + slack], slack = 1e-9 + 1e-8 × optimal. Why not ±unit/2: the
  /// published files truncate as well as round, and their own sums carry rounding error
  /// (arena.map.scen line 106 prints 43.11269836 for 12 + 22√2 = 43.1126983722…). Beyond the
  /// printed unit, the deviations measured on the Moving AI sets stay below 2e-9 × optimal
  /// (docs/scenarios.md), so the relative slack keeps a margin of five.
  [[nodiscard]] bool matches_optimal(double found) const {
    constexpr double absolute_slack = 1e-9;
    constexpr double relative_slack = 1e-8;
    const double slack = absolute_slack + relative_slack * optimal;
    const double d = found - optimal;
    return d >= -0.5 * printed_unit - slack && d <= printed_unit + slack;
  }
};

struct Scenario {
  std::string file;
  std::vector<ScenarioQuery> queries;
};

/// The default most queries a scenario file may hold: 2^20 (the Moving AI files hold a few
/// thousand each). Counted while reading, so a file over it is refused before it grows further.
inline constexpr std::size_t default_max_scenario_queries = std::size_t{1} << 20;

struct ScenarioLoadOptions {
  /// Most queries accepted; more is a LoadError naming this limit. [Limit: >= 1]
  std::size_t max_queries = default_max_scenario_queries;
};

[[nodiscard]] Scenario parse_movingai_scenario(std::istream& in, const std::string& name,
                                               const ScenarioLoadOptions& options = {});
[[nodiscard]] Scenario load_movingai_scenario(const std::string& path, const ScenarioLoadOptions& options = {});

/// Checks a query against the map it runs on, `map_name` (the file it came from: the message
/// names it, which need not be the map the scenario line names): sizes match the scenario's
/// columns, both endpoints inside and passable. Throws LoadError pointing at the scenario line.
void validate_query(const Scenario& scenario, const ScenarioQuery& q, const grid::GridMap& map, std::string_view map_name);

}  // namespace waymark::io
