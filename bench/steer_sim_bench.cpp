// Simulation tick time (issues 14 and 30): N agents on a Moving AI map, each with a random start
// and goal, following a planned path, avoiding walls (rays) and each other (ORCA). Prints one
// JSON object per agent count and mode:
//   {"map":…,"agents":n,"mode":"static"|"live","planning_rounds":r,"planning_ms":…,
//    "measured_ticks":m,"tick_us_mean":…,"tick_us_p50":…,"tick_us_p99":…,"arrived":k,
//    "collisions":c,"min_clearance":…,"orders":o,"edits":e,"edit_replans":p,"pushed_out":q}
// "live" is a game's stream of orders and edits between the timed ticks: every tick 0.5 % of
// the agents (at least one) get a new goal, and every 20 ticks a door — a 1 × 3 run of free
// cells drawn with the seed — closes, opening again 20 ticks later.
//
//   waymark_bench_steer [--agents 100,1000,10000] [--ticks T] [--seed S] [--goal-range R] FILE.map
//
// Agents start on distinct free cell centres drawn with the seed, each with a goal on a free
// cell at most R cells away in x and y (default 40; distinct goals), as units moving about a
// level rather than all across it. Every path
// is planned first through the request queue (plan_pending, timed apart as planning_ms), then,
// after five ticks of warm-up, `ticks` ticks of 50 ms are timed one by one: path following, avoidance and collision
// handling, with arrivals as they come.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "waymark/io/movingai.hpp"
#include "waymark/steer/simulation.hpp"

namespace {

using namespace waymark;

struct Args {
  std::vector<std::size_t> agents{100, 1000, 10000};
  std::size_t ticks = 200;
  std::uint64_t seed = 1;
  int goal_range = 40;
  std::string map;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "waymark_bench_steer: " << why
            << "\nusage: waymark_bench_steer [--agents N,N,...] [--ticks T] [--seed S] [--goal-range R] FILE.map\n";
  std::exit(2);
}

std::size_t positive(const std::string& text, const std::string& option) {
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || v < 1) usage(option + " must be a positive integer");
  return static_cast<std::size_t>(v);
}

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--agents") {
      a.agents.clear();
      std::stringstream list(value());
      for (std::string item; std::getline(list, item, ',');) a.agents.push_back(positive(item, "--agents"));
    } else if (arg == "--ticks") {
      a.ticks = positive(value(), "--ticks");
    } else if (arg == "--goal-range") {
      a.goal_range = static_cast<int>(positive(value(), "--goal-range"));
    } else if (arg == "--seed") {
      a.seed = positive(value(), "--seed");
    } else if (!arg.empty() && arg[0] == '-') {
      usage("unknown option " + arg);
    } else {
      a.map = arg;
    }
  }
  if (a.map.empty()) usage("a map is required");
  return a;
}

/// `n` distinct free cell centres in a shuffled order (centres of distinct cells are at least
/// one unit apart: more than two default radii).
std::vector<Vec2> spread_points(const grid::GridMap& map, std::size_t n, steer::Random& random) {
  std::vector<CellId> cells;
  for (std::uint32_t c = 0; c < map.cell_count(); ++c) {
    if (map.passable(CellId{c})) cells.push_back(CellId{c});
  }
  for (std::size_t i = cells.size(); i > 1; --i) std::swap(cells[i - 1], cells[random.next() % i]);
  std::vector<Vec2> out;
  for (std::size_t i = 0; i < std::min(n, cells.size()); ++i) out.push_back(map.cell_center(cells[i]));
  return out;
}

/// Each cell's connected component (4-neighbours; blocked cells 0).
std::vector<std::uint32_t> components(const grid::GridMap& map) {
  std::vector<std::uint32_t> label(map.cell_count(), 0);
  std::vector<grid::CellCoord> stack;
  std::uint32_t next = 0;
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      if (!map.passable(x, y) || label[map.cell(x, y).value] != 0) continue;
      label[map.cell(x, y).value] = ++next;
      stack.push_back({x, y});
      while (!stack.empty()) {
        const grid::CellCoord c = stack.back();
        stack.pop_back();
        for (const auto& [dx, dy] : {std::pair{1, 0}, std::pair{-1, 0}, std::pair{0, 1}, std::pair{0, -1}}) {
          const int nx = c.x + dx, ny = c.y + dy;
          if (!map.passable(nx, ny) || label[map.cell(nx, ny).value] != 0) continue;
          label[map.cell(nx, ny).value] = next;
          stack.push_back({nx, ny});
        }
      }
    }
  }
  return label;
}

