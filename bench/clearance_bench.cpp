// Clearance for agents of several sizes (issue 30; docs/clearance.md): how long building a
// grid::ClearanceMap takes for caps of 1, 2 and 4 cells, and how long keeping it (and a
// SizeClassMap and a GridPlanner on it) current takes after a door edit: a 1×3 rectangle of
// passable cells blocked, synced, opened again, synced.
//
// Usage: waymark_bench_clearance [MAP [doors]]. MAP defaults to the bundled den520d; docs use
// a 512 × 512 Moving AI map. A Markdown table on stdout; medians (the machine may be shared).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "waymark/grid/clearance.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"

namespace {

using namespace waymark;
using namespace waymark::grid;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

double fastest(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end()); }

double us_since(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }

/// Doors: 1×3 rectangles (upright or lying) of passable cells, at random.
std::vector<CellRect> pick_doors(const GridMap& map, int count, std::mt19937& rng) {
  std::uniform_int_distribution<int> x(0, map.width() - 3), y(0, map.height() - 3);
  std::vector<CellRect> doors;
  while (static_cast<int>(doors.size()) < count) {
    const int x0 = x(rng), y0 = y(rng);
    const CellRect d = doors.size() % 2 == 0 ? CellRect{x0, y0, x0 + 1, y0 + 3} : CellRect{x0, y0, x0 + 3, y0 + 1};
    bool open = true;
    for (int yy = d.y0; yy < d.y1; ++yy)
      for (int xx = d.x0; xx < d.x1; ++xx) open = open && map.passable(xx, yy);
    if (open) doors.push_back(d);
  }
  return doors;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : std::string(WAYMARK_DATA_DIR) + "/maps/den520d.map";
  const int door_count = argc > 2 ? std::stoi(argv[2]) : 200;
  GridMap map = io::load_movingai_map(path);
  std::printf("map %s: %d x %d, %zu passable cells; %d doors\n\n", path.c_str(), map.width(), map.height(),
              map.passable_count(), door_count);
  {
    // The first build in a process also pays for fresh pages (and teaches malloc to keep
    // blocks this size), so it is reported apart and the table's builds come after it.
    const auto t0 = Clock::now();
    const ClearanceMap first(map, {.max_clearance = 1.0});
    std::printf("first build in the process (cap 1 cell): %.2f ms\n\n", us_since(t0) / 1000);
  }
  std::printf("| cap (cells) | build ClearanceMap (ms): median, fastest | SizeClassMap r = cap (ms) | door sync: clearance (µs) | + size class (µs) | + planner (µs) | cells recomputed per sync |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  // Two rounds, the first not printed: which cap came first changed its build time by 50%.
  for (int round = 0; round < 2; ++round) for (const double cap : {1.0, 2.0, 4.0}) {
    std::vector<double> build_ms, sized_ms;
    for (int i = 0; i < 41; ++i) {  // the first 10 warm up (the allocator, the caches)
      const auto t0 = Clock::now();
      ClearanceMap c(map, {.max_clearance = cap});
      const double build = us_since(t0) / 1000;
      const auto t1 = Clock::now();
      const SizeClassMap s(c, cap);
      if (i < 10) continue;
      build_ms.push_back(build);
      sized_ms.push_back(us_since(t1) / 1000);
    }
    ClearanceMap clearance(map, {.max_clearance = cap});
    SizeClassMap sized(clearance, cap);
    GridPlanner planner(sized.map());
    std::mt19937 rng(7);
    const std::vector<CellRect> doors = pick_doors(map, door_count, rng);
    std::vector<double> clear_us, sized_us, planner_us;
    double recomputed = 0;
    for (int pass = 0; pass < 2; ++pass) {  // the first pass warms up (change logs, caches)
      for (const CellRect& d : doors) {
        for (const bool close : {true, false}) {
          map.set_passable(d, !close);
          const auto t0 = Clock::now();
          const ClearanceSync cs = clearance.sync();
          const double a = us_since(t0);
          sized.sync();
          const double b = us_since(t0);
          planner.sync();
          const double p = us_since(t0);
          if (pass == 0) continue;
          clear_us.push_back(a);
          sized_us.push_back(b);
          planner_us.push_back(p);
          recomputed += static_cast<double>(cs.recomputed_cells);
        }
      }
    }
    if (round == 0) continue;
    std::printf("| %.0f | %.2f, %.2f | %.2f | %.2f | %.2f | %.2f | %.0f |\n", cap, median(build_ms), fastest(build_ms), median(sized_ms),
                median(clear_us), median(sized_us), median(planner_us), recomputed / static_cast<double>(clear_us.size()));
  }
  return 0;
}
