#include "commands.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <cmath>
#include <iostream>
#include <stdexcept>

#include "waymark/core/errors.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/grid/path_smoothing.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/io/path_query.hpp"
#include "waymark/render/grid_png.hpp"
#include "waymark/scenario/runner.hpp"
#include "progress.hpp"
#include "trace.hpp"
#include "waymark/core/text.hpp"

namespace waymark::cli {

using namespace grid;  // NOLINT: this file is the grid commands
using namespace io;
using namespace render;
using namespace scenario;
namespace {

void add_search_options(CLI::App* cmd, SearchArgs& a) {
  std::string algorithms = choices(algorithm_names);
  algorithms.append(" (jps, jps-plus: uniform costs, no corner cutting; theta: euclidean heuristic, no --weight)");
  cmd->add_option("--algorithm,-a", a.algorithm, algorithms)->capture_default_str();
  add_weight_option(cmd, a);
  cmd->add_option("--heuristic", a.heuristic, heuristic_help);
  cmd->add_flag("--json", a.json, "machine-readable output");
  cmd->add_option("--png", a.png,
                  "write a picture of the path, the cells expanded (shaded by order) and the open set, with a "
                  "legend, to this PNG");
  cmd->add_option("--svg", a.svg, "write the --png picture as SVG to this file");
  add_limit_options(cmd, a);
}

/// A number for the request: non-finite ones as text, which io::parse_path_query refuses by name.
nlohmann::json number_json(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(number_text(v)); }

/// The request a grid command's options make (io::parse_path_query reads it: one parser for
/// the CLI and the viewer's API). Only options given are set, so the defaults are the parser's.
nlohmann::json search_request(const SearchArgs& a, const std::string& diagonal) {
  nlohmann::json j = {{"algorithm", a.algorithm}, {"diagonal", diagonal}, {"max_nodes", a.max_nodes}};
  if (a.weight) j["weight"] = number_json(*a.weight);
  if (!a.heuristic.empty()) j["heuristic"] = a.heuristic;
  if (a.time_limit_s != 0) j["time_limit"] = number_json(a.time_limit_s);
  return j;
}

/// The query `request` asks for, or UsageError with the parser's reason; warnings to stderr.
PathQuery parsed_query(const nlohmann::json& request, PathQueryParts parts) {
  const ParsedPathQuery parsed = parse_path_query(request.dump(), parts);
  if (!parsed.ok()) throw UsageError(parsed.error);
  for (const std::string& warning : path_query_warnings(parsed.query)) std::cerr << "waymark: warning: " << warning << "\n";
  return parsed.query;
}

}  // namespace

void add_weight_option(CLI::App* cmd, SearchArgs& a) {
  cmd->add_option("--weight,-w", a.weight,
                  "weighted A* inflation, 1 to 1000000 (wastar only; default " +
                      number_text(PathQuery::default_weight) + ")");
}

void add_limit_options(CLI::App* cmd, SearchArgs& a) {
  cmd->add_option("--max-nodes", a.max_nodes, "stop a query after it reaches this many nodes (>= 1)")
      ->capture_default_str();
  cmd->add_option("--max-cells", a.max_cells,
                  "refuse maps with more cells than this (width x height; raise it for larger maps)")
      ->capture_default_str();
}

GridPlannerOptions planner_options(const SearchArgs& a, DiagonalRule rule) {
  return parsed_query(search_request(a, std::string(to_string(rule))), PathQueryParts::options).planner_options();
}

namespace {

/// Records what a picture shows of a search: the cells in expansion order, and which are in
/// the open set (opened after their last expansion).
class SearchPicture final : public search::EventSink<CellId> {
 public:
  explicit SearchPicture(std::size_t cells) : open_(cells, 0) {}
  void on_event(const search::Event<CellId>& e) override {
    if (!e.has_node || e.node.value >= open_.size()) return;
    if (e.kind == search::EventKind::expand) {
      expanded.push_back(e.node);
      open_[e.node.value] = 0;
    } else if (e.kind == search::EventKind::open) {
      open_[e.node.value] = 1;
    }
  }
  [[nodiscard]] std::vector<CellId> open_set() const {
    std::vector<CellId> cells;
    for (std::uint32_t i = 0; i < open_.size(); ++i)
      if (open_[i] != 0) cells.push_back(CellId{i});
    return cells;
  }
  std::vector<CellId> expanded;

