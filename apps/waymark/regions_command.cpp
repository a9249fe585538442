#include "regions_command.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <vector>

#include "waymark/core/stopwatch.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/seeds.hpp"
#include "waymark/regions/coarse_fine.hpp"
#include "waymark/regions/labeling.hpp"
#include "waymark/render/grid_png.hpp"

namespace waymark::cli {

using namespace regions;  // NOLINT: this file is the regions command
namespace {

/// Relative slack when comparing a coarse-then-fine cost with A*'s (sums in another order).
constexpr double cost_tolerance = 1e-9;

/// Coarse-then-fine against A* over every query of a scenario (on the map given, not the one
/// the scenario names).
struct PlanComparison {
  std::size_t queries = 0;
  std::size_t solved = 0;          ///< by A*
  std::size_t both_solved = 0;
  std::size_t missed = 0;          ///< A* found a path, coarse-then-fine did not (a bug)
  std::size_t cheaper = 0;         ///< coarse-then-fine cheaper than A* (a bug)
  std::size_t optimal = 0;         ///< coarse-then-fine as cheap as A*
  std::size_t fallbacks = 0;
  std::uint64_t astar_expanded = 0;
  std::uint64_t coarse_fine_expanded = 0;  ///< coarse regions + fine cells
  double cost_ratio_sum = 0;
  double cost_ratio_max = 1;

  [[nodiscard]] nlohmann::ordered_json json() const {
    const double n = both_solved == 0 ? 1.0 : static_cast<double>(both_solved);
    return {{"queries", queries},
            {"solved", solved},
            {"both_solved", both_solved},
            {"missed", missed},
            {"cheaper_than_astar", cheaper},
            {"optimal", optimal},
            {"fallbacks", fallbacks},
            {"astar_expanded", astar_expanded},
            {"coarse_fine_expanded", coarse_fine_expanded},
            {"expanded_ratio", astar_expanded == 0 ? 0.0
                                                   : static_cast<double>(coarse_fine_expanded) /
                                                         static_cast<double>(astar_expanded)},
            {"cost_ratio_mean", both_solved == 0 ? 1.0 : cost_ratio_sum / n},
            {"cost_ratio_max", cost_ratio_max}};
  }
};

PlanComparison compare_plans(const grid::GridMap& map, const std::string& map_file, const Regions& regions,
                             grid::DiagonalRule rule, const std::string& scen_file, unsigned margin) {
  const io::Scenario scen = io::load_movingai_scenario(scen_file);
  grid::GridPlannerOptions astar;
  astar.diagonal = rule;
  grid::GridPlanner planner(map, astar);
  search::SearchHandle<CellId> planner_search = planner.make_search();
  CoarseFinePlanner coarse_fine(map, regions, {.diagonal = rule, .corridor_margin = margin});
  PlanComparison c;
  for (const io::ScenarioQuery& q : scen.queries) {
    io::validate_query(scen, q, map, map_file);
    const CellId s = map.cell(q.start.x, q.start.y), g = map.cell(q.goal.x, q.goal.y);
    ++c.queries;
    const bool a = planner_search.run(s, g).succeeded();
    const bool b = coarse_fine.plan(s, g).succeeded();
    c.astar_expanded += planner_search.stats().expanded;
    c.coarse_fine_expanded += coarse_fine.stats().coarse_expanded + coarse_fine.stats().fine_expanded;
    c.fallbacks += coarse_fine.stats().fallback ? 1 : 0;
    c.solved += a ? 1 : 0;
    if (a && !b) ++c.missed;
    if (!a || !b) continue;
    ++c.both_solved;
    const double best = planner_search.path().cost, found = coarse_fine.path().cost;
    const double slack = cost_tolerance * std::max(1.0, best);
    if (found < best - slack) ++c.cheaper;
    if (found <= best + slack) ++c.optimal;
    const double ratio = best > 0 ? found / best : 1.0;
    c.cost_ratio_sum += ratio;
    c.cost_ratio_max = std::max(c.cost_ratio_max, ratio);
  }
  return c;
}

}  // namespace

CLI::App* add_regions_command(CLI::App& app, RegionsArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "regions", "Dirichlet regions of a Moving AI .map from seed cells: sizes, adjacency, a picture, and "
                 "coarse-then-fine planning measured against A*");
  cmd->add_option("--map,-m", a.map, "Moving AI .map file")->required();
  cmd->add_option("--seeds", a.seeds, "seed cells \"X,Y;X,Y;...\" (column,row, 0-based); seed i is region i");
  cmd->add_option("--seeds-file", a.seeds_file, "file of seed cells, one 'X Y' or 'X,Y' per line, # comments");
  cmd->add_flag("--geodesic", a.geodesic,
                "label each cell with the seed nearest by path cost (default: nearest in a straight line)");
  cmd->add_option("--diagonal", a.diagonal, diagonal_rule_help)
      ->capture_default_str();
  cmd->add_flag("--json", a.json, "machine-readable output");
  cmd->add_option("--png", a.png, "write a region map (a colour per region, walls black, seeds white) to this PNG");
  cmd->add_option("--svg", a.svg, "write the --png region map as SVG to this file");
  cmd->add_option("--scen", a.scen,
                  "run every query of this Moving AI scenario with coarse-then-fine planning and with A*, and "
                  "report expansions and cost ratios");
  cmd->add_option("--corridor-margin", a.corridor_margin,
                  "--scen: rings of neighbouring regions added around the coarse corridor")
      ->capture_default_str();
  cmd->add_option("--max-cells", a.max_cells, "refuse maps with more cells than this (width x height)")
      ->capture_default_str();
  return cmd;
}

