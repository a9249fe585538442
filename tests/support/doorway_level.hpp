#pragma once
// A level made for the agent-class tests: two 10 × 10 rooms side by side (x from 0 to 20,
// z from 0 to 10, floor at y = 0), split at x = 10 by a wall 0.5 thick and 3 high with one
// doorway `door_width` wide centred at z = 5. An agent fits through when its diameter is below
// the doorway's width (less Recast's rounding to cells), so a bake with a small and a large
// class through a doorway between their diameters gives two answers from one geometry.

#include <array>
#include <cstdint>
#include <sstream>
#include <string>

#include "waymark/core/triangle_mesh.hpp"

namespace waymark::test {

/// The doorway level as OBJ text (Y up, faces counter-clockwise seen from outside).
inline std::string doorway_level_obj(double door_width) {
  std::ostringstream obj;
  obj.precision(17);
  int base = 1;
  // A box from lo to hi: 8 vertices, 12 triangles facing out.
  const auto box = [&](std::array<double, 3> lo, std::array<double, 3> hi) {
    for (int i = 0; i < 8; ++i)
      obj << "v " << (i & 1 ? hi[0] : lo[0]) << ' ' << (i & 2 ? hi[1] : lo[1]) << ' ' << (i & 4 ? hi[2] : lo[2]) << '\n';
    constexpr int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (const auto& q : quads) {
      obj << "f " << base + q[0] << ' ' << base + q[1] << ' ' << base + q[2] << '\n';
      obj << "f " << base + q[0] << ' ' << base + q[2] << ' ' << base + q[3] << '\n';
    }
    base += 8;
  };
  box({0, -0.5, 0}, {20, 0, 10});                                 // the floor slab, top at y = 0
  box({9.75, 0, -0.5}, {10.25, 3, 5 - door_width / 2});           // the wall below the doorway
  box({9.75, 0, 5 + door_width / 2}, {10.25, 3, 10.5});           // and above it
  return obj.str();
}

}  // namespace waymark::test
