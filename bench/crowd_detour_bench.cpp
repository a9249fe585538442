// Crowds on a navmesh, side by side with Detour's dtCrowd (issue 14): the same agents on the
// same Recast polygons, the same steps, time per tick and quality. Prints one JSON object per
// agent count:
//   {"map":…,"agents":n,"ticks":t,"dt":0.05,"repeats":r,"avoidance":"medium",
//    "scene":{"cell_size":…,"recast_ms":…,"polygons":…,"free_cells":…,"cells_on_mesh":…,
//             "grid_components":…,"mesh_islands":…,"split_neighbours":…},
//    "detour":{"warmup_updates":…,"warmup_ms":…,"tick_us_mean":…,"tick_us_p50":…,"tick_us_p99":…,
//              "arrived":…,"overlaps":…,"min_clearance":…,"off_mesh":…,…},
//    "waymark":{…},"ratio_mean":waymark/detour}
//
//   waymark_bench_crowd_detour [--agents N,N,...] [--ticks T] [--repeat R] [--seed S]
//                              [--avoidance low|medium|good|high] [--cell-size CS]
//                              [--warmup-dt DT] [FILE.map]
//
// The level: every free cell of a Moving AI map (default data/maps/den520d.map) is a floor
// quad (y = 0, one unit square), and every side a free cell shares with a blocked cell (or the
// map's edge) a 3-unit wall, sides only, set half a voxel into the blocked cell so it
// rasterises into the blocked cell's voxels alone. Without the walls a floor's edge is a drop,
// which Recast's ledge filter eats one more voxel of before eroding. Two vertices no triangle
// uses pin Recast's bounds to whole cells, so voxels line up with the map's cells. Recast builds
// it once (agent radius 0.35, height 2, climb 0.5, cell size 0.125: an erosion of 3 voxels,
// 0.375, leaves a one-cell corridor 2 voxels wide); Detour gets the polygons as
// tests/support/detour_reference.hpp builds them, waymark through recast::to_nav_mesh. "scene"
// says whether erosion kept the map's connectivity: free cells whose centre is on the mesh, the
// 4-connected components they form against the mesh islands they fall in, and 4-neighbour
// cells that landed on different islands.
//
// Defaults: 1,000 agents, 200 ticks, 2 repeats, seed 1, RecastDemo's "medium" avoidance.
// --orders: before each timed tick 0.5 % of the agents get a new goal (another agent's), the same
// on both sides (dtCrowd: requestMoveTarget; waymark: set_goal); arrivals then count the
// first goals only. --waymark-only skips dtCrowd (10,000 agents: its warm-up takes minutes).
//
// Agents start and end on distinct free cell centres drawn with the seed (centres on the mesh
// only; each goal reachable from its start, checked with Detour's findPath), the same points
// for both sides. Detour: dtCrowd with RecastDemo's crowd tool settings (obstacle avoidance
// preset, anticipate turns, optimise visibility and topology; separation on, weight 2, which
// the tool offers but leaves off by default), max
// acceleration 12 (waymark's max_force / mass), speed 3; the crowd's path queue (8 agents and
// 100 search iterations per update) is warmed up by update(warmup_dt) until every agent has a
// path, with a tiny warmup_dt (1e-6 s by default) so the agents are still at their starts when
// the timed ticks begin. waymark: Simulation with NavMeshPathService and the mesh's outline as
// walls (walls_eroded), every path planned by plan_pending() first. Then `ticks` steps of 50 ms
// are timed one by one on each side; quality is measured after each step, outside the timing:
// agents that came within their radius of the goal (once reached, counted), agent pairs
// overlapping by more than 1 % of the radius (per pair and tick), the smallest gap between two
// agents, and agent-ticks off the mesh. With --repeat R the two sides alternate which runs first
// and the tick times of all repeats are pooled.
#include <recastnavigation/DetourCrowd.h>
#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/DetourNavMeshQuery.h>
#include <recastnavigation/Recast.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/detour_reference.hpp"
#include "support/grid_level.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/recast/recast_build.hpp"
#include "waymark/steer/path_service.hpp"
#include "waymark/steer/simulation.hpp"
#include "waymark/steer/spatial_hash.hpp"

