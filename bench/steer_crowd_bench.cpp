// Crowd avoidance (issue 14): ORCA against sampled velocity obstacles, measured two ways.
//
//   waymark_bench_steer_crowd [--ticks N] [--keep-right F] [--samples S] [--vo-weight W] [--no-timing] [--no-quality]
//
// Timing: solve() per tick for 100, 1,000 and 10,000 agents placed at random (not overlapping)
// in a square sized for one agent per 5 m² (radius 0.35, max speed 3), each heading for the
// point mirrored in the square's vertical centre line: two opposing flows everywhere at once.
// Each solver runs its own simulation (dt 0.05, position += v·dt) from the same start; after
// 10 untimed ticks, N ticks (N / 5 for the sampled solver at 10,000) are timed one by one in
// CPU time of the thread; the median and mean per tick are printed, with ORCA's infeasible
// programs per tick.
//
// Quality: agents on circles swapping to the opposite point, two square blocks crossing at a
// right angle, and random squares (radius 0.35, max speed 3, dt 0.05, preferred velocity goal −
// position clipped to max speed). Per scene and solver: ticks until all are within 0.05 of
// their goals at once ("-" if not within the limit), the mean over agents of the tick each first
// came that close (the limit for those that never did), pair-ticks overlapping by more than 1 %
// of the radius, the deepest overlap as a fraction of the radius, and the smallest clearance.
// Markdown tables on stdout (docs/steering.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "waymark/steer/orca.hpp"

namespace {

using namespace waymark;
using namespace waymark::steer;

constexpr double dt = 0.05;
constexpr double radius = 0.35;
constexpr double max_speed = 3.0;
constexpr double area_per_agent = 5.0;  // m²
constexpr double arrive_distance = 0.05;

/// CPU time of this thread, seconds: on a shared machine wall-clock time also counts the others.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Args {
  std::size_t ticks = 100;
  double keep_right = OrcaParams{}.keep_right;
  std::size_t samples = SampledVoParams{}.samples;
  double vo_weight = SampledVoParams{}.collision_weight;
  bool timing = true;
  bool quality = true;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "waymark_bench_steer_crowd: %s\nusage: waymark_bench_steer_crowd [--ticks N] [--keep-right F] "
               "[--samples S] [--vo-weight W] [--no-timing] [--no-quality]\n",
               why.c_str());
  std::exit(2);
}

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> double {
      if (i + 1 >= argc) usage(arg + " needs a value");
      char* end = nullptr;
      const double v = std::strtod(argv[++i], &end);
      if (end == argv[i] || *end != '\0' || !(v >= 0)) usage(arg + " needs a number >= 0");
      return v;
    };
    if (arg == "--ticks") {
      a.ticks = std::max<std::size_t>(1, static_cast<std::size_t>(value()));
    } else if (arg == "--keep-right") {
      a.keep_right = value();
    } else if (arg == "--vo-weight") {
      a.vo_weight = value();
    } else if (arg == "--samples") {
      a.samples = std::max<std::size_t>(1, static_cast<std::size_t>(value()));
    } else if (arg == "--no-timing") {
      a.timing = false;
    } else if (arg == "--no-quality") {
      a.quality = false;
    } else {
      usage("unknown option " + arg);
    }
  }
  return a;
}

struct Scene {
  std::vector<OrcaAgent> agents;
  std::vector<Vec2> goals;
};

/// The preferred velocity: goal − position, clipped to max speed (so agents slow down over the
/// last 3 m, as RVO2's examples do).
Vec2 toward(Vec2 from, Vec2 goal) {
  const Vec2 v = goal - from;
  const double l = length(v);
  return l > max_speed ? v * (max_speed / l) : v;
}

void set_preferred(Scene& s) {
  for (std::size_t i = 0; i < s.agents.size(); ++i) s.agents[i].preferred_velocity = toward(s.agents[i].position, s.goals[i]);
}

