#include "waymark/steer/behaviours.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace waymark::steer {

bool AgentParams::valid() const {
  const auto positive = [](double x) { return std::isfinite(x) && x > 0; };
  return positive(radius) && positive(mass) && positive(max_speed) && positive(max_force) && positive(response_time) &&
         positive(slow_down_radius) && positive(braking_share) && braking_share <= 1 && positive(waypoint_radius) &&
         std::isfinite(look_ahead) && look_ahead >= 0 && layer >= 0 && layer < layer_count;
}

std::uint64_t Random::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

Vec2 steer_toward(const AgentParams& p, const AgentState& s, Vec2 desired_velocity) {
  return (desired_velocity - s.velocity) * (p.mass / p.response_time);
}

Vec2 seek(const AgentParams& p, const AgentState& s, Vec2 target) {
  return steer_toward(p, s, normalized(target - s.position) * p.max_speed);
}

Vec2 flee(const AgentParams& p, const AgentState& s, Vec2 threat, double panic_distance) {
  const Vec2 away = s.position - threat;
  if (length_squared(away) >= panic_distance * panic_distance) return {};
  return steer_toward(p, s, normalized(away) * p.max_speed);
}

Vec2 arrive(const AgentParams& p, const AgentState& s, Vec2 target, double dt) {
  const Vec2 to = target - s.position;
  const double d = length(to);
  if (d <= 0) return steer_toward(p, s, {});
  const double braking = p.braking_share * p.max_force / p.mass;
  double speed = std::min(p.max_speed, p.max_speed * d / p.slow_down_radius);
  speed = std::min(speed, std::sqrt(2 * braking * d));
  if (dt > 0) speed = std::min(speed, d / dt);
  return steer_toward(p, s, to * (speed / d));
}

Vec2 wander(const AgentParams& p, const AgentState& s, WanderState& w, const WanderParams& params, double dt) {
  w.angle += w.random.uniform(-1, 1) * params.jitter * dt;
  const Vec2 h = s.heading;
  const Vec2 local{std::cos(w.angle) * params.radius, std::sin(w.angle) * params.radius};
  const Vec2 offset{h.x * local.x - h.y * local.y, h.y * local.x + h.x * local.y};  // local turned to the heading
  return seek(p, s, s.position + h * params.distance + offset);
}

Vec2 separation(const AgentParams& p, const AgentState& s, std::span<const Vec2> positions, std::span<const double> radii,
                double range) {
  Vec2 push;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const Vec2 away = s.position - positions[i];
    const double d = length(away);
    const double gap = d - p.radius - radii[i];
    if (gap >= range || d <= 0) continue;
    push += away * ((1 - std::max(gap, 0.0) / range) / d);
  }
  return truncate(push, 1) * p.max_force;
}

void PathFollower::set_path(std::span<const Vec2> waypoints, bool loop, std::uint64_t laps) {
  waypoints_.assign(waypoints.begin(), waypoints.end());
  current_ = 0;
  laps_ = 0;
  max_laps_ = laps;
  loop_ = loop;
}

void PathFollower::advance(const AgentParams& p, Vec2 position) {
  const double r2 = p.waypoint_radius * p.waypoint_radius;
  // At most one lap per call, so a loop whose waypoints all lie within reach cannot spin.
  for (std::size_t guard = 0; guard < waypoints_.size(); ++guard) {
    if (length_squared(waypoints_[current_] - position) > r2) return;
    if (current_ + 1 < waypoints_.size()) {
      ++current_;
    } else if (wraps()) {
      current_ = 0;
      ++laps_;
    } else {
      return;
    }
  }
}

Vec2 PathFollower::force(const AgentParams& p, const AgentState& s, double dt) {
  if (waypoints_.empty()) return {};
  advance(p, s.position);
  const Vec2 b = waypoints_[current_];
  if (on_last()) return arrive(p, s, b, dt);
  const bool first = current_ == 0 && laps_ == 0;
  if (first) return seek(p, s, b);
  const Vec2 a = waypoints_[current_ == 0 ? waypoints_.size() - 1 : current_ - 1];
  const Segment2 segment{a, b};
  const Vec2 along = segment.closest_point(s.position);
  const double left = distance(along, b);
  const Vec2 target = left <= p.look_ahead ? b : along + normalized(b - a) * p.look_ahead;
  return seek(p, s, target);
}

