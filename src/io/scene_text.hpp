#pragma once
// How scene messages spell numbers, points and counts (scene.cpp, scene_map_check.cpp; not
// installed).

#include <cstddef>
#include <string>

#include "waymark/core/geometry.hpp"
#include "waymark/core/text.hpp"

namespace waymark::io::scene_text {

/// A number as number_text writes it (the shortest text that reads back as exactly `v`).
inline std::string spell(double v) { return number_text(v); }

/// A distance the check computed, to 15 significant digits (number_text's measure form).
inline std::string spell_measure(double v) {
  constexpr int significant_digits = 15;
  return number_text(v, significant_digits);
}

inline std::string spell(Vec2 p) { return pair_text(p.x, p.y); }

inline std::string count_text(std::size_t n, const char* noun) { return number_text(n) + " " + noun; }

}  // namespace waymark::io::scene_text