namespace {

using namespace waymark;

constexpr double radius = 0.35;
constexpr double dt = 0.05;

struct Args {
  std::vector<std::size_t> agents{1000};
  std::size_t ticks = 200;
  std::size_t repeat = 2;
  std::uint64_t seed = 1;
  std::string avoidance = "medium";
  double cell_size = 0.125;
  double warmup_dt = 1e-6;
  std::string map = WAYMARK_DATA_DIR "/maps/den520d.map";
  /// --orders: before every timed tick, 0.5 % of the agents (at least one) get a new goal —
  /// another agent's — on both sides alike (dtCrowd: requestMoveTarget; waymark: set_goal).
  bool orders = false;
  /// --waymark-only: no dtCrowd run (at 10,000 agents its path-queue warm-up takes minutes).
  bool waymark_only = false;
};

/// The orders of tick `t` among `n` agents: (agent, the agent whose goal it gets), the same
/// for both sides.
template <class F>
void for_each_order(std::size_t t, std::size_t n, F&& f) {
  const std::size_t per_tick = std::max<std::size_t>(1, n / 200);
  for (std::size_t j = 0; j < per_tick; ++j) {
    const std::size_t i = (t * 7919 + j * 104729) % n;
    f(i, (i + 1 + t) % n);
  }
}

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "waymark_bench_crowd_detour: " << why
            << "\nusage: waymark_bench_crowd_detour [--agents N,N,...] [--ticks T] [--repeat R] [--seed S]"
               " [--avoidance low|medium|good|high] [--cell-size CS] [--warmup-dt DT] [--orders] [--waymark-only] [FILE.map]\n";
  std::exit(2);
}

std::size_t positive(const std::string& text, const std::string& option) {
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || v < 1) usage(option + " must be a positive integer");
  return static_cast<std::size_t>(v);
}

double positive_real(const std::string& text, const std::string& option) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(v > 0) || !std::isfinite(v)) usage(option + " must be a positive number");
  return v;
}

/// RecastDemo's four obstacle avoidance presets, by name (the crowd tool's index).
int avoidance_index(const std::string& name) {
  static const std::array<const char*, 4> names{"low", "medium", "good", "high"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (name == names[i]) return static_cast<int>(i);
  }
  usage("--avoidance must be low, medium, good or high");
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
    } else if (arg == "--orders") {
      a.orders = true;
    } else if (arg == "--waymark-only") {
      a.waymark_only = true;
    } else if (arg == "--ticks") {
      a.ticks = positive(value(), "--ticks");
    } else if (arg == "--repeat") {
      a.repeat = positive(value(), "--repeat");
    } else if (arg == "--seed") {
      a.seed = positive(value(), "--seed");
    } else if (arg == "--avoidance") {
      a.avoidance = value();
      (void)avoidance_index(a.avoidance);
    } else if (arg == "--cell-size") {
      a.cell_size = positive_real(value(), "--cell-size");
    } else if (arg == "--warmup-dt") {
      a.warmup_dt = positive_real(value(), "--warmup-dt");
    } else if (!arg.empty() && arg[0] == '-') {
      usage("unknown option " + arg);
    } else {
      a.map = arg;
    }
  }
  if (a.agents.empty()) usage("--agents needs at least one count");
  return a;
}

// ---- the level -------------------------------------------------------------------------------


/// Detour's navmesh and query of a DetourReference (the same build the navmesh tests compare
/// with), and where dtCrowd would place a point.
class DetourMesh {
 public:
  explicit DetourMesh(const test::DetourReference& reference) : mesh_(reference.nav_mesh()), query_(reference.nav_query()) {}
  [[nodiscard]] dtNavMesh* mesh() const { return mesh_; }

  struct Snapped {
    dtPolyRef ref = 0;
    Vec3 point;
  };
  /// The nearest point on the mesh within the box the crowd places agents with (radius × 2,
  /// 1.5, 2), as dtCrowd::addAgent finds it.
  [[nodiscard]] Snapped snap(Vec3 p) const {
    const float centre[3] = {float(p.x), float(p.y), float(p.z)};
    const float extents[3] = {float(radius * 2), float(radius * 1.5), float(radius * 2)};
    Snapped s;
    float nearest[3];
    if (dtStatusFailed(query_->findNearestPoly(centre, extents, &filter_, &s.ref, nearest)) || s.ref == 0) return {};
    s.point = {nearest[0], nearest[1], nearest[2]};
    return s;
  }

 private:
  dtNavMesh* mesh_;
  dtNavMeshQuery* query_;
  dtQueryFilter filter_;
};

