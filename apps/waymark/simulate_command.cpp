#include "simulate_command.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli_support.hpp"
#include "waymark/core/text.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/io/scene.hpp"
#include "waymark/render/grid_png.hpp"
#include "waymark/steer/scene_events.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::cli {

namespace {

/// --trace: JSON lines, a header object and then one object per tick (and one for the start):
///   {"scene":"…","map":"…","dt":0.05,"agents":[{"radius":0.35,"goal":[x,y]},…]}
///   {"tick":0,"p":[[x,y],…],"arrived":[0,1,…]}
/// Positions with 9 significant digits: a fixed text for a fixed run (the determinism tests
/// compare traces byte for byte). A scene with events adds to the header
/// "status_codes":["planning","moving",…] (steer::AgentStatus by value) and
/// "reason_codes":["none","start_outside",…] (steer::AgentReason by value), and to each tick
/// "status":"0112…" and "reason":"0007…", one digit per agent, the codes of its status and of
/// its reason (Simulation::reason); a removed agent keeps its last position in "p" (and its
/// "arrived" flag).
class SceneTrace {
 public:
  SceneTrace(const std::string& path, const std::string& scene, const steer::SceneSpec& spec,
             const steer::Simulation& sim)
      : out_(path), path_(path) {
    if (!out_) throw UsageError("cannot write trace to " + path);
    nlohmann::ordered_json head;
    head["scene"] = scene;
    head["map"] = spec.map;
    head["dt"] = spec.dt;
    nlohmann::ordered_json agents = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < sim.size(); ++i) {
      const steer::AgentId id{static_cast<std::uint32_t>(i)};
      agents.push_back({{"radius", sim.params(id).radius}, {"goal", {sim.goal(id).x, sim.goal(id).y}}});
    }
    head["agents"] = std::move(agents);
    if (!spec.events.empty()) {
      status_ = true;
      nlohmann::ordered_json codes = nlohmann::ordered_json::array();
      for (auto code = static_cast<int>(steer::AgentStatus::planning); code <= static_cast<int>(steer::AgentStatus::removed);
           ++code)
        codes.push_back(steer::to_string(static_cast<steer::AgentStatus>(code)));
      head["status_codes"] = std::move(codes);
      nlohmann::ordered_json reasons = nlohmann::ordered_json::array();
      for (auto code = static_cast<int>(steer::AgentReason::none); code <= static_cast<int>(steer::AgentReason::no_progress);
           ++code)
        reasons.push_back(steer::to_string(static_cast<steer::AgentReason>(code)));
      head["reason_codes"] = std::move(reasons);
    }
    out_ << head.dump() << '\n';
  }

  void tick(const steer::Simulation& sim) {
    line_ = "{\"tick\":" + number_text(sim.stats().ticks) + ",\"p\":[";
    char number[64];
    for (std::size_t i = 0; i < sim.size(); ++i) {
      const Vec2 p = sim.state(steer::AgentId{static_cast<std::uint32_t>(i)}).position;
      std::snprintf(number, sizeof number, "%s[%.9g,%.9g]", i == 0 ? "" : ",", p.x, p.y);
      line_ += number;
    }
    line_ += "],\"arrived\":[";
    for (std::size_t i = 0; i < sim.size(); ++i) {
      line_ += i == 0 ? "" : ",";
      line_ += sim.arrived(steer::AgentId{static_cast<std::uint32_t>(i)}) ? '1' : '0';
    }
    line_ += ']';
    if (status_) {
      line_ += ",\"status\":\"";
      for (std::size_t i = 0; i < sim.size(); ++i)
        line_ += static_cast<char>('0' + static_cast<int>(sim.status(steer::AgentId{static_cast<std::uint32_t>(i)})));
      line_ += "\",\"reason\":\"";
      for (std::size_t i = 0; i < sim.size(); ++i)
        line_ += static_cast<char>('0' + static_cast<int>(sim.reason(steer::AgentId{static_cast<std::uint32_t>(i)})));
      line_ += '"';
    }
    line_ += "}\n";
    out_ << line_;
    if (!out_) throw UsageError("cannot write trace to " + path_);
  }

 private:
  std::ofstream out_;
  std::string path_;
  std::string line_;
  bool status_ = false;  ///< the scene has events: each tick adds every agent's status
};

/// A trail keeps a position when the agent has moved this far (cells) from the last one kept:
/// a long run's picture stays small.
constexpr double trail_step_cells = 0.1;

