// Simulation: agents travelling the off-mesh links of their paths (simulation.hpp).
#include <algorithm>

#include "waymark/steer/simulation.hpp"

namespace waymark::steer {

void Simulation::set_planned_path(Agent& a) {
  a.links.clear();
  a.next_link = 0;
  const auto smooth = [&](std::span<const Vec2> stretch) {
    smooth_for_disc(obstacles_, stretch, wall_radius(a), a.params.avoid_mask, params_.smoothing_window, smoothed_);
  };
  if (path_links_.empty()) {
    smooth(raw_path_);
    a.follower.set_path(smoothed_, false);
    return;
  }
  // Each stretch between links is smoothed alone: a link's two ends stay waypoints.
  joined_.clear();
  std::size_t begin = 0;
  const auto add_stretch = [&](std::size_t end) {  // raw_path_[begin, end)
    stretch_.assign(raw_path_.begin() + static_cast<std::ptrdiff_t>(begin), raw_path_.begin() + static_cast<std::ptrdiff_t>(end));
    smooth(stretch_);
    joined_.insert(joined_.end(), smoothed_.begin(), smoothed_.end());
  };
  for (const PathLink& l : path_links_) {
    add_stretch(l.point + 1);
    a.links.push_back({joined_.size() - 1, l.link, l.user_id, l.length});
    begin = l.point + 1;  // the link's end begins the next stretch
  }
  add_stretch(raw_path_.size());
  a.follower.set_path(joined_, false);
}

bool Simulation::travel_link(Agent& a, double dt) {
  if (!a.on_link) {
    if (a.next_link >= a.links.size() || a.stopped || a.follower.empty()) return false;
    const PathLink& l = a.links[a.next_link];
    if (a.follower.current() <= l.point) return false;  // its start not reached yet
    const auto w = a.follower.waypoints();
    a.on_link = true;
    a.travel = {l.link, l.user_id, w[l.point], w[l.point + 1], 0};
    a.link_time = 0;
    a.link_duration = l.length / a.params.max_speed;
    ++a.next_link;
  }
  a.link_time += dt;
  const double t = a.link_duration > 0 ? std::min(1.0, a.link_time / a.link_duration) : 1.0;
  a.travel.progress = t;
  a.state.position = lerp(a.travel.from, a.travel.to, t);
  a.state.velocity = a.link_duration > 0 ? (a.travel.to - a.travel.from) / a.link_duration : Vec2{};
  if (t >= 1) {  // landed, at rest
    a.on_link = false;
    a.state.velocity = {};
    a.anchor = a.state.position;
    a.still_for = 0;
  }
  return true;
}

std::optional<LinkTravel> Simulation::link_travel(AgentId id) const {
  const Agent& a = agents_[id.value];
  if (!a.on_link) return std::nullopt;
  return a.travel;
}

std::span<const PathLink> Simulation::path_links(AgentId id) const {
  const Agent& a = agents_[id.value];
  return std::span<const PathLink>(a.links).subspan(std::min(a.next_link, a.links.size()));
}

}  // namespace waymark::steer