struct Scene {
  std::vector<DetourMesh::Snapped> starts, goals;
  std::size_t free_cells = 0;
  std::size_t cells_on_mesh = 0;  ///< free cells whose centre lies on the mesh (within 0.05)
};

/// Whether erosion kept the map's connectivity: the 4-connected components of the free cells
/// whose centres lie on the mesh, against the mesh islands those centres fall in, and the
/// pairs of 4-neighbour cells (both centres on the mesh) that landed on different islands.
struct Connectivity {
  std::size_t grid_components = 0;
  std::size_t mesh_islands = 0;
  std::size_t split_neighbours = 0;
};

Connectivity connectivity(const grid::GridMap& map, const navmesh::NavMesh& nav) {
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> island(map.cell_count(), none);
  for (std::uint32_t c = 0; c < map.cell_count(); ++c) {
    if (!map.passable(CellId{c})) continue;
    const Vec2 centre = map.cell_center(CellId{c});
    const auto near = nav.nearest_poly({centre.x, 0, centre.y}, {0.05, 2, 0.05});
    if (near && distance(navmesh::plan(near->point), centre) <= 0.05) island[c] = nav.island(near->poly);
  }
  Connectivity k;
  std::vector<std::uint32_t> component(map.cell_count(), none), stack;
  std::vector<std::uint32_t> islands_seen;
  for (std::uint32_t c = 0; c < map.cell_count(); ++c) {
    if (island[c] == none) continue;
    islands_seen.push_back(island[c]);
    if (component[c] != none) continue;
    const auto id = static_cast<std::uint32_t>(k.grid_components++);
    component[c] = id;
    stack.push_back(c);
    while (!stack.empty()) {
      const grid::CellCoord at = map.coord(CellId{stack.back()});
      stack.pop_back();
      const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
      for (int d = 0; d < 4; ++d) {
        if (!map.in_bounds(at.x + dx[d], at.y + dy[d])) continue;
        const std::uint32_t b = map.cell(at.x + dx[d], at.y + dy[d]).value;
        if (island[b] == none) continue;
        if (d % 2 == 0 && island[b] != island[map.cell(at.x, at.y).value]) ++k.split_neighbours;  // each pair once
        if (component[b] != none) continue;
        component[b] = id;
        stack.push_back(b);
      }
    }
  }
  std::sort(islands_seen.begin(), islands_seen.end());
  k.mesh_islands = static_cast<std::size_t>(std::unique(islands_seen.begin(), islands_seen.end()) - islands_seen.begin());
  return k;
}

/// `n` agents: starts the first free cell centres of one shuffle that lie on the mesh, goals
/// from a second shuffle, each the first unused one Detour finds a full path to from the start.
Scene make_scene(const grid::GridMap& map, const DetourMesh& detour, test::DetourReference& reference,
                 std::size_t n, std::uint64_t seed) {
  Scene scene;
  std::vector<DetourMesh::Snapped> on_mesh;
  for (std::uint32_t c = 0; c < map.cell_count(); ++c) {
    if (!map.passable(CellId{c})) continue;
    ++scene.free_cells;
    const Vec2 centre = map.cell_center(CellId{c});
    const DetourMesh::Snapped s = detour.snap({centre.x, 0, centre.y});
    if (s.ref != 0 && distance(navmesh::plan(s.point), centre) <= 0.05) on_mesh.push_back(s);
  }
  scene.cells_on_mesh = on_mesh.size();
  steer::Random random(seed);
  const auto shuffled = [&] {
    std::vector<DetourMesh::Snapped> v = on_mesh;
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[random.next() % i]);
    return v;
  };
  const std::vector<DetourMesh::Snapped> starts = shuffled();
  std::vector<DetourMesh::Snapped> goals = shuffled();
  std::vector<bool> used(goals.size(), false);
  test::DetourReference::Result path;
  for (std::size_t i = 0; i < starts.size() && scene.starts.size() < n; ++i) {
    for (std::size_t g = 0; g < goals.size(); ++g) {
      if (used[g]) continue;
      reference.find_path(starts[i].point, goals[g].point, 0xffff, 0, path);
      if (!path.found || path.partial) continue;
      used[g] = true;
      scene.starts.push_back(starts[i]);
      scene.goals.push_back(goals[g]);
      break;
    }
  }
  return scene;
}

