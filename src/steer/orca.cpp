#include "waymark/steer/orca.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "orca_obstacles.hpp"
#include "waymark/core/assert.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/hash.hpp"

namespace waymark::steer {

// ---------------------------------------------------------------------------------------------
// SpatialHash

void SpatialHash::rebuild(std::span<const Vec2> points, double cell) {
  WAYMARK_ASSERT(cell > 0 && std::isfinite(cell));
  WAYMARK_ASSERT(points.size() < std::numeric_limits<std::uint32_t>::max() / 2);
  cell_ = cell;
  inv_cell_ = 1.0 / cell;
  const std::size_t n = points.size();
  // 2n buckets (a power of two, at least 2): few cells share one.
  unsigned bits = 1;
  while ((std::size_t{1} << bits) < 2 * n) ++bits;
  shift_ = 64 - bits;
  const std::size_t buckets = std::size_t{1} << bits;

  bucket_start_.assign(buckets + 1, 0);
  bucket_of_.resize(n);
  entries_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t b = bucket(cell_coordinate(points[i].x), cell_coordinate(points[i].y));
    bucket_of_[i] = b;
    ++bucket_start_[b + 1];
  }
  for (std::size_t b = 0; b < buckets; ++b) bucket_start_[b + 1] += bucket_start_[b];
  // Counting sort, stable: each bucket's points by increasing index. bucket_start_[b] is used
  // as the fill cursor of bucket b and ends at the start of b + 1, so shift it back after.
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 p = points[i];
    entries_[bucket_start_[bucket_of_[i]]++] =
        Entry{p, static_cast<std::uint32_t>(i), cell_coordinate(p.x), cell_coordinate(p.y)};
  }
  for (std::size_t b = buckets; b > 0; --b) bucket_start_[b] = bucket_start_[b - 1];
  bucket_start_[0] = 0;
}

// ---------------------------------------------------------------------------------------------
// Shared by both solvers

std::string_view to_string(AvoidanceStatus status) {
  switch (status) {
    case AvoidanceStatus::ok: return "ok";
    case AvoidanceStatus::size_mismatch: return "size_mismatch";
    case AvoidanceStatus::bad_time_step: return "bad_time_step";
    case AvoidanceStatus::bad_agent: return "bad_agent";
  }
  return "unknown";
}