 private:
  std::vector<std::uint8_t> open_;
};

/// `waymark path`'s text answer: the status, the cost and steps (smoothed when asked, with the
/// search's as the raw cost), the search's effort and the path.
void print_path_answer(const GridMap& map, const PathAnswer& answer) {
  const Status st = answer.status;
  const Path<CellId>& path = answer.smoothed ? *answer.smoothed : answer.path;  // what is printed
  std::cout << "status:   " << to_string(st.state);
  if (!st.succeeded()) std::cout << ": " << failure_reason(st);
  std::cout << "\n";
  if (answer.has_path()) {
    std::cout << (answer.partial() ? "partial:  cost " : "cost:     ") << path.cost << "\nsteps:    " << path.steps() << "\n";
    if (answer.smoothed) std::cout << "raw cost: " << answer.path.cost << " (" << answer.path.steps() << " steps)\n";
  }
  std::cout << "expanded: " << answer.stats.expanded << "\ntime:     " << answer.stats.time_s * microseconds_per_second
            << " us\n";
  if (answer.has_path()) {
    std::cout << "path:    ";
    for (const CellId c : path.nodes) {
      const CellCoord p = map.coord(c);
      std::cout << " (" << p.x << "," << p.y << ")";
    }
    std::cout << "\n";
  }
}

/// Where --png and --svg write.
struct PictureFiles {
  std::string png, svg;
  [[nodiscard]] bool any() const { return !png.empty() || !svg.empty(); }
};

/// Runs the query once more with events on (so the timed run above is not slowed by them):
/// streams them to `trace` and draws the path, the cells expanded and the open set to the
/// picture files, each when set. `limit` is the first run's whole-query budget beyond the
/// planner's node limit. `smoothed`, when given, is drawn (orange) over the replay's path (grey).
void replay(const GridPlanner& planner, CellId start, CellId goal, const std::string& trace,
            const PictureFiles& pictures, const search::Budget& limit = {},
            const std::vector<CellId>* smoothed = nullptr) {
  if (trace.empty() && !pictures.any()) return;
  FanOut<CellId> sinks;
  std::optional<TraceWriter<CellId, io::SpellGridCell>> writer;
  SearchPicture seen(planner.map().cell_count());
  if (!trace.empty()) sinks.add(&writer.emplace(trace, io::SpellGridCell{&planner.map()}));
  if (pictures.any()) sinks.add(&seen);
  search::QueryOptions<CellId> query = planner.options().query;
  query.events = &sinks;
  search::SearchHandle<CellId> search = planner.make_search(query);
  search::run_within(search, start, goal, limit);
  if (writer) writer->finish();
  if (!pictures.any()) return;
  const std::vector<CellId> open = seen.open_set();
  GridLayers layers{.path = search.path().nodes, .expanded = seen.expanded, .open = open, .start = start, .goal = goal};
  if (smoothed) layers.smoothed = *smoothed;
  write_pictures(pictures.png, pictures.svg, [&](const std::string& file, PictureFormat format) {
    return write_grid_picture(planner.map(), layers, file, {}, format);
  });
}

}  // namespace

CLI::App* add_path_command(CLI::App& app, PathArgs& a) {
  CLI::App* cmd = app.add_subcommand("path", "find a path between two cells of a Moving AI .map");
  cmd->add_option("--map,-m", a.map, "Moving AI .map file")->required();
  cmd->add_option("--from", a.from, "start cell X,Y (column,row, 0-based)")->required();
  cmd->add_option("--to", a.to, "goal cell X,Y")->required();
  cmd->add_option("--diagonal", a.diagonal, diagonal_rule_help)
      ->capture_default_str();
  cmd->add_flag("--terrain", a.terrain, "treat S (swamp, cost 3) and W (water, cost 5) as passable terrain");
  cmd->add_option("--jump-table", a.jump_table, "jps-plus: use this table (from `waymark jps-table`)");
  cmd->add_option("--trace", a.trace,
                  "write the search's events to this file as JSON lines (begin, open, expand, close, goal, end)");
  add_search_options(cmd, a.search);
  cmd->add_option("--time-limit", a.search.time_limit_s, "stop the search after this many seconds (> 0; default: none)");
  cmd->add_flag("--partial", a.partial,
                "when no path is found (unreachable, --max-nodes, --time-limit), print the path to the reached "
                "cell nearest the goal");
  cmd->add_flag("--smooth", a.smooth,
                "smooth the path by line of sight under the --diagonal rule (never dearer): print its waypoints and "
                "cost (in --json: \"smoothed\"); --png/--svg draw the smoothed path (orange) over the search's (grey)");
  return cmd;
}

CLI::App* add_jps_table_command(CLI::App& app, JpsTableArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "jps-table", "precompute the JPS+ jump table of a Moving AI .map, save it, report time and memory");
  cmd->add_option("--map,-m", a.map, "Moving AI .map file")->required();
  cmd->add_option("--out,-o", a.out, "table file to write")->required();
  cmd->add_flag("--json", a.json, "machine-readable output");
  return cmd;
}