/// A goal for each start: a free cell centre in the start's component within `range` cells in
/// x and y (drawn up to a few hundred times), no two goals the same cell; the start's own cell
/// when none is found.
std::vector<Vec2> goals_near(const grid::GridMap& map, const std::vector<Vec2>& starts, int range, steer::Random& random) {
  const std::vector<std::uint32_t> label = components(map);
  std::vector<std::uint8_t> taken(map.cell_count(), 0);
  std::vector<Vec2> goals;
  for (const Vec2 s : starts) {
    const auto sx = static_cast<int>(s.x), sy = static_cast<int>(s.y);
    Vec2 goal = s;
    for (int attempt = 0; attempt < 400; ++attempt) {
      const int x = sx + static_cast<int>(random.next() % static_cast<std::uint64_t>(2 * range + 1)) - range;
      const int y = sy + static_cast<int>(random.next() % static_cast<std::uint64_t>(2 * range + 1)) - range;
      if (!map.passable(x, y) || taken[map.cell(x, y).value] != 0 ||
          label[map.cell(x, y).value] != label[map.cell(sx, sy).value]) {
        continue;
      }
      taken[map.cell(x, y).value] = 1;
      goal = map.cell_center({x, y});
      break;
    }
    goals.push_back(goal);
  }
  return goals;
}

/// One run of `n` agents, static or live; prints its JSON line. False when the map has too
/// little room.
bool run(const grid::GridMap& map, const Args& args, std::size_t n, bool live) {
  steer::Random random(args.seed);
  const steer::AgentParams params;
  const std::vector<Vec2> starts = spread_points(map, n, random);
  if (starts.size() < n) {
    std::cerr << "waymark_bench_steer: " << args.map << " has room for only " << starts.size() << " agents\n";
    return false;
  }
  const std::vector<Vec2> goals = goals_near(map, starts, args.goal_range, random);
  // Live mode's new goals: near each start as well, and the doors it closes.
  const std::vector<Vec2> new_goals = goals_near(map, starts, args.goal_range, random);
  const std::vector<Vec2> doors = spread_points(map, 64, random);
  steer::SimulationParams sim_params;
  sim_params.seed = args.seed;
  sim_params.queue.max_requests = std::max<std::size_t>(n, 1);
  steer::Simulation sim(map, sim_params);
  for (std::size_t i = 0; i < n; ++i) sim.add_agent(params, starts[i], goals[i]);

  constexpr double dt = 0.05;
  const auto planning_started = std::chrono::steady_clock::now();
  std::size_t planning_rounds = 0;
  // Every path planned before the first step (the queue's pool runs max_searches at a
  // time, so this takes a few rounds).
  while (sim.plan_pending() > 0 && planning_rounds < 100'000) ++planning_rounds;
  const double planning_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - planning_started).count();

  // Five ticks of warm-up: the solvers' and hashes' scratch grows on the first.
  for (int t = 0; t < 5; ++t) sim.step(dt);
  std::vector<double> ticks_us;
  std::uint64_t orders = 0;
  grid::CellRect door{};
  bool door_closed = false;
  for (std::size_t t = 0; t < args.ticks; ++t) {
    if (live) {
      const std::size_t per_tick = std::max<std::size_t>(1, n / 200);
      for (std::size_t k = 0; k < per_tick; ++k) {
        const std::size_t i = static_cast<std::size_t>(random.next() % n);
        orders += sim.set_goal(steer::AgentId{static_cast<std::uint32_t>(i)}, (orders % 2 == 0 ? new_goals : goals)[i]) ? 1 : 0;
      }
      if (t % 20 == 0) {
        grid::GridMap& edit = *sim.edit_map();
        if (door_closed) {
          edit.set_passable(door, true);
        } else {
          const auto c = edit.world_to_cell(doors[(t / 40) % doors.size()]);
          door = grid::CellRect{c->x, c->y, c->x + 3, c->y + 1};
          edit.set_passable(door, false);
        }
        door_closed = !door_closed;
      }
    }
    const auto started = std::chrono::steady_clock::now();
    sim.step(dt);
    ticks_us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count());
  }
  std::vector<double> sorted = ticks_us;
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (const double t : ticks_us) sum += t;
  const steer::SimulationStats& s = sim.stats();
  nlohmann::ordered_json out;
  out["map"] = args.map;
  out["agents"] = n;
  out["mode"] = live ? "live" : "static";
  out["planning_rounds"] = planning_rounds;
  out["planning_ms"] = planning_ms;
  out["measured_ticks"] = ticks_us.size();
  out["tick_us_mean"] = sum / static_cast<double>(ticks_us.size());
  out["tick_us_p50"] = sorted[sorted.size() / 2];
  out["tick_us_p99"] = sorted[std::min(sorted.size() - 1, sorted.size() * 99 / 100)];
  out["arrived"] = s.arrived;
  out["collisions"] = s.collisions;
  out["min_clearance"] = s.min_clearance;
  out["failed_plans"] = s.failed_plans;
  out["orders"] = orders;
  out["edits"] = s.edits;
  out["edit_replans"] = s.edit_replans;
  out["pushed_out"] = s.pushed_out;
  std::cout << out.dump() << std::endl;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  const grid::GridMap map = io::load_movingai_map(args.map);
  for (const std::size_t n : args.agents) {
    for (const bool live : {false, true}) {
      if (!run(map, args, n, live)) return 2;
    }
  }
  return 0;
}
