#pragma once
/// @file Clipping a segment or ray to an axis-aligned box (Liang–Barsky): the one clip shared
/// by the visibility graph's cell walk and the obstacle world's raycasts. Inline, no
/// allocation.

#include <algorithm>

#include "waymark/core/geometry.hpp"

namespace waymark {

/// Narrows [t0, t1] to the parameters t at which o + t·d lies in the closed box [lo, hi], one
/// axis at a time; false when nothing is left (t0 > t1). An axis along which d is 0 keeps the
/// range when o lies within the box's extent on it and empties it otherwise. The caller sets
/// [t0, t1] first: [0, 1] for the segment from o to o + d, [0, max distance] for a ray.
inline bool clip_to_box(Vec2 o, Vec2 d, Vec2 lo, Vec2 hi, double& t0, double& t1) {
  if (d.x == 0) {
    if (o.x < lo.x || o.x > hi.x) return false;
  } else {
    const double a = (lo.x - o.x) / d.x, b = (hi.x - o.x) / d.x;
    t0 = std::max(t0, std::min(a, b));
    t1 = std::min(t1, std::max(a, b));
  }
  if (d.y == 0) {
    if (o.y < lo.y || o.y > hi.y) return false;
  } else {
    const double a = (lo.y - o.y) / d.y, b = (hi.y - o.y) / d.y;
    t0 = std::max(t0, std::min(a, b));
    t1 = std::min(t1, std::max(a, b));
  }
  return t0 <= t1;
}

}  // namespace waymark