CLI::App* add_scen_command(CLI::App& app, ScenArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "scen", "run every query of Moving AI .map.scen files (8-connected, no corner cutting) and "
              "check the lengths against the printed optima");
  cmd->add_option("files", a.files, "scenario files")->required();
  cmd->add_option("--maps", a.maps_dir, "folder holding the maps (default: beside each scenario)");
  cmd->add_option("--sample-every", a.sample_every,
                  "run only query i of each file with i % N == 0 (i from 0; 1: every query)")
      ->capture_default_str();
  add_search_options(cmd, a.search);
  return cmd;
}

int run_path(const PathArgs& a) {
  return guarded([&] {
    nlohmann::json request = search_request(a.search, a.diagonal);
    request.update({{"from", a.from}, {"to", a.to}, {"terrain", a.terrain}, {"smooth", a.smooth}, {"partial", a.partial}});
    const PathQuery query = parsed_query(request, PathQueryParts::query);
    MapLoadOptions load;
    load.max_cells = checked_positive(a.search.max_cells, "--max-cells");
    if (query.terrain) load.terrain = TerrainCosts{};
    const GridMap map = load_movingai_map(a.map, load);
    if (const auto why = path_query_problem(map, query)) throw UsageError(*why);
    std::optional<JumpTable> table;
    GridPlannerOptions options = query.planner_options();
    if (!a.jump_table.empty()) {
      if (options.algorithm != Algorithm::jps_plus) throw UsageError("--jump-table goes with --algorithm jps-plus");
      options.jump_table = &table.emplace(JumpTable::load(a.jump_table, map));
    }

    const GridPlanner planner(map, options);
    const PathAnswer answer = answer_path_query(planner, query);
    if (a.search.json) {
      std::string text;
      append_path_answer_json(text, map, query, answer);
      std::cout << text << "\n";
    } else {
      print_path_answer(map, answer);
    }
    const CellId start = map.cell(query.from.x, query.from.y);
    const CellId goal = map.cell(query.to.x, query.to.y);
    replay(planner, start, goal, a.trace, {a.search.png, a.search.svg}, query.budget(),
           answer.smoothed ? &answer.smoothed->nodes : nullptr);
    return answer.status.succeeded() ? exit_ok : exit_not_found;
  });
}