int run_regions(const RegionsArgs& a) {
  return guarded([&] {
    const grid::DiagonalRule rule = diagonal_rule_arg(a.diagonal);
    if (a.seeds.empty() == a.seeds_file.empty())
      throw UsageError("give either --seeds \"X,Y;X,Y;...\" or --seeds-file FILE");
    const auto margin = static_cast<unsigned>(
        checked_count(a.corridor_margin, 0, max_corridor_margin, "--corridor-margin"));
    io::MapLoadOptions load;
    load.max_cells = checked_positive(a.max_cells, "--max-cells");
    const grid::GridMap map = io::load_movingai_map(a.map, load);
    const io::SeedList seeds = a.seeds_file.empty() ? io::parse_seed_text(a.seeds, "--seeds")
                                                    : io::load_seed_file(a.seeds_file);
    const std::vector<grid::CellCoord> cells = seeds.cells();
    if (const auto problem = find_seed_problem(map, cells)) throw seeds.error(problem->index, problem->reason);

    const Stopwatch watch;
    const Regions regions =
        label_grid(map, cells, {.diagonal = rule, .metric = a.geodesic ? Metric::geodesic : Metric::euclidean});
    const double ms = watch.seconds() * milliseconds_per_second;

    std::optional<PlanComparison> plans;
    if (!a.scen.empty()) plans = compare_plans(map, a.map, regions, rule, a.scen, margin);
    if (!a.png.empty() || !a.svg.empty()) {
      std::vector<CellId> seed_cells;
      for (const std::uint32_t s : regions.seeds()) seed_cells.push_back(CellId{s});
      static_assert(render::no_label == no_region);
      write_pictures(a.png, a.svg, [&](const std::string& file, render::PictureFormat format) {
        return render::write_region_picture(map, regions.labels(), seed_cells, file, {}, format);
      });
    }

    nlohmann::ordered_json adjacency = nlohmann::ordered_json::array();
    for (const RegionBorder& b : regions.borders()) adjacency.push_back({b.a, b.b});
    const std::span<const std::uint32_t> sizes = regions.sizes();
    if (a.json) {
      nlohmann::ordered_json j{{"regions", regions.region_count()},
                               {"metric", a.geodesic ? "geodesic" : "euclidean"},
                               {"cells", std::vector<std::uint32_t>(sizes.begin(), sizes.end())},
                               {"unreached", regions.unreached()},
                               {"adjacency", adjacency},
                               {"ms", ms}};
      if (plans) j["plan"] = plans->json();
      std::cout << j.dump() << "\n";
    } else {
      std::cout << regions.region_count() << " " << (a.geodesic ? "geodesic" : "euclidean") << " regions of "
                << a.map << " in " << ms << " ms, " << regions.unreached() << " passable cells in none\n";
      for (RegionId r = 0; r < regions.region_count(); ++r) {
        const grid::CellCoord c = map.coord(CellId{regions.seed(r)});
        std::cout << "  region " << r << " seed (" << c.x << "," << c.y << "): " << sizes[r] << " cells, touches";
        for (const VertexId n : regions.adjacency().targets(VertexId{r})) std::cout << " " << n.value;
        std::cout << "\n";
      }
      if (plans) std::cout << "coarse-then-fine against A* on " << a.scen << ": " << plans->json().dump() << "\n";
    }
    const bool plans_ok = !plans || (plans->missed == 0 && plans->cheaper == 0);
    return regions.unreached() == 0 && plans_ok ? exit_ok : exit_not_found;
  });
}

}  // namespace waymark::cli