// ---- quality, measured outside the timed region -------------------------------------------------

class Quality {
 public:
  Quality(const navmesh::NavMesh& mesh, std::vector<Vec2> goals) : mesh_(&mesh), goals_(std::move(goals)), reached_(goals_.size()) {}

  void measure(const std::vector<Vec2>& positions) {
    for (std::size_t i = 0; i < positions.size(); ++i) {
      if (!reached_[i] && distance(positions[i], goals_[i]) <= radius) {
        reached_[i] = true;
        ++arrived_;
      }
      // On the mesh: a polygon within a millimetre in plan.
      const Vec3 p{positions[i].x, 0, positions[i].y};
      const auto near = mesh_->nearest_poly(p, Vec3{1, 2, 1});
      const double off = near ? distance(navmesh::plan(near->point), positions[i]) : 1;
      if (off > 1e-3) {
        ++off_mesh_;
        off_mesh_max_ = std::max(off_mesh_max_, off);
      }
    }
    hash_.rebuild(positions, 2 * radius);
    for (std::size_t i = 0; i < positions.size(); ++i) {
      hash_.for_each_within(positions[i], 2 * radius + 1, [&](std::size_t j, double d2) {
        if (j <= i) return;
        const double gap = std::sqrt(d2) - 2 * radius;
        min_clearance_ = std::min(min_clearance_, gap);
        if (-gap > 0.01 * radius) ++overlaps_;
      });
    }
  }

  void report(nlohmann::ordered_json& out) const {
    out["arrived"] = arrived_;
    out["overlaps"] = overlaps_;
    out["min_clearance"] = min_clearance_;
    out["off_mesh"] = off_mesh_;
    out["off_mesh_max"] = off_mesh_max_;
  }

 private:
  const navmesh::NavMesh* mesh_;
  std::vector<Vec2> goals_;
  std::vector<bool> reached_;
  std::size_t arrived_ = 0;
  std::uint64_t overlaps_ = 0;
  std::uint64_t off_mesh_ = 0;
  double off_mesh_max_ = 0;  ///< the farthest an agent got off the mesh (in plan; 1 or more: 1)
  double min_clearance_ = std::numeric_limits<double>::infinity();
  steer::SpatialHash hash_;
};

struct Run {
  std::vector<double> ticks_us;
  nlohmann::ordered_json report;
};

template <class F>
double time_us(F&& f) {
  const auto started = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
}

std::vector<Vec2> plan_points(const std::vector<DetourMesh::Snapped>& points) {
  std::vector<Vec2> out;
  for (const auto& p : points) out.push_back(navmesh::plan(p.point));
  return out;
}

// ---- Detour's side -------------------------------------------------------------------------------

struct CrowdDeleter {
  void operator()(dtCrowd* c) const { dtFreeCrowd(c); }
};