void advance(Scene& s, const std::vector<Vec2>& v) {
  for (std::size_t i = 0; i < s.agents.size(); ++i) {
    s.agents[i].velocity = v[i];
    s.agents[i].position += v[i] * dt;
  }
}

OrcaAgent agent_at(Vec2 p) {
  return OrcaAgent{.position = p, .velocity = {}, .preferred_velocity = {}, .radius = radius, .max_speed = max_speed};
}

/// Where the agents of random_square go: to the point mirrored in the square's vertical centre
/// line (two opposing flows everywhere at once), or through its centre (all meet there).
enum class Goals { across, through_centre };

Scene random_square(std::size_t n, unsigned seed, Goals goals) {
  const double side = std::sqrt(static_cast<double>(n) * area_per_agent);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coord(0, side);
  Scene s;
  while (s.agents.size() < n) {
    const Vec2 p{coord(rng), coord(rng)};
    const auto apart = [&](const OrcaAgent& a) { return distance(a.position, p) > 2 * radius + 0.1; };
    if (!std::all_of(s.agents.begin(), s.agents.end(), apart)) continue;  // no overlaps at the start
    s.agents.push_back(agent_at(p));
    s.goals.push_back(goals == Goals::across ? Vec2{side - p.x, p.y} : Vec2{side, side} - p);
  }
  return s;
}

Scene circle(std::size_t n, double circle_radius) {
  Scene s;
  for (std::size_t i = 0; i < n; ++i) {
    const double a = 2 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(n);
    const Vec2 p{circle_radius * std::cos(a), circle_radius * std::sin(a)};
    s.agents.push_back(agent_at(p));
    s.goals.push_back(-p);
  }
  return s;
}

/// Two k × k blocks (spacing 1.5) 20 m from a crossing, one going east, one north.
Scene crossing_blocks(std::size_t k) {
  Scene s;
  const double spacing = 1.5, start = -20, travel = 40;
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      const double a = start - spacing * static_cast<double>(i);
      const double b = spacing * (static_cast<double>(j) - static_cast<double>(k - 1) / 2);
      s.agents.push_back(agent_at({a, b}));
      s.goals.push_back({a + travel, b});
      s.agents.push_back(agent_at({b, a}));
      s.goals.push_back({b, a + travel});
    }
  }
  return s;
}

template <class Solver>
void time_solver(const char* name, Solver& solver, Scene s, std::size_t ticks) {
  std::vector<Vec2> v(s.agents.size());
  constexpr std::size_t warm_up = 10;
  for (std::size_t t = 0; t < warm_up; ++t) {
    set_preferred(s);
    solver.solve(s.agents, dt, v);
    advance(s, v);
  }
  std::vector<double> us;
  double infeasible = 0;
  for (std::size_t t = 0; t < ticks; ++t) {
    set_preferred(s);
    const double start = cpu_seconds();
    const AvoidanceStatus status = solver.solve(s.agents, dt, v);
    us.push_back((cpu_seconds() - start) * 1e6);
    if (status != AvoidanceStatus::ok) usage("solve failed: " + std::string(to_string(status)));
    infeasible += static_cast<double>(solver.stats().infeasible);
    advance(s, v);
  }
  std::vector<double> sorted = us;
  std::sort(sorted.begin(), sorted.end());
  double mean = 0;
  for (const double x : us) mean += x / static_cast<double>(us.size());
  const double median = sorted[sorted.size() / 2];
  std::printf("| %s | %zu | %.0f | %.0f | %.2f | %.1f |\n", name, s.agents.size(), median, mean,
              median / static_cast<double>(s.agents.size()), infeasible / static_cast<double>(ticks));
}

struct Quality {
  std::size_t ticks = 0;
  bool arrived = false;
  double mean_first_arrival = 0;  ///< ticks until each agent first came within arrive_distance, averaged
  std::size_t collisions = 0;
  double worst_overlap = 0;
  double min_clearance = std::numeric_limits<double>::infinity();
};