namespace {

using detail::HalfPlane;

/// Two unit directions whose cross product is at most this count as parallel.
constexpr double parallel_epsilon = 1e-12;
/// A relative velocity shorter than this (world units / s) has no usable direction.
constexpr double direction_epsilon = 1e-9;
/// Used as the hash cell when the neighbour distance is 0 (agents of no size and no speed).
constexpr double fallback_cell = 1.0;
/// An agent meets walls with at least this share of its radius: with none, a velocity aimed
/// exactly at the point where two walls meet is permitted by both walls' half-planes, and
/// the agent threads the joint.
constexpr double min_wall_radius = 0.01;

bool valid(const OrcaAgent& a) {
  return finite(a.position) && finite(a.velocity) && finite(a.preferred_velocity) && std::isfinite(a.radius) &&
         a.radius >= 0 && std::isfinite(a.max_speed) && a.max_speed >= 0 && std::isfinite(a.neighbour_distance) &&
         a.neighbour_distance >= 0 && std::isfinite(a.wall_radius);
}

AvoidanceStatus check(std::span<const OrcaAgent> agents, double dt, std::span<Vec2> new_velocities) {
  if (agents.size() != new_velocities.size()) return AvoidanceStatus::size_mismatch;
  if (!(dt > 0) || !std::isfinite(dt)) return AvoidanceStatus::bad_time_step;
  if (!std::all_of(agents.begin(), agents.end(), valid)) return AvoidanceStatus::bad_agent;
  return AvoidanceStatus::ok;
}

Vec2 clip(Vec2 v, double max_length) {
  const double l2 = length_squared(v);
  return l2 > max_length * max_length ? v * (max_length / std::sqrt(l2)) : v;
}

void check_common(double time_horizon, double neighbour_distance) {
  if (!(time_horizon > 0) || !std::isfinite(time_horizon)) {
    throw BuildError("crowd avoidance: time_horizon must be finite and > 0");
  }
  if (!(neighbour_distance >= 0) || !std::isfinite(neighbour_distance)) {
    throw BuildError("crowd avoidance: neighbour_distance must be finite and >= 0");
  }
}

// --- ORCA's linear programs ------------------------------------------------------------------

/// Moves `result` onto half-plane i's boundary line: the point of the line inside the disc of
/// radius `max_speed` and the half-planes before i that is nearest `target`, or, when
/// `directional`, furthest along the unit vector `target`. False when no such point exists.
bool solve_on_line(std::span<const HalfPlane> planes, std::size_t i, double max_speed, Vec2 target, bool directional,
                   Vec2& result) {
  const HalfPlane& h = planes[i];
  // The line is h.point + t·h.direction; first the chord the disc leaves of it.
  const double along = dot(h.point, h.direction);
  const double discriminant = along * along + max_speed * max_speed - length_squared(h.point);
  if (discriminant < 0) return false;
  const double root = std::sqrt(discriminant);
  double t_lo = -along - root;
  double t_hi = -along + root;
  for (std::size_t j = 0; j < i; ++j) {
    const HalfPlane& g = planes[j];
    // On the line, g holds where cross(g.direction, h.point − g.point) − t·denominator >= 0.
    const double denominator = cross(h.direction, g.direction);
    const double numerator = cross(g.direction, h.point - g.point);
    if (std::abs(denominator) <= parallel_epsilon) {
      if (numerator < 0) return false;  // the whole line lies outside g
      continue;
    }
    const double t = numerator / denominator;
    if (denominator > 0) {
      t_hi = std::min(t_hi, t);
    } else {
      t_lo = std::max(t_lo, t);
    }
    if (t_lo > t_hi) return false;
  }
  double t = 0;
  if (directional) {
    t = dot(target, h.direction) > 0 ? t_hi : t_lo;
  } else {
    t = std::clamp(dot(h.direction, target - h.point), t_lo, t_hi);
  }
  result = h.point + h.direction * t;
  return true;
}

bool permits_all(std::span<const HalfPlane> planes, Vec2 v) {
  return std::all_of(planes.begin(), planes.end(), [v](const HalfPlane& h) { return cross(h.direction, v - h.point) >= 0; });
}

/// The incremental 2D linear program (Seidel's, in the given order): the velocity within the
/// disc and all half-planes nearest `target` (or furthest along it when `directional`). Returns
/// the index of the first half-plane that could not be met — then `result` is the optimum of
/// those before it — or planes.size().
std::size_t solve_planes(std::span<const HalfPlane> planes, double max_speed, Vec2 target, bool directional,
                         Vec2& result) {
  result = directional ? target * max_speed : clip(target, max_speed);
  for (std::size_t i = 0; i < planes.size(); ++i) {
    if (cross(planes[i].direction, result - planes[i].point) >= 0) continue;  // already permitted
    const Vec2 before = result;
    if (!solve_on_line(planes, i, max_speed, target, directional, result)) {
      result = before;
      return i;
    }
  }
  return planes.size();
}

/// The 3D linear program of the paper, for when no velocity meets every half-plane: the
/// velocity within the disc that minimises the largest distance by which it violates one.
/// Half-planes from `first_failed` on are taken in turn; when one is violated by more than the
/// current worst, the best velocity that keeps it the worst is found as a 2D program over
/// the bisectors between it and each earlier half-plane, optimising along its normal.
/// The first `hard` half-planes are kept as they are (walls): only the others may be violated
/// ([Limit: first_failed >= hard]).
void minimise_violation(std::span<const HalfPlane> planes, std::size_t hard, std::size_t first_failed, double max_speed,
                        Vec2& result, std::vector<HalfPlane>& bisectors) {
  double worst = 0;
  for (std::size_t i = first_failed; i < planes.size(); ++i) {
    const HalfPlane& h = planes[i];
    if (cross(h.direction, h.point - result) <= worst) continue;
    bisectors.assign(planes.begin(), planes.begin() + static_cast<std::ptrdiff_t>(hard));
    for (std::size_t j = hard; j < i; ++j) {
      const HalfPlane& g = planes[j];
      // The velocities violating g no more than h lie left of g.direction − h.direction,
      // through the crossing of both lines.
      HalfPlane b;
      const double denominator = cross(h.direction, g.direction);
      if (std::abs(denominator) <= parallel_epsilon) {
        if (dot(h.direction, g.direction) > 0) continue;  // parallel, same side: g is the looser here
        b.point = (h.point + g.point) * 0.5;
      } else {
        b.point = h.point + h.direction * (cross(g.direction, h.point - g.point) / denominator);
      }
      b.direction = normalized(g.direction - h.direction);
      bisectors.push_back(b);
    }
    const Vec2 before = result;
    const Vec2 inward{-h.direction.y, h.direction.x};
    // Infeasible only through rounding: the previous answer is then the best we have.
    if (solve_planes(bisectors, max_speed, inward, true, result) < bisectors.size()) result = before;
    worst = cross(h.direction, h.point - result);
  }
}

/// A unit direction of its own for each agent index, spread over the circle.
Vec2 agent_direction(std::size_t i) {
  const double angle = static_cast<double>(mix64(i) >> 11) * 0x1p-53 * 2 * std::numbers::pi;
  return {std::cos(angle), std::sin(angle)};
}

/// The direction in which agent i leaves agent j when both are in the same place with the same
/// velocity: as if each stood a hair along its own direction, so the pair parts one way
/// (opposite for the two) and a stack of agents fans out.
Vec2 tie_break_direction(std::size_t i, std::size_t j) {
  const Vec2 d = agent_direction(i) - agent_direction(j);
  const double l = length(d);
  if (l > direction_epsilon) return d / l;
  const Vec2 up = agent_direction(i ^ j);  // equal directions (a hash collision): one for the pair
  return i < j ? up : -up;
}

/// The half-plane of velocities that agent a (index ia) may take with neighbour b (index ib):
/// a's share of the smallest change to their relative velocity that leaves b's velocity
/// obstacle (truncated at the time horizon; at one tick when they already overlap), their
/// radii widened by the share `margin` (OrcaParams::radius_margin).
HalfPlane orca_half_plane(const OrcaAgent& a, std::size_t ia, const OrcaAgent& b, std::size_t ib, double horizon,
                          double dt, double margin, std::span<const HalfPlane> b_walls) {
  const Vec2 p = b.position - a.position;
  const Vec2 v = a.velocity - b.velocity;
  const double r = (a.radius + b.radius) * (1 + margin);
  const double p2 = length_squared(p);
  const double r2 = r * r;
  Vec2 u;  // from v to the nearest point of the obstacle's boundary
  Vec2 n;  // unit, out of the obstacle there
  if (p2 > r2) {
    // The obstacle is the cone from 0 around the disc at p (radius r), cut off by the disc at
    // p / horizon (radius r / horizon).
    const Vec2 w = v - p / horizon;
    const double w2 = length_squared(w);
    const double wp = dot(w, p);
    if (wp < 0 && wp * wp > r2 * w2) {
      // Nearest the cut-off disc (wp < 0 makes w non-zero).
      const double wl = std::sqrt(w2);
      n = w / wl;
      u = n * (r / horizon - wl);
    } else {
      // Nearest a leg: the tangent from 0 to the disc on w's side of p (the right one on a tie,
      // so agents meeting head-on both keep right).
      const double leg = std::sqrt(p2 - r2);
      Vec2 edge;
      if (cross(p, w) > 0) {
        edge = Vec2{p.x * leg - p.y * r, p.x * r + p.y * leg} / p2;
        n = Vec2{-edge.y, edge.x};
      } else {
        edge = Vec2{p.x * leg + p.y * r, -p.x * r + p.y * leg} / p2;
        n = Vec2{edge.y, -edge.x};
      }
      u = edge * dot(v, edge) - v;
    }
  } else {
    // Overlapping: the obstacle for the next tick is the disc at p / dt (radius r / dt).
    const Vec2 w = v - p / dt;
    const double wl = length(w);
    if (wl > direction_epsilon) {
      n = w / wl;
    } else if (p2 > 0) {
      n = -p / std::sqrt(p2);
    } else {
      n = tie_break_direction(ia, ib);
    }
    u = n * (r / dt - wl);
  }
  // Half each, unless b cannot take its half: inert, or held by a wall (its half, a change of
  // −u / 2, would break one of its wall half-planes).
  const double share = b.avoids && permits_all(b_walls, b.velocity - u * 0.5) ? 0.5 : 1.0;
  return HalfPlane{a.velocity + u * share, Vec2{n.y, -n.x}};
}

// --- Sampled velocity obstacles --------------------------------------------------------------

/// The first time t >= 0 at which |p − t·w| <= r (p: the neighbour relative to the agent, w:
/// the agent's velocity relative to the neighbour's), or infinity. Overlapping pairs collide
/// now unless they are moving apart.
double time_to_collision(Vec2 p, Vec2 w, double r) {
  constexpr double never = std::numeric_limits<double>::infinity();
  const double c = length_squared(p) - r * r;
  const double b = dot(p, w);
  if (c <= 0) return b >= 0 ? 0.0 : never;
  if (b <= 0) return never;
  const double a = length_squared(w);
  const double discriminant = b * b - a * c;
  if (discriminant < 0) return never;
  return c / (b + std::sqrt(discriminant));  // the smaller root (b − √D) / a, without cancellation
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// detail::CrowdNeighbours

namespace detail {

void CrowdNeighbours::rebuild(std::span<const OrcaAgent> agents, double distance, double time_horizon) {
  double max_radius = 0;
  for (const OrcaAgent& a : agents) max_radius = std::max(max_radius, a.radius);
  const std::size_t n = agents.size();
  positions_.resize(n);
  distances_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const OrcaAgent& a = agents[i];
    positions_[i] = a.position;
    // An agent sees every other whose disc it can reach within the horizon at its own speed.
    distances_[i] = a.neighbour_distance > 0 ? a.neighbour_distance
                    : distance > 0           ? distance
                                             : a.radius + max_radius + a.max_speed * time_horizon;
  }
  // Cells of the median distance: one wide query scans more cells, the rest stay cheap.
  sorted_.assign(distances_.begin(), distances_.end());
  double cell = fallback_cell;
  if (n > 0) {
    const auto middle = sorted_.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(sorted_.begin(), middle, sorted_.end());
    if (*middle > 0) cell = *middle;
  }
  hash_.rebuild(positions_, cell);
}

std::span<const CrowdNeighbours::Neighbour> CrowdNeighbours::nearest(std::size_t i, std::size_t k) {
  found_.clear();
  if (k == 0) return {};
  if (found_.capacity() < k) found_.reserve(k);
  hash_.for_each_within(positions_[i], distances_[i], [&](std::size_t j, double d2) {
    if (j == i) return;
    const Neighbour candidate{d2, static_cast<std::uint32_t>(j)};
    const auto before = [](const Neighbour& x, const Neighbour& y) {
      return x.distance_squared < y.distance_squared || (x.distance_squared == y.distance_squared && x.index < y.index);
    };
    if (found_.size() == k) {
      if (!before(candidate, found_.back())) return;
      found_.pop_back();
    }
    // Insertion from the back: k is small.
    found_.push_back(candidate);
    for (std::size_t s = found_.size() - 1; s > 0 && before(found_[s], found_[s - 1]); --s) {
      std::swap(found_[s], found_[s - 1]);
    }
  });
  return found_;
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// OrcaSolver

OrcaSolver::OrcaSolver(OrcaParams params) : params_(params) {
  check_common(params_.time_horizon, params_.neighbour_distance);
  if (!(params_.time_horizon_obstacles > 0) || !std::isfinite(params_.time_horizon_obstacles)) {
    throw BuildError("OrcaSolver: time_horizon_obstacles must be finite and > 0");
  }
  if (!(params_.radius_margin >= 0) || !std::isfinite(params_.radius_margin)) {
    throw BuildError("OrcaSolver: radius_margin must be finite and >= 0");
  }
  if (!(params_.keep_right >= 0) || !std::isfinite(params_.keep_right)) {
    throw BuildError("OrcaSolver: keep_right must be finite and >= 0");
  }
  planes_.reserve(params_.max_neighbours);
  projected_.reserve(params_.max_neighbours);
}

AvoidanceStatus OrcaSolver::solve(std::span<const OrcaAgent> agents, double dt, std::span<Vec2> new_velocities) {
  return solve_with(agents, nullptr, dt, new_velocities);
}

AvoidanceStatus OrcaSolver::solve(std::span<const OrcaAgent> agents, const ObstacleLines& walls, double dt,
                                  std::span<Vec2> new_velocities) {
  return solve_with(agents, &walls, dt, new_velocities);
}

AvoidanceStatus OrcaSolver::solve_with(std::span<const OrcaAgent> agents, const ObstacleLines* walls, double dt,
                                       std::span<Vec2> new_velocities) {
  stats_ = {};
  if (const AvoidanceStatus s = check(agents, dt, new_velocities); s != AvoidanceStatus::ok) return s;
  neighbours_.rebuild(agents, params_.neighbour_distance, params_.time_horizon);
  const std::size_t n = agents.size();
  // Every agent's wall half-planes first: its neighbours look at them too.
  wall_begin_.assign(n + 1, 0);
  wall_planes_.clear();
  if (walls != nullptr) {
    if (edges_near_.capacity() < walls->size()) {
      // Room for every edge at once: no tick allocates for them until the walls grow.
      edges_near_.reserve(walls->size());
      planes_.reserve(walls->size() + params_.max_neighbours);
      projected_.reserve(walls->size() + params_.max_neighbours);
    }
    for (std::size_t i = 0; i < n; ++i) {
      const OrcaAgent& a = agents[i];
      wall_begin_[i] = wall_planes_.size();
      if (!a.avoids) continue;
      const double wall_radius = a.wall_radius < 0 ? a.radius : std::max(a.wall_radius, min_wall_radius * a.radius);
      detail::add_obstacle_planes(*walls, a.position, a.velocity, wall_radius, a.max_speed, a.obstacle_mask,
                                  params_.time_horizon_obstacles, edges_near_, wall_planes_);
    }
    wall_begin_[n] = wall_planes_.size();
    stats_.obstacle_planes = wall_planes_.size();
  }
  const auto walls_of = [&](std::size_t i) {
    return std::span<const HalfPlane>(wall_planes_.data() + wall_begin_[i], wall_planes_.data() + wall_begin_[i + 1]);
  };
  for (std::size_t i = 0; i < n; ++i) {
    const OrcaAgent& a = agents[i];
    if (!a.avoids) {
      new_velocities[i] = clip(a.preferred_velocity, a.max_speed);
      continue;
    }
    // Walls first: the programs below keep them.
    const std::span<const HalfPlane> own = walls_of(i);
    planes_.assign(own.begin(), own.end());
    const std::size_t hard = planes_.size();
    for (const auto& nb : neighbours_.nearest(i, params_.max_neighbours)) {
      planes_.push_back(orca_half_plane(a, i, agents[nb.index], nb.index, params_.time_horizon, dt,
                                       params_.radius_margin, walls_of(nb.index)));
    }
    stats_.neighbours += planes_.size() - hard;
    // A shared bias when the other agents do not permit the preferred velocity
    // (OrcaParams::keep_right); walls alone do not bias it.
    Vec2 target = clip(a.preferred_velocity, a.max_speed);
    if (params_.keep_right > 0 && !permits_all(std::span<const HalfPlane>(planes_).subspan(hard), target)) {
      target += Vec2{target.y, -target.x} * params_.keep_right;
    }
    Vec2 v;
    const std::size_t failed = solve_planes(planes_, a.max_speed, target, false, v);
    if (failed < planes_.size()) {
      ++stats_.infeasible;
      if (failed >= hard) {
        minimise_violation(planes_, hard, failed, a.max_speed, v, projected_);
      } else {
        // The walls alone leave nothing: met as nearly as can be, the agents ignored.
        minimise_violation(own, 0, failed, a.max_speed, v, projected_);
      }
    }
    new_velocities[i] = clip(v, a.max_speed);  // rounding may leave the disc by an ulp
  }
  return AvoidanceStatus::ok;
}

// ---------------------------------------------------------------------------------------------
// SampledVoSolver

SampledVoSolver::SampledVoSolver(SampledVoParams params) : params_(params) {
  check_common(params_.time_horizon, params_.neighbour_distance);
  if (params_.samples == 0) throw BuildError("SampledVoSolver: samples must be >= 1");
  if (!(params_.collision_weight >= 0) || !std::isfinite(params_.collision_weight)) {
    throw BuildError("SampledVoSolver: collision_weight must be finite and >= 0");
  }
  // Vogel's sunflower spiral: even cover of the disc, deterministic.
  const double golden_angle = std::numbers::pi * (3 - std::sqrt(5.0));
  unit_samples_.reserve(params_.samples + 1);
  unit_samples_.push_back(Vec2{});  // rest
  for (std::size_t k = 0; k < params_.samples; ++k) {
    const double radius = std::sqrt((static_cast<double>(k) + 0.5) / static_cast<double>(params_.samples));
    const double angle = golden_angle * static_cast<double>(k);
    unit_samples_.push_back(Vec2{radius * std::cos(angle), radius * std::sin(angle)});
  }
}

AvoidanceStatus SampledVoSolver::solve(std::span<const OrcaAgent> agents, double dt,
                                       std::span<Vec2> new_velocities) {
  stats_ = {};
  if (const AvoidanceStatus s = check(agents, dt, new_velocities); s != AvoidanceStatus::ok) return s;
  neighbours_.rebuild(agents, params_.neighbour_distance, params_.time_horizon);
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const OrcaAgent& a = agents[i];
    const Vec2 preferred = clip(a.preferred_velocity, a.max_speed);
    if (!a.avoids) {
      new_velocities[i] = preferred;
      continue;
    }
    const auto near = neighbours_.nearest(i, params_.max_neighbours);
    stats_.neighbours += near.size();
    // The penalty of c, stopping early once it reaches `bound` (it only grows).
    const auto penalty = [&](Vec2 c, double bound) {
      double total = length(c - preferred);
      for (const auto& nb : near) {
        if (total >= bound) break;
        const OrcaAgent& b = agents[nb.index];
        const Vec2 own = b.avoids ? 2 * c - a.velocity : c;
        const double t = time_to_collision(b.position - a.position, own - b.velocity, a.radius + b.radius);
        if (t <= params_.time_horizon) total += params_.collision_weight / std::max(t, dt);
      }
      return total;
    };
    Vec2 best = preferred;
    double best_penalty = penalty(preferred, std::numeric_limits<double>::infinity());
    for (const Vec2 unit : unit_samples_) {
      const Vec2 c = unit * a.max_speed;
      if (const double p = penalty(c, best_penalty); p < best_penalty) {
        best_penalty = p;
        best = c;
      }
    }
    new_velocities[i] = best;
  }
  return AvoidanceStatus::ok;
}

}  // namespace waymark::steer