/// The positions of every agent over the run, for --png/--svg.
class Trails {
 public:
  explicit Trails(const steer::Simulation& sim)
      : min_step_(trail_step_cells * sim.map()->params().cell_size), trails_(sim.size()) {
    record(sim);
  }
  void record(const steer::Simulation& sim) {
    for (std::size_t i = 0; i < trails_.size(); ++i) {
      const Vec2 p = sim.state(steer::AgentId{static_cast<std::uint32_t>(i)}).position;
      std::vector<Vec2>& t = trails_[i];
      if (t.size() < 2 || length(p - t[t.size() - 2]) >= min_step_) {
        t.push_back(p);
      } else {
        t.back() = p;  // the last point always follows the agent
      }
    }
  }
  [[nodiscard]] const std::vector<std::vector<Vec2>>& trails() const { return trails_; }

 private:
  double min_step_;
  std::vector<std::vector<Vec2>> trails_;
};

/// The agents that ended with a reason (Simulation::reason), counted by reason, in code order.
std::vector<std::pair<steer::AgentReason, std::size_t>> reason_counts(const steer::Simulation& sim) {
  constexpr auto last = static_cast<std::size_t>(steer::AgentReason::no_progress);
  std::vector<std::size_t> counts(last + 1, 0);
  for (std::size_t i = 0; i < sim.size(); ++i) ++counts[static_cast<std::size_t>(sim.reason(steer::AgentId{static_cast<std::uint32_t>(i)}))];
  std::vector<std::pair<steer::AgentReason, std::size_t>> out;
  for (std::size_t r = 1; r <= last; ++r) {
    if (counts[r] > 0) out.emplace_back(static_cast<steer::AgentReason>(r), counts[r]);
  }
  return out;
}

/// The status a reason goes with.
steer::AgentStatus reason_status(steer::AgentReason reason) {
  switch (reason) {
    case steer::AgentReason::crowded_goal: return steer::AgentStatus::arrived;
    case steer::AgentReason::no_progress: return steer::AgentStatus::stuck;
    default: return steer::AgentStatus::unreachable;
  }
}

}  // namespace

CLI::App* add_simulate_command(CLI::App& app, SimulateArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "simulate", "run a scene of agents on a Moving AI map (JSON, see docs/steering.md) until all arrive or max_steps");
  cmd->add_option("--scene,-s", a.scene, "scene file (.json)")->required();
  cmd->add_option("--steps", a.steps, "stop after this many ticks, 1 or more (default: the scene's max_steps)");
  cmd->add_flag("--json", a.json, "end with one JSON summary object");
  cmd->add_option("--trace", a.trace, "write every tick's positions to FILE (JSON lines)");
  cmd->add_option("--png", a.png, "write a picture of the map and every agent's trail, with a legend, to this PNG");
  cmd->add_option("--svg", a.svg, "write the --png picture as SVG to this file");
  cmd->add_option("--time-limit", a.time_limit_s,
                  "stop after this many seconds of wall time, planning included (> 0; default: none): exit 1, \"stopped\": \"time-limit\"");
  return cmd;
}

