// Re-planning after edits: D* Lite (DStarLite::replan) against A* from scratch (GridPlanner
// sync + plan) on the same edited map, side by side in one process.
//
// For each map, long scenario queries (the last buckets of its .scen). Per query the agent
// first walks along its path, one re-plan per step with no edits (the "walk" rows); then, for
// edit batches of k cells (1, 10, 100), a blob of k passable cells is blocked around a point
// of the current path near the agent, at its middle, near the goal, or k scattered cells far
// from the path, and opened again afterwards: each edit is one re-plan for both. Every D* Lite
// cost is checked against A*'s.
//
// Usage: waymark_bench_replan [MAP_DIR [queries-per-map]]. MAP_DIR defaults to the Moving AI
// dao set when present, else the bundled data/maps. JSON on stdout, a Markdown table on stderr.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "support/cell_blob.hpp"
#include "waymark/grid/dstar_lite.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"

namespace {

using namespace waymark;
using namespace waymark::grid;
using Clock = std::chrono::steady_clock;

/// Maps used from the dao set (mixed sizes and kinds: rooms, caves, open areas).
const std::vector<std::string> dao_maps{"den520d", "brc202d", "ost002d", "lak303d", "orz900d", "hrt002d"};
const std::vector<std::string> bundled_maps{"den520d", "arena", "Boston_0_256"};

constexpr int walk_steps = 10;              ///< re-plans in the walk rows
constexpr int far_distance = 20;            ///< "far" cells are at least this many cells from the path
constexpr std::array<int, 3> batch_sizes{1, 10, 100};
constexpr std::array<double, 3> anchors{0.15, 0.5, 0.9};  ///< where on the path a blob goes (agent .. goal)

struct Sample {
  std::vector<double> dstar_us, astar_us;
  double dstar_expanded = 0, astar_expanded = 0;
  int count = 0;
  int wins = 0;  ///< D* Lite faster
  void add(double du, double au, std::uint64_t de, std::uint64_t ae) {
    dstar_us.push_back(du);
    astar_us.push_back(au);
    dstar_expanded += static_cast<double>(de);
    astar_expanded += static_cast<double>(ae);
    ++count;
    wins += du < au ? 1 : 0;
  }
};

/// Medians: the machine may be shared, and a mean follows its worst moments.
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0 : n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Bench {
  std::map<std::string, Sample> rows;  ///< by case name
  std::vector<std::string> order;
  int cost_mismatches = 0;
  int measured = 0;
  Sample& row(const std::string& name) {
    if (!rows.count(name)) order.push_back(name);
    return rows[name];
  }
};

double micros(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

/// One re-plan of both on the map as it is now; adds it to `row`.
void measure(Bench& b, const std::string& row, DStarLite& d, GridPlanner& planner, search::SearchHandle<CellId>& astar,
             CellId agent, CellId goal) {
  auto t0 = Clock::now();
  d.move_start(agent);
  const Status ds = d.replan();
  auto t1 = Clock::now();
  if (planner.stale()) planner.sync();
  const Status as = astar.run(agent, goal);
  auto t2 = Clock::now();
  ++b.measured;
  if (ds.succeeded() != as.succeeded() ||
      (ds.succeeded() && std::abs(d.path().cost - astar.path().cost) > 1e-9 * std::max(1.0, astar.path().cost)))
  {
    ++b.cost_mismatches;
    std::fprintf(stderr, "mismatch in %s: D* Lite %s %.9f (restarts %llu), A* %s %.9f\n", row.c_str(),
                 describe(ds).c_str(), d.path().cost, static_cast<unsigned long long>(d.restarts()),
                 describe(as).c_str(), astar.path().cost);
  }
  b.row(row).add(micros(t1 - t0), micros(t2 - t1), d.stats().expanded, astar.stats().expanded);
}

/// k passable cells at least far_distance from every cell of `path`.
std::vector<CellCoord> far_cells(const GridMap& map, const std::vector<CellId>& path, int k, std::mt19937& rng) {
  std::vector<std::uint8_t> near(map.cell_count(), 0);
  for (const CellId c : path) {
    const CellCoord p = map.coord(c);
    const CellRect r = CellRect::cell(p.x, p.y).grown(far_distance).clipped(map.width(), map.height());
    for (int y = r.y0; y < r.y1; ++y) std::fill_n(near.begin() + map.cell(r.x0, y).value, r.x1 - r.x0, 1);
  }
  std::vector<CellCoord> out;
  std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(map.cell_count() - 1));
  for (int tries = 0; static_cast<int>(out.size()) < k && tries < 1000000; ++tries) {
    const CellId c{pick(rng)};
    if (!near[c.value] && map.passable(c)) {
      out.push_back(map.coord(c));
      near[c.value] = 1;
    }
  }
  return out;
}

void set_all(GridMap& map, const std::vector<CellCoord>& cells, bool passable) {
  for (const CellCoord c : cells) map.set_passable(c.x, c.y, passable);
}

void run_query(Bench& b, GridMap& map, CellId start, CellId goal, std::mt19937& rng) {
  DStarLite d(map);
  GridPlanner astar(map);
  search::SearchHandle<CellId> astar_search = astar.make_search();
  {
    auto t0 = Clock::now();
    const Status ds = d.plan(start, goal);
    auto t1 = Clock::now();
    const Status as = astar_search.run(start, goal);
    auto t2 = Clock::now();
    if (!ds.succeeded() || !as.succeeded()) return;
    b.row("first plan (cold)").add(micros(t1 - t0), micros(t2 - t1), d.stats().expanded, astar_search.stats().expanded);
  }
  {
    // Again, warm: what a goal move costs D* Lite (its search is rooted at the goal).
    auto t0 = Clock::now();
    d.plan(start, goal);
    auto t1 = Clock::now();
    astar_search.run(start, goal);
    auto t2 = Clock::now();
    b.row("new goal (plan again, warm)").add(micros(t1 - t0), micros(t2 - t1), d.stats().expanded, astar_search.stats().expanded);
  }
  // The agent walks: a re-plan per step, nothing edited.
  CellId agent = start;
  for (int s = 0; s < walk_steps && d.path().nodes.size() > 1; ++s) {
    agent = d.path().nodes[1];
    measure(b, "walk (no edit)", d, astar, astar_search, agent, goal);
  }
  for (const int k : batch_sizes) {
    for (const double at : anchors) {
      if (!d.status().succeeded()) break;
      const std::vector<CellId>& path = d.path().nodes;
      const CellCoord centre = map.coord(path[static_cast<std::size_t>(at * static_cast<double>(path.size() - 1))]);
      const std::vector<CellCoord> cells = test::blob(map, centre, k, agent, goal);
      const std::string where = at < 0.3 ? "near agent" : at < 0.7 ? "mid path" : "near goal";
      set_all(map, cells, false);
      measure(b, "block " + where + " k=" + std::to_string(k), d, astar, astar_search, agent, goal);
      set_all(map, cells, true);
      measure(b, "reopen " + where + " k=" + std::to_string(k), d, astar, astar_search, agent, goal);
    }
    if (!d.status().succeeded()) break;
    const std::vector<CellCoord> cells = far_cells(map, d.path().nodes, k, rng);
    set_all(map, cells, false);
    measure(b, "block far k=" + std::to_string(k), d, astar, astar_search, agent, goal);
    set_all(map, cells, true);
    measure(b, "reopen far k=" + std::to_string(k), d, astar, astar_search, agent, goal);
  }
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::string dir = argc > 1 ? argv[1] : "";
  const int per_map = argc > 2 ? std::max(1, std::atoi(argv[2])) : 10;
  const std::string dao = "../shared/data/movingai/dao";
  if (dir.empty()) dir = fs::is_directory(dao) ? dao : std::string(WAYMARK_DATA_DIR) + "/maps";
  const bool is_dao = fs::exists(dir + "/brc202d.map");
  Bench b;
  std::vector<std::string> used;
  std::mt19937 rng(13);
  for (const std::string& name : is_dao ? dao_maps : bundled_maps) {
    const std::string map_path = dir + "/" + name + ".map";
    if (!fs::exists(map_path) || !fs::exists(map_path + ".scen")) continue;
    used.push_back(name);
    GridMap map = io::load_movingai_map(map_path);
    const io::Scenario scen = io::load_movingai_scenario(map_path + ".scen");
    // The longest queries: the last per_map lines (the files are sorted by bucket).
    const std::size_t n = scen.queries.size();
    for (std::size_t i = n - std::min<std::size_t>(n, static_cast<std::size_t>(per_map)); i < n; ++i) {
      const io::ScenarioQuery& q = scen.queries[i];
      run_query(b, map, map.cell(q.start.x, q.start.y), map.cell(q.goal.x, q.goal.y), rng);
    }
  }
  std::printf("{\"maps\":[");
  for (std::size_t i = 0; i < used.size(); ++i) std::printf("%s\"%s\"", i ? "," : "", used[i].c_str());
  std::printf("],\"queries_per_map\":%d,\"replans\":%d,\"cost_mismatches\":%d,\"rows\":[\n", per_map, b.measured,
              b.cost_mismatches);
  std::fprintf(stderr, "maps: %zu from %s; D* Lite cost != A* cost in %d of %d re-plans\n\n", used.size(),
               dir.c_str(), b.cost_mismatches, b.measured);
  std::fprintf(stderr, "| case | n | D* Lite µs (median) | A* µs (median) | A* / D* Lite | D* Lite faster in | D* Lite expanded (mean) | A* expanded (mean) |\n");
  std::fprintf(stderr, "|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (std::size_t i = 0; i < b.order.size(); ++i) {
    const Sample& s = b.rows[b.order[i]];
    const double n = s.count;
    const double du = median(s.dstar_us), au = median(s.astar_us);
    std::printf("%s{\"case\":\"%s\",\"n\":%d,\"dstar_median_us\":%.1f,\"astar_median_us\":%.1f,"
                "\"dstar_mean_expanded\":%.0f,\"astar_mean_expanded\":%.0f,\"dstar_faster\":%d}",
                i ? ",\n" : "", b.order[i].c_str(), s.count, du, au, s.dstar_expanded / n, s.astar_expanded / n, s.wins);
    std::fprintf(stderr, "| %s | %d | %.1f | %.1f | %.2f | %d%% | %.0f | %.0f |\n", b.order[i].c_str(), s.count, du, au,
                 au / std::max(du, 1e-9), static_cast<int>(std::lround(100.0 * s.wins / n)), s.dstar_expanded / n,
                 s.astar_expanded / n);
  }
  std::printf("\n]}\n");
  return b.cost_mismatches == 0 ? 0 : 1;
}