int run_scen(const ScenArgs& a) {
  return guarded([&] {
    ScenarioRunOptions options;
    options.planner = planner_options(a.search, DiagonalRule::no_corner_cutting);
    options.maps_dir = a.maps_dir;
    options.map_load.max_cells = checked_positive(a.search.max_cells, "--max-cells");
    options.sample_every = checked_positive(a.sample_every, "--sample-every");
    ProgressBar bar("scen");
    if (bar.enabled()) {
      options.progress = [&bar](const ScenarioProgress& p) {
        if (!bar.due()) return;
        const double done = p.queries_total == 0 ? 0 : static_cast<double>(p.queries_done) / static_cast<double>(p.queries_total);
        bar.update(done, number_text(p.files_done) + "/" + number_text(p.files_total) + " files, " +
                             number_text(p.queries_done) + "/" + number_text(p.queries_total) + " queries");
      };
    }
    const ScenarioReport r = run_scenarios(a.files, options);
    bar.clear();
    if (a.search.json) {
      nlohmann::json mismatches = nlohmann::json::array();
      for (const auto& m : r.mismatches) {
        mismatches.push_back({{"file", m.file},
                              {"line", m.line},
                              {"start", {m.start.x, m.start.y}},
                              {"goal", {m.goal.x, m.goal.y}},
                              {"optimal", m.expected},
                              {"found", std::isnan(m.found) ? nlohmann::json(nullptr) : nlohmann::json(m.found)},
                              {"status", to_string(m.state)}});
      }
      nlohmann::json files = nlohmann::json::array();
      for (const auto& f : r.files) {
        files.push_back({{"file", f.file},
                         {"queries", f.queries},
                         {"solved", f.solved},
                         {"optimal", f.optimal},
                         {"expanded", f.expanded},
                         {"path_steps", f.path_steps},
                         {"time_s", f.time_s},
                         {"preprocess_s", f.preprocess_s},
                         {"preprocess_bytes", f.preprocess_bytes},
                         {"setup_s", f.setup_s}});
      }
      const nlohmann::json j = {{"algorithm", a.search.algorithm},
                                {"sample_every", a.sample_every},
                                {"queries", r.queries},
                                {"solved", r.solved},
                                {"optimal", r.optimal},
                                {"all_optimal", r.all_optimal()},
                                {"mismatches", mismatches},
                                {"expanded_total", r.expanded},
                                {"path_steps_total", r.path_steps},
                                {"time_total_s", r.time_s},
                                {"mean_us", r.mean_us()},
                                {"preprocess_total_s", r.preprocess_s},
                                {"preprocess_bytes_max", r.preprocess_bytes_max},
                                {"setup_total_s", r.setup_s},
                                {"files", files}};
      std::cout << j.dump() << "\n";
    } else {
      for (const auto& f : r.files) {
        const double mean = f.queries == 0 ? 0 : f.time_s * microseconds_per_second / static_cast<double>(f.queries);
        std::cout << f.file << ": " << f.queries << " queries, " << f.solved << " solved, " << f.optimal
                  << " optimal, " << f.expanded << " expanded, " << mean << " us/query\n";
      }
      std::cout << "total: " << r.queries << " queries, all optimal: " << (r.all_optimal() ? "yes" : "no")
                << " (" << r.optimal << "/" << r.queries << "), mean " << r.mean_us() << " us/query, "
                << r.expanded << " expanded";
      if (r.queries > 0) std::cout << " (" << r.expanded / r.queries << "/query)";
      std::cout << "\n";
      std::cout << "setup (planner per map, not in the query times): " << r.setup_s * 1e3 << " ms in all\n";
      if (r.preprocess_bytes_max > 0)
        std::cout << "preprocessing: " << r.preprocess_s * 1e3 << " ms in all, largest table "
                  << static_cast<double>(r.preprocess_bytes_max) / bytes_per_mib << " MiB\n";
      for (const auto& m : r.mismatches) {
        std::cout << "  not optimal: " << m.file << ":" << m.line << " (" << m.start.x << "," << m.start.y
                  << ")->(" << m.goal.x << "," << m.goal.y << ") optimal " << m.expected << ", found "
                  << m.found << " [" << to_string(m.state) << "]\n";
      }
    }
    const PictureFiles pictures{a.search.png, a.search.svg};
    if (pictures.any() && r.longest.optimal >= 0) {
      const GridMap map = load_movingai_map(r.longest.map_path);
      const GridPlanner planner(map, options.planner);
      replay(planner, map.cell(r.longest.start.x, r.longest.start.y), map.cell(r.longest.goal.x, r.longest.goal.y),
             "", pictures);
      if (!a.search.json)
        std::cout << "picture of the longest query (" << r.longest.map_path << ", length " << r.longest.optimal
                  << "): " << (pictures.png.empty() ? pictures.svg : pictures.png)
                  << (pictures.png.empty() || pictures.svg.empty() ? "" : ", " + pictures.svg) << "\n";
    }
    return r.all_optimal() ? exit_ok : exit_not_found;
  });
}

int run_jps_table(const JpsTableArgs& a) {
  return guarded([&] {
    const GridMap map = load_movingai_map(a.map);
    if (const auto why = jump_search_unsupported(map, DiagonalRule::no_corner_cutting)) throw UsageError(*why);
    const Stopwatch build;
    const JumpTable table(map);
    const double build_s = build.seconds();
    table.save(a.out);
    if (a.json) {
      std::cout << nlohmann::json{{"map", a.map},
                                  {"out", a.out},
                                  {"width", map.width()},
                                  {"height", map.height()},
                                  {"build_ms", build_s * 1e3},
                                  {"memory_bytes", table.memory_bytes()}}
                       .dump()
                << "\n";
    } else {
      std::cout << "built the JPS+ table of " << a.map << " (" << map.width() << "x" << map.height() << ") in "
                << build_s * 1e3 << " ms, " << static_cast<double>(table.memory_bytes()) / bytes_per_mib
                << " MiB, saved to " << a.out << "\n";
    }
    return exit_ok;
  });
}

}  // namespace waymark::cli