Run run_detour(const DetourMesh& detour, const navmesh::NavMesh& nav, const Scene& scene, const Args& args) {
  const auto n = static_cast<int>(scene.starts.size());
  std::unique_ptr<dtCrowd, CrowdDeleter> crowd(dtAllocCrowd());
  if (!crowd->init(n, float(radius), detour.mesh())) throw std::runtime_error("dtCrowd::init failed");
  // RecastDemo's crowd tool: its four presets over dtCrowd's default parameters.
  dtObstacleAvoidanceParams preset = *crowd->getObstacleAvoidanceParams(0);
  const unsigned char divs[4] = {5, 5, 7, 7}, rings[4] = {2, 2, 2, 3}, depth[4] = {1, 2, 3, 3};
  for (int q = 0; q < 4; ++q) {
    preset.velBias = 0.5f;
    preset.adaptiveDivs = divs[q];
    preset.adaptiveRings = rings[q];
    preset.adaptiveDepth = depth[q];
    crowd->setObstacleAvoidanceParams(q, &preset);
  }
  dtCrowdAgentParams ap{};
  ap.radius = float(radius);
  ap.height = 2;
  ap.maxAcceleration = 12;  // waymark: max_force / mass
  ap.maxSpeed = 3;
  ap.collisionQueryRange = ap.radius * 12;
  ap.pathOptimizationRange = ap.radius * 30;
  ap.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO |
                   DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION;
  ap.obstacleAvoidanceType = static_cast<unsigned char>(avoidance_index(args.avoidance));
  ap.separationWeight = 2;
  for (int i = 0; i < n; ++i) {
    const Vec3 s = scene.starts[static_cast<std::size_t>(i)].point;
    const float pos[3] = {float(s.x), float(s.y), float(s.z)};
    if (crowd->addAgent(pos, &ap) != i) throw std::runtime_error("dtCrowd::addAgent failed");
    const DetourMesh::Snapped& g = scene.goals[static_cast<std::size_t>(i)];
    const float goal[3] = {float(g.point.x), float(g.point.y), float(g.point.z)};
    if (!crowd->requestMoveTarget(i, g.ref, goal)) throw std::runtime_error("dtCrowd::requestMoveTarget failed");
  }
  const auto without_path = [&] {
    int k = 0;
    for (int i = 0; i < n; ++i) {
      const dtCrowdAgent* a = crowd->getAgent(i);
      k += a->targetState != DT_CROWDAGENT_TARGET_VALID || a->corridor.getPathCount() == 0;
    }
    return k;
  };
  const auto positions = [&](std::vector<Vec2>& out) {
    out.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = {crowd->getAgent(i)->npos[0], crowd->getAgent(i)->npos[2]};
  };

  Run run;
  constexpr std::size_t max_warmup = 200'000;
  std::size_t updates = 0;
  const Stopwatch warmup;
  while (without_path() > 0 && updates < max_warmup) {
    crowd->update(float(args.warmup_dt), nullptr);
    ++updates;
  }
  const double warmup_ms = warmup.seconds() * 1e3;
  std::vector<Vec2> at;
  positions(at);
  double moved = 0;  // during the warm-up
  for (std::size_t i = 0; i < at.size(); ++i) moved = std::max(moved, distance(at[i], navmesh::plan(scene.starts[i].point)));
  const int pathless = without_path();
  int partial = 0;
  for (int i = 0; i < n; ++i) partial += crowd->getAgent(i)->partial;

  Quality quality(nav, plan_points(scene.goals));
  for (std::size_t t = 0; t < args.ticks; ++t) {
    if (args.orders) {
      for_each_order(t, scene.goals.size(), [&](std::size_t i, std::size_t k) {
        const DetourMesh::Snapped& g = scene.goals[k];
        const float goal[3] = {float(g.point.x), float(g.point.y), float(g.point.z)};
        crowd->requestMoveTarget(static_cast<int>(i), g.ref, goal);
      });
    }
    run.ticks_us.push_back(time_us([&] { crowd->update(float(dt), nullptr); }));
    positions(at);
    quality.measure(at);
  }
  run.report["warmup_updates"] = updates;
  run.report["warmup_ms"] = warmup_ms;
  run.report["warmup_max_move"] = moved;
  run.report["without_path"] = pathless;
  run.report["partial_corridors"] = partial;
  quality.report(run.report);
  int invalid = 0;
  for (int i = 0; i < n; ++i) invalid += crowd->getAgent(i)->state != DT_CROWDAGENT_STATE_WALKING;
  run.report["invalid_agents"] = invalid;
  return run;
}

// ---- waymark's side ------------------------------------------------------------------------------

