#include "batch_command.hpp"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <thread>
#include <vector>

#include "progress.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/core/text.hpp"
#include "waymark/grid/batch.hpp"

namespace waymark::cli {

namespace {

nlohmann::ordered_json cell_json(grid::CellCoord c) { return nlohmann::ordered_json::array({c.x, c.y}); }

}  // namespace

CLI::App* add_batch_command(CLI::App& app, BatchArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "batch", "run many path queries on one Moving AI .map on several threads; one answer per query, in input order");
  cmd->add_option("--map,-m", a.map, "Moving AI .map file")->required();
  cmd->add_option("--queries,-q", a.queries,
                  "queries: a Moving AI .scen, or lines 'sx sy gx gy' (cells, from 0; # comments)")
      ->required();
  a.threads = static_cast<std::int64_t>(std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1,
                                                                grid::max_batch_threads));
  cmd->add_option("--threads,-t", a.threads,
                  "threads, one search per thread (1 to " + number_text(grid::max_batch_threads) +
                      "; default: the machine's cores)")
      ->capture_default_str();
  cmd->add_option("--diagonal", a.diagonal, diagonal_rule_help)->capture_default_str();
  cmd->add_flag("--terrain", a.terrain, "treat S (swamp, cost 3) and W (water, cost 5) as passable terrain");
  std::string algorithms = choices(grid::algorithm_names);
  algorithms.append(" (jps, jps-plus: uniform costs, no corner cutting)");
  cmd->add_option("--algorithm,-a", a.search.algorithm, algorithms)->capture_default_str();
  add_weight_option(cmd, a.search);
  cmd->add_option("--heuristic", a.search.heuristic, heuristic_help);
  cmd->add_flag("--json", a.search.json, "one JSON object per query (JSON lines), then a summary object");
  add_limit_options(cmd, a.search);
  cmd->add_option("--max-queries", a.max_queries, "refuse query files with more queries than this")
      ->capture_default_str();
  return cmd;
}

int run_batch(const BatchArgs& a) {
  return guarded([&] {
    const grid::DiagonalRule rule = diagonal_rule_arg(a.diagonal);
    const grid::GridPlannerOptions options = planner_options(a.search, rule);
    const std::size_t threads =
        checked_count(a.threads, 1, static_cast<std::int64_t>(grid::max_batch_threads), "--threads");
    io::MapLoadOptions load;
    load.max_cells = checked_positive(a.search.max_cells, "--max-cells");
    if (a.terrain) load.terrain = io::TerrainCosts{};
    const io::BatchQueryOptions query_options{.max_queries = checked_positive(a.max_queries, "--max-queries")};
    const grid::GridMap map = io::load_movingai_map(a.map, load);
    const io::BatchQueryList list = io::load_batch_queries(a.queries, map, query_options);
    if (const auto why = grid::planner_unsupported(map, options)) throw UsageError(*why);
    const grid::GridPlanner planner(map, options);
    const std::vector<grid::BatchQuery> queries = list.cells(map);

    grid::BatchOptions batch{.threads = threads};
    ProgressBar bar("batch");
    if (isatty(STDERR_FILENO) == 1) {
      batch.progress = [&bar](std::size_t done, std::size_t total) {
        bar.update(static_cast<double>(done) / static_cast<double>(total),
                   number_text(done) + "/" + number_text(total));
      };
    }
    const Stopwatch clock;
    const std::vector<grid::BatchResult> results = grid::run_batch(planner, queries, batch);
    const double time_s = clock.seconds();
    bar.clear();

    std::size_t solved = 0;
    for (std::size_t i = 0; i < results.size(); ++i) {
      const grid::BatchResult& r = results[i];
      const io::BatchQueryEntry& q = list.queries[i];
      solved += r.status.succeeded() ? 1 : 0;
      if (a.search.json) {
        nlohmann::ordered_json j;
        j["from"] = cell_json(q.start);
        j["to"] = cell_json(q.goal);
        j["status"] = to_string(r.status.state);
        if (!r.status.succeeded()) j["reason"] = reason_name(r.status);
        j["cost"] = r.status.succeeded() ? nlohmann::ordered_json(r.cost) : nlohmann::ordered_json(nullptr);
        std::cout << j.dump() << "\n";
      } else {
        std::cout << "(" << q.start.x << "," << q.start.y << ") -> (" << q.goal.x << "," << q.goal.y << "): ";
        if (r.status.succeeded()) {
          std::cout << "cost " << r.cost << "\n";
        } else {
          std::cout << "no path: " << reason_name(r.status) << "\n";
        }
      }
    }
    const std::size_t used = grid::batch_threads(queries.size(), map.cell_count(), batch);
    if (a.search.json) {
      nlohmann::ordered_json summary;
      summary["queries"] = queries.size();
      summary["threads"] = used;
      summary["time_s"] = time_s;
      std::cout << summary.dump() << "\n";
    } else {
      std::cout << queries.size() << " queries, " << solved << " solved, on " << used << " thread"
                << (used == 1 ? "" : "s") << " in " << time_s << " s";
      if (time_s > 0) std::cout << " (" << static_cast<double>(queries.size()) / time_s << " queries/s)";
      std::cout << "\n";
    }
    return solved == queries.size() ? exit_ok : exit_not_found;
  });
}

}  // namespace waymark::cli
