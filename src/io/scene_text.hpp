#pragma once
// How scene messages spell numbers, points and counts (scene.cpp, scene_map_check.cpp; not
// installed).

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>

#include "waymark/core/geometry.hpp"

namespace waymark::io::scene_text {

/// An integer as digits, any other number to 15 significant digits.
inline std::string spell(double v) {
  constexpr double exact_integers = 1e15;
  if (v == std::floor(v) && std::abs(v) < exact_integers) return std::to_string(static_cast<long long>(v));
  std::ostringstream out;
  out.precision(15);
  out << v;
  return out.str();
}

inline std::string spell(Vec2 p) {
  std::string s = spell(p.x);  // built up front: GCC 12 misreads "(" + spell(...) (-Wrestrict)
  s.insert(s.begin(), '(');
  s += ", ";
  s += spell(p.y);
  s += ')';
  return s;
}

inline std::string count_text(std::size_t n, const char* noun) { return std::to_string(n) + " " + noun; }

}  // namespace waymark::io::scene_text