Vec2 avoid_obstacles(const AgentParams& p, const AgentState& s, const ObstacleWorld& world,
                     const AvoidanceParams& params) {
  const double ahead = params.min_look + length(s.velocity) * params.look_time;
  if (ahead <= 0) return {};
  const Vec2 h = s.heading;
  const double c = std::cos(params.whisker_angle), sn = std::sin(params.whisker_angle);
  const struct {
    Vec2 direction;
    double length;
  } rays[] = {{h, ahead},
              {{h.x * c - h.y * sn, h.y * c + h.x * sn}, ahead * params.whisker_share},
              {{h.x * c + h.y * sn, h.y * c - h.x * sn}, ahead * params.whisker_share}};
  Vec2 push;
  for (const auto& ray : rays) {
    if (ray.length <= 0) continue;
    // The ray reaches past the disc's rim: only what lies beyond the radius is ahead of it.
    const std::optional<RayHit> hit = world.raycast(s.position, ray.direction, ray.length + p.radius, p.avoid_mask);
    if (!hit) continue;
    const double nearness = 1 - std::max(hit->distance - p.radius, 0.0) / ray.length;
    push += hit->normal * nearness;
  }
  return truncate(push, 1) * (p.max_force * params.strength);
}

Vec2 blend(std::span<const WeightedForce> forces, double max_force) {
  Vec2 sum;
  for (const WeightedForce& f : forces) sum += f.force * f.weight;
  return truncate(sum, max_force);
}

namespace {

/// Moves `position` by `move` without crossing a solid; returns the surface normal it stopped
/// at, or a zero vector when it went the whole way.
Vec2 sweep_point(const ObstacleWorld& world, Vec2& position, Vec2 move, LayerMask mask) {
  const double d = length(move);
  if (d <= 0) return {};
  const Vec2 dir = move / d;
  const std::optional<RayHit> hit = world.raycast(position, dir, d + move_skin, mask);
  if (!hit) {
    position += move;
    return {};
  }
  position += dir * std::max(0.0, hit->distance - move_skin);
  return hit->normal;
}

Vec2 without_component_into(Vec2 v, Vec2 normal) {
  const double into = dot(v, normal);
  return into < 0 ? v - normal * into : v;
}

}  // namespace

MoveResult move_disc(const ObstacleWorld& world, AgentState& s, double radius, double dt, LayerMask mask,
                     std::vector<Contact>& contacts) {
  MoveResult result;
  Vec2 remaining = s.velocity * dt;
  for (int i = 0; i < move_iterations && length_squared(remaining) > 0; ++i) {
    const Vec2 from = s.position;
    const Vec2 normal = sweep_point(world, s.position, remaining, mask);
    if (normal == Vec2{}) break;
    result.blocked = true;
    remaining = without_component_into(remaining - (s.position - from), normal);
    s.velocity = without_component_into(s.velocity, normal);
  }
  for (int i = 0; i < move_iterations + 1; ++i) {
    if (world.disc_contacts(s.position, radius, mask, contacts) == 0) break;
    const Contact& deepest =
        *std::max_element(contacts.begin(), contacts.end(), [](const Contact& a, const Contact& b) { return a.depth < b.depth; });
    if (deepest.depth <= 0) break;
    result.pushed = true;
    sweep_point(world, s.position, deepest.normal * deepest.depth, mask);
    s.velocity = without_component_into(s.velocity, deepest.normal);
  }
  const double speed = length(s.velocity);
  if (speed > 1e-12) s.heading = s.velocity / speed;
  return result;
}

bool disc_can_pass(const ObstacleWorld& world, Vec2 a, Vec2 b, double radius, LayerMask mask) {
  const Vec2 d = b - a;
  const double len = length(d);
  if (len <= 0) return true;
  const Vec2 dir = d / len;
  // Side rays a hair inside the rim, so a disc resting against a wall may still slide along it.
  const Vec2 side = Vec2{-dir.y, dir.x} * (radius * (1 - 1e-3));
  const double reach = len + radius;
  return !world.raycast(a, dir, reach, mask) && !world.raycast(a + side, dir, reach, mask) &&
         !world.raycast(a - side, dir, reach, mask);
}

void smooth_for_disc(const ObstacleWorld& world, std::span<const Vec2> path, double radius, LayerMask mask,
                     std::size_t window, std::vector<Vec2>& out) {
  out.clear();
  if (path.empty()) return;
  out.push_back(path.front());
  std::size_t i = 0;
  const std::size_t last = path.size() - 1;
  while (i < last) {
    std::size_t j = std::min(last, i + std::max<std::size_t>(window, 1));
    while (j > i + 1 && !disc_can_pass(world, path[i], path[j], radius, mask)) --j;
    out.push_back(path[j]);
    i = j;
  }
}

}  // namespace waymark::steer