template <class Solver>
Quality run(Solver& solver, Scene s, std::size_t max_ticks) {
  Quality q;
  std::vector<Vec2> v(s.agents.size());
  std::vector<std::size_t> first(s.agents.size(), max_ticks);
  for (q.ticks = 0; q.ticks < max_ticks; ++q.ticks) {
    bool all = true;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
      const bool here = distance(s.agents[i].position, s.goals[i]) <= arrive_distance;
      if (here) first[i] = std::min(first[i], q.ticks);
      all = all && here;
    }
    if (all) {
      q.arrived = true;
      break;
    }
    set_preferred(s);
    solver.solve(s.agents, dt, v);
    advance(s, v);
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
      for (std::size_t j = i + 1; j < s.agents.size(); ++j) {
        const double gap = distance(s.agents[i].position, s.agents[j].position) - 2 * radius;
        q.min_clearance = std::min(q.min_clearance, gap);
        q.worst_overlap = std::max(q.worst_overlap, -gap / radius);
        if (-gap > 0.01 * radius) ++q.collisions;
      }
    }
  }
  for (const std::size_t f : first) q.mean_first_arrival += static_cast<double>(f) / static_cast<double>(first.size());
  return q;
}

void print_quality(const char* scene, const char* name, const Quality& q) {
  char ticks[32];
  if (q.arrived) {
    std::snprintf(ticks, sizeof ticks, "%zu", q.ticks);
  } else {
    std::snprintf(ticks, sizeof ticks, "- (>%zu)", q.ticks);
  }
  std::printf("| %s | %s | %s | %.0f | %zu | %.3f | %.3f |\n", scene, name, ticks, q.mean_first_arrival, q.collisions,
              q.worst_overlap, q.min_clearance);
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  const OrcaParams orca_params{.keep_right = args.keep_right};
  const SampledVoParams vo_params{.samples = args.samples, .collision_weight = args.vo_weight};
  std::printf("ORCA keep_right %.2f; sampled VO %zu samples, collision weight %.2f; k = %zu neighbours, time horizon %.1f s\n\n",
              orca_params.keep_right, vo_params.samples, vo_params.collision_weight, orca_params.max_neighbours,
              orca_params.time_horizon);
  if (args.timing) {
    std::printf("| solver | agents | median µs/tick (CPU) | mean µs/tick | median µs/agent | infeasible/tick |\n");
    std::printf("|---|---:|---:|---:|---:|---:|\n");
    for (const std::size_t n : {100, 1000, 10000}) {
      const Scene s = random_square(n, 14, Goals::across);
      OrcaSolver orca(orca_params);
      SampledVoSolver vo(vo_params);
      time_solver("ORCA", orca, s, args.ticks);
      time_solver("sampled VO", vo, s, std::max<std::size_t>(1, n >= 10000 ? args.ticks / 5 : args.ticks));
    }
    std::printf("\n");
  }
  if (args.quality) {
    struct Case {
      const char* name;
      Scene scene;
      std::size_t max_ticks;
    };
    const std::vector<Case> cases{
        {"circle 8, r 8", circle(8, 8), 2000},
        {"circle 16, r 8", circle(16, 8), 2000},
        {"circle 24, r 8", circle(24, 8), 2000},
        {"circle 72, r 20", circle(72, 20), 3000},
        {"circle 100, r 25", circle(100, 25), 3000},
        {"crossing 2 × 64", crossing_blocks(8), 3000},
        {"random 200 through the centre", random_square(200, 3, Goals::through_centre), 3000},
        {"random 400 across", random_square(400, 5, Goals::across), 3000},
    };
    std::printf("| scene | solver | ticks to all arrive | mean ticks to arrive | collisions (pair-ticks) | worst overlap / r | min clearance |\n");
    std::printf("|---|---|---:|---:|---:|---:|---:|\n");
    for (const Case& c : cases) {
      OrcaSolver orca(orca_params);
      SampledVoSolver vo(vo_params);
      print_quality(c.name, "ORCA", run(orca, c.scene, c.max_ticks));
      print_quality(c.name, "sampled VO", run(vo, c.scene, c.max_ticks));
    }
  }
  return 0;
}
