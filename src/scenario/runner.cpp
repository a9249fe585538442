#include "waymark/scenario/runner.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>

#include "waymark/core/stopwatch.hpp"

namespace waymark::scenario {

using grid::Algorithm;
using grid::GridMap;
using grid::GridPlanner;
using grid::GridPlannerOptions;
using grid::JumpTable;
using grid::planner_unsupported;
using io::Scenario;
using io::ScenarioQuery;
using io::load_movingai_map;
using io::load_movingai_scenario;
using io::validate_query;

std::string resolve_map_path(const std::string& scenario_file, const std::string& map_column,
                             const std::string& maps_dir) {
  namespace fs = std::filesystem;
  const fs::path dir = maps_dir.empty() ? fs::path(scenario_file).parent_path() : fs::path(maps_dir);
  return (dir / fs::path(map_column).filename()).string();
}

namespace {

bool sampled(std::size_t query, const ScenarioRunOptions& options) {
  return options.sample_every <= 1 || query % options.sample_every == 0;
}

/// Runs one scenario file's queries, map by map, accumulating into the report and the progress.
void run_file(const std::string& file, const Scenario& scenario, const ScenarioRunOptions& options,
              ScenarioReport& report, ScenarioProgress& progress) {
  ScenarioFileReport fr;
  fr.file = file;
  // Maps loaded for this file (usually one), each with its reusable planner.
  struct Loaded {
    GridMap map;
    std::unique_ptr<JumpTable> jump_table;  ///< jps-plus: built here so its cost is reported
    std::unique_ptr<GridPlanner> planner;
    search::SearchHandle<CellId> search;  ///< one search reused for every query on the map
  };
  std::map<std::string, std::unique_ptr<Loaded>> loaded;
  for (std::size_t i = 0; i < scenario.queries.size(); ++i) {
    if (!sampled(i, options)) continue;
    const ScenarioQuery& q = scenario.queries[i];
    const std::string map_path = resolve_map_path(file, q.map, options.maps_dir);
    auto it = loaded.find(map_path);
    if (it == loaded.end()) {
      if (!std::filesystem::exists(map_path))
        throw LoadError(file, q.line, "map '" + q.map + "' not found at " + map_path);
      auto l = std::make_unique<Loaded>(Loaded{load_movingai_map(map_path, options.map_load), nullptr, nullptr});
      if (const auto why = planner_unsupported(l->map, options.planner)) throw LoadError(file, q.line, *why);
      GridPlannerOptions planner_options = options.planner;
      if (planner_options.algorithm == Algorithm::jps_plus) {
        const Stopwatch build;
        l->jump_table = std::make_unique<JumpTable>(l->map);
        fr.preprocess_s += build.seconds();
        fr.preprocess_bytes += l->jump_table->memory_bytes();
        planner_options.jump_table = l->jump_table.get();
      }
      const Stopwatch setup;
      l->planner = std::make_unique<GridPlanner>(l->map, planner_options);
      l->search = l->planner->make_search();
      fr.setup_s += setup.seconds();
      it = loaded.emplace(map_path, std::move(l)).first;
    }
    const GridMap& map = it->second->map;
    search::SearchHandle<CellId>& search = it->second->search;
    validate_query(scenario, q, map, map_path);
    fr.map_path = map_path;

    const Status st = search.run(map.cell(q.start.x, q.start.y), map.cell(q.goal.x, q.goal.y));
    ++fr.queries;
    fr.expanded += search.stats().expanded;
    fr.time_s += search.stats().time_s;
    const double found = st.succeeded() ? search.path().cost : std::numeric_limits<double>::quiet_NaN();
    if (st.succeeded()) {
      ++fr.solved;
      fr.path_steps += search.path().steps();
    }
    if (st.succeeded() && q.matches_optimal(found)) {
      ++fr.optimal;
    } else if (report.mismatches.size() < options.max_mismatches) {
      report.mismatches.push_back({file, q.line, q.start, q.goal, q.optimal, found, st.state});
    }
    if (q.optimal > report.longest.optimal) report.longest = {map_path, q.start, q.goal, q.optimal};
    ++progress.queries_done;
    if (options.progress) options.progress(progress);
  }
  report.queries += fr.queries;
  report.solved += fr.solved;
  report.optimal += fr.optimal;
  report.expanded += fr.expanded;
  report.path_steps += fr.path_steps;
  report.time_s += fr.time_s;
  report.preprocess_s += fr.preprocess_s;
  report.setup_s += fr.setup_s;
  report.preprocess_bytes_max = std::max(report.preprocess_bytes_max, fr.preprocess_bytes);
  report.files.push_back(std::move(fr));
}

}  // namespace

ScenarioReport run_scenarios(const std::vector<std::string>& files, const ScenarioRunOptions& options) {
  // Every file first: a malformed one is refused before any search, and the totals are known.
  std::vector<Scenario> scenarios;
  scenarios.reserve(files.size());
  ScenarioProgress progress{.files_total = files.size()};
  const std::size_t every = std::max<std::size_t>(options.sample_every, 1);
  for (const std::string& f : files) {
    scenarios.push_back(load_movingai_scenario(f));
    progress.queries_total += (scenarios.back().queries.size() + every - 1) / every;  // i % every == 0
  }
  if (options.progress) options.progress(progress);
  ScenarioReport report;
  for (std::size_t k = 0; k < files.size(); ++k) {
    run_file(files[k], scenarios[k], options, report, progress);
    ++progress.files_done;
    if (options.progress) options.progress(progress);
  }
  return report;
}

}  // namespace waymark::scenario