int run_simulate(const SimulateArgs& a) {
  return guarded([&] {
    const search::Deadline deadline(time_limit(a.time_limit_s));  // never without one
    const auto out_of_time = [&] { return deadline.passed(); };
    const steer::SceneSpec spec = io::load_scene(a.scene);
    const std::uint64_t steps =
        a.steps == unset_steps ? spec.max_steps
                               : checked_count(a.steps, 1, static_cast<std::int64_t>(steer::SceneLimits::max_steps), "--steps");
    grid::GridMap map = io::load_movingai_map(spec.map);
    io::check_scene_against_map(spec, map, a.scene);
    const std::unique_ptr<steer::Simulation> sim = steer::make_simulation(spec, std::move(map));
    // The events of tick 0 first, so that the first paths see them.
    steer::SceneEvents events(spec, *sim);
    events.apply_due(*sim, 0);
    // Every path planned before the first tick (a game would spread this over frames; the
    // request queue does, with the simulation's planning budget, for re-plans). Each round
    // ends every search in flight, so one that leaves as many waiting as before made no
    // progress: the steps go on from there (the simulation marks an agent it cannot place
    // unreachable, so this is a backstop that no agent can turn into a wait without end).
    for (std::size_t waiting = sim->plan_pending(deadline.left()), before = waiting + 1;
         waiting > 0 && waiting < before && !out_of_time(); before = waiting, waiting = sim->plan_pending(deadline.left())) {
    }
    if (const std::optional<steer::LateEvents> late = steer::late_events(events, *sim, spec.dt, steps)) {
      std::cerr << "waymark: warning: " << a.scene << ": the last event, at tick " << late->last_tick
                << ", lies far past tick " << late->arrival_tick << " ("
                << number_text(static_cast<double>(late->arrival_tick) * spec.dt)
                << " s), by which every agent can have arrived along its planned path at its top speed: the run idles until tick "
                << late->idle_until << (late->idle_until < late->last_tick ? " (the step limit)" : "") << '\n';
    }
    std::unique_ptr<SceneTrace> trace;
    if (!a.trace.empty()) {
      trace = std::make_unique<SceneTrace>(a.trace, a.scene, spec, *sim);
      trace->tick(*sim);
    }
    std::optional<Trails> trails;
    if (!a.png.empty() || !a.svg.empty()) trails.emplace(*sim);
    // Until no event is left and every agent not removed has arrived — or stands where only an
    // order or an edit could move it on (unreachable, stopped: Simulation::settled) — or
    // `steps` ticks.
    while (sim->stats().ticks < steps && (events.pending() > 0 || !sim->settled()) && !out_of_time()) {
      events.apply_due(*sim, sim->stats().ticks);
      sim->step(spec.dt);
      if (trace) trace->tick(*sim);
      if (trails) trails->record(*sim);
    }
    if (trails) {
      const render::GridLayers layers{.trails = trails->trails()};
      write_pictures(a.png, a.svg, [&](const std::string& file, render::PictureFormat format) {
        return render::write_grid_picture(*sim->map(), layers, file, {}, format);
      });
    }
    const steer::SimulationStats& s = sim->stats();
    const double clearance = std::isfinite(s.min_clearance) ? s.min_clearance : sim->params().clearance_cap;
    if (a.json) {
      nlohmann::ordered_json out;
      out["agents"] = sim->size();
      out["arrived"] = s.arrived;
      out["removed"] = s.removed;
      out["collisions"] = s.collisions;
      out["min_clearance"] = clearance;
      out["ticks"] = s.ticks;
      out["mean_tick_us"] = s.mean_tick_us();
      out["plans"] = s.plans;
      out["replans"] = s.replans;
      out["failed_plans"] = s.failed_plans;
      out["refused_plans"] = s.refused_plans;
      out["wall_pushes"] = s.wall_pushes;
      if (out_of_time()) {
        out["stopped"] = "time-limit";
      } else if (!sim->all_arrived() && events.pending() == 0 && sim->settled()) {
        out["stopped"] = "settled";  // the agents left stand until an order or an edit, and none is to come
      }
      // How the agents that did not simply arrive ended: each reason and its count.
      nlohmann::ordered_json reasons = nlohmann::ordered_json::object();
      for (const auto& [reason, count] : reason_counts(*sim)) reasons[std::string(steer::to_string(reason))] = count;
      out["reasons"] = std::move(reasons);
      char hash[17];
      std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(sim->state_hash()));
      out["state_hash"] = hash;  // the exact final state (Simulation::state_hash), for lockstep checks
      std::cout << out.dump() << '\n';
    } else {
      std::printf("%zu agents, %zu arrived, ", sim->size(), s.arrived);
      if (s.removed > 0) std::printf("%zu removed, ", s.removed);
      std::printf("%llu collisions, min clearance %.3f, %llu ticks (%.2f s simulated), mean tick %.1f us\n",
                  static_cast<unsigned long long>(s.collisions), clearance,
                  static_cast<unsigned long long>(s.ticks), static_cast<double>(s.ticks) * spec.dt, s.mean_tick_us());
      for (const auto& [reason, count] : reason_counts(*sim))
        std::printf("%zu %s (%s)\n", count, std::string(steer::to_string(reason_status(reason))).c_str(),
                    std::string(steer::to_string(reason)).c_str());
      if (out_of_time()) std::printf("stopped at the time limit (--time-limit %s)\n", number_text(a.time_limit_s).c_str());
      if (!out_of_time() && !sim->all_arrived() && events.pending() == 0 && sim->settled())
        std::printf("stopped: every agent left is unreachable or stopped, and no event is to come\n");
    }
    return sim->all_arrived() ? exit_ok : exit_not_found;
  });
}

}  // namespace waymark::cli
