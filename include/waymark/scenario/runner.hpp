#pragma once
/// @file Runs Moving AI scenario files and checks every answer against the printed optimum.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::scenario {

/// How far a run is: files and queries (the sampled ones) done, of all. Every file is read
/// before the first query runs, so both totals are known from the first report.
struct ScenarioProgress {
  std::size_t files_done = 0;
  std::size_t files_total = 0;
  std::size_t queries_done = 0;
  std::size_t queries_total = 0;
};

/// Told after each query and after each file, on the calling thread; `queries_done` never
/// decreases. Keep it cheap (a progress bar redraws at most a few times a second).
using ScenarioProgressFn = std::function<void(const ScenarioProgress&)>;

struct ScenarioRunOptions {
  /// Benchmark semantics by default: 8-connected, no corner cutting, A* with octile.
  grid::GridPlannerOptions planner;
  /// Where map files are looked up (by the basename of the map column); empty: beside each
  /// scenario file.
  std::string maps_dir;
  /// How many mismatches to keep in detail.
  std::size_t max_mismatches = 20;
  /// Runs query i of each file (0-based, in file order) only when i % sample_every == 0, so
  /// slow peers in bench/ can run the very same subset. 1: every query. [Limit: >= 1; 0 acts as 1]
  std::size_t sample_every = 1;
  /// How the maps are read (MapLoadOptions::max_cells bounds their size).
  io::MapLoadOptions map_load;
  /// Progress reports, when set.
  ScenarioProgressFn progress{};
};

/// A query whose answer was not within tolerance of the optimum.
struct ScenarioMismatch {
  std::string file;
  std::size_t line = 0;
  grid::CellCoord start;
  grid::CellCoord goal;
  double expected = 0;
  double found = 0;  ///< NaN when no path was found
  SearchState state = SearchState::not_started;
};

struct ScenarioFileReport {
  std::string file;
  std::string map_path;
  std::size_t queries = 0;
  std::size_t solved = 0;   ///< a path was found
  std::size_t optimal = 0;  ///< |found − optimal| ≤ tolerance
  std::uint64_t expanded = 0;
  std::uint64_t path_steps = 0;  ///< moves along the solved queries' paths
  double time_s = 0;  ///< search time only (begin + step), not loading
  double preprocess_s = 0;            ///< jps-plus: time to build the JPS+ tables
  std::size_t preprocess_bytes = 0;   ///< jps-plus: memory of those tables
  double setup_s = 0;  ///< building the planners (move masks, node records), once per map
};

/// The query with the longest optimal length, for drawing.
struct LongestQuery {
  std::string map_path;
  grid::CellCoord start;
  grid::CellCoord goal;
  double optimal = -1;
};

struct ScenarioReport {
  std::vector<ScenarioFileReport> files;
  std::vector<ScenarioMismatch> mismatches;  ///< the first max_mismatches
  std::size_t queries = 0;
  std::size_t solved = 0;
  std::size_t optimal = 0;
  std::uint64_t expanded = 0;
  std::uint64_t path_steps = 0;  ///< moves along the solved queries' paths
  double time_s = 0;
  double preprocess_s = 0;             ///< all files' preprocessing time
  std::size_t preprocess_bytes_max = 0;  ///< the largest file's preprocessed memory
  double setup_s = 0;                    ///< all files' planner setup time
  LongestQuery longest;

  [[nodiscard]] bool all_optimal() const { return optimal == queries; }
  [[nodiscard]] double mean_us() const { return queries == 0 ? 0 : time_s * 1e6 / static_cast<double>(queries); }
};

/// Path of the map a scenario query refers to: the basename of its map column, in `maps_dir`
/// or (empty) the scenario file's own folder.
[[nodiscard]] std::string resolve_map_path(const std::string& scenario_file, const std::string& map_column,
                                           const std::string& maps_dir);

/// Reads every file, then runs their queries (the sampled ones: ScenarioRunOptions::sample_every)
/// file by file. Throws LoadError on unreadable or malformed files (before any query runs),
/// missing maps, queries that do not fit their map (validate_query), and algorithms the map
/// does not support (planner_unsupported).
[[nodiscard]] ScenarioReport run_scenarios(const std::vector<std::string>& files,
                                           const ScenarioRunOptions& options);

}  // namespace waymark::scenario