Run run_waymark(const navmesh::NavMesh& nav, const Scene& scene, const Args& args) {
  const std::size_t n = scene.starts.size();
  search::RequestQueueOptions queue;
  queue.max_requests = std::max<std::size_t>(n, 1);
  steer::SimulationParams params;
  params.seed = args.seed;
  params.queue = queue;
  steer::Simulation sim(nav, params);  // paths on the mesh, its outline as walls (walls_eroded)
  const steer::AgentParams agent;  // radius 0.35, speed 3, force 12, mass 1
  for (std::size_t i = 0; i < n; ++i) {
    sim.add_agent(agent, navmesh::plan(scene.starts[i].point), navmesh::plan(scene.goals[i].point));
  }
  Run run;
  std::size_t rounds = 0;
  const Stopwatch planning;
  while (sim.plan_pending() > 0 && rounds < 100'000) ++rounds;
  const double planning_ms = planning.seconds() * 1e3;

  Quality quality(nav, plan_points(scene.goals));
  std::vector<Vec2> at(n);
  for (std::size_t t = 0; t < args.ticks; ++t) {
    if (args.orders) {
      for_each_order(t, n, [&](std::size_t i, std::size_t k) {
        sim.set_goal(steer::AgentId{static_cast<std::uint32_t>(i)}, navmesh::plan(scene.goals[k].point));
      });
    }
    run.ticks_us.push_back(time_us([&] { sim.step(dt); }));
    for (std::size_t i = 0; i < n; ++i) at[i] = sim.state(steer::AgentId{static_cast<std::uint32_t>(i)}).position;
    quality.measure(at);
  }
  const steer::SimulationStats& s = sim.stats();
  run.report["planning_rounds"] = rounds;
  run.report["planning_ms"] = planning_ms;
  run.report["walls"] = sim.obstacles().size();
  quality.report(run.report);
  run.report["sim_arrived"] = s.arrived;
  run.report["sim_collisions"] = s.collisions;
  run.report["plans"] = s.plans;
  run.report["replans"] = s.replans;
  run.report["failed_plans"] = s.failed_plans;
  run.report["wall_pushes"] = s.wall_pushes;
  return run;
}

void timing(const std::vector<double>& ticks_us, nlohmann::ordered_json& out) {
  std::vector<double> sorted = ticks_us;
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (const double t : ticks_us) sum += t;
  out["tick_us_mean"] = sum / static_cast<double>(ticks_us.size());
  out["tick_us_p50"] = sorted[sorted.size() / 2];
  out["tick_us_p99"] = sorted[std::min(sorted.size() - 1, sorted.size() * 99 / 100)];
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (const double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  try {
    const grid::GridMap map = io::load_movingai_map(args.map);
    recast::RecastParams rp;
    rp.cell_size = args.cell_size;
    rp.agent_radius = radius;
    rp.agent_height = 2;
    rp.agent_max_climb = 0.5;
    const TriangleMesh level = test::level_geometry(map, args.cell_size / 2, 3);
    const Stopwatch build;
    const recast::RecastMeshes meshes = recast::build_recast_meshes(level, rp);
    const double recast_ms = build.seconds() * 1e3;
    const navmesh::NavMesh nav = recast::to_nav_mesh(meshes);
    test::DetourReference reference(meshes);
    const DetourMesh detour(reference);
    const Connectivity kept = connectivity(map, nav);

    for (const std::size_t n : args.agents) {
      const Scene scene = make_scene(map, detour, reference, n, args.seed);
      if (scene.starts.size() < n) {
        std::cerr << "waymark_bench_crowd_detour: " << args.map << " has room for only " << scene.starts.size()
                  << " agents\n";
        return 2;
      }
      std::vector<double> detour_us, waymark_us;
      nlohmann::ordered_json detour_report, waymark_report;
      for (std::size_t r = 0; r < args.repeat; ++r) {
        const auto one = [&](bool detour_side) {
          Run run = detour_side ? run_detour(detour, nav, scene, args) : run_waymark(nav, scene, args);
          std::vector<double>& pooled = detour_side ? detour_us : waymark_us;
          pooled.insert(pooled.end(), run.ticks_us.begin(), run.ticks_us.end());
          if (r == 0) (detour_side ? detour_report : waymark_report) = std::move(run.report);
        };
        const bool detour_first = r % 2 == 0;
        if (args.waymark_only) {
          one(false);
          continue;
        }
        one(detour_first);
        one(!detour_first);
      }
      nlohmann::ordered_json out;
      out["map"] = args.map;
      out["agents"] = n;
      out["ticks"] = args.ticks;
      out["dt"] = dt;
      out["repeats"] = args.repeat;
      out["avoidance"] = args.avoidance;
      out["orders"] = args.orders;
      nlohmann::ordered_json s;
      s["cell_size"] = args.cell_size;
      s["recast_ms"] = recast_ms;
      s["polygons"] = nav.poly_count();
      s["free_cells"] = scene.free_cells;
      s["cells_on_mesh"] = scene.cells_on_mesh;
      s["grid_components"] = kept.grid_components;
      s["mesh_islands"] = kept.mesh_islands;
      s["split_neighbours"] = kept.split_neighbours;
      out["scene"] = s;
      timing(waymark_us, waymark_report);
      if (!args.waymark_only) {
        timing(detour_us, detour_report);
        out["detour"] = detour_report;
        out["ratio_mean"] = mean(waymark_us) / mean(detour_us);
      }
      out["waymark"] = waymark_report;
      std::cout << out.dump() << std::endl;
    }
  } catch (const std::exception& e) {
    std::cerr << "waymark_bench_crowd_detour: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
