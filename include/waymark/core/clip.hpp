#pragma once
/// @file Clipping a segment or ray to an axis-aligned box (Liang–Barsky): the one clip shared
/// by the visibility graph's cell walk and the obstacle world's raycasts. Inline, no
/// allocation.

#include <algorithm>

#include "waymark/core/geometry.hpp"

namespace waymark {

/// One axis of clip_to_box: narrows [t0, t1] to where o + t·d lies in [lo, hi]; false when
/// d is 0 and o lies outside (the range is then left as it was).
inline bool clip_axis(double o, double d, double lo, double hi, double& t0, double& t1) {
  if (d == 0) return o >= lo && o <= hi;
  const double a = (lo - o) / d, b = (hi - o) / d;
  t0 = std::max(t0, std::min(a, b));
  t1 = std::min(t1, std::max(a, b));
  return true;
}

/// Narrows [t0, t1] to the parameters t at which o + t·d lies in the closed box [lo, hi], one
/// axis at a time; false when nothing is left (t0 > t1). An axis along which d is 0 keeps the
/// range when o lies within the box's extent on it and empties it otherwise. The caller sets
/// [t0, t1] first: [0, 1] for the segment from o to o + d, [0, max distance] for a ray.
inline bool clip_to_box(Vec2 o, Vec2 d, Vec2 lo, Vec2 hi, double& t0, double& t1) {
  return clip_axis(o.x, d.x, lo.x, hi.x, t0, t1) && clip_axis(o.y, d.y, lo.y, hi.y, t0, t1) && t0 <= t1;
}

}  // namespace waymark
