#pragma once
/// @file Priority policies: what makes the best-first engine A*, weighted A*, Dijkstra or
/// greedy best-first. Each maps (g, h) to the open-list key.

#include <cstdint>

#include "waymark/core/cost.hpp"

namespace waymark::search {

/// Rounds keys to a multiple of `quantum` (0: keys stay exact).
///
/// Why: A*'s tie-break toward larger g only works on *equal* keys. On a grid with √2
/// diagonals, f = g + h of two nodes is often mathematically equal but computed along
/// different move orders, so the doubles differ in the last bits and the tie-break never
/// fires: the search fans out over the whole region of optimal paths. Rounding restores the
/// ties (street maps: 20% fewer expansions).
///
/// Exactness: quantizing moves each key by at most quantum/2, so the cost found is at most
/// optimal + quantum. When every cost is a + b√2 steps (uniform grids), distinct f values of
/// paths up to 10^4 steps differ by more than 10^-5 steps (continued fractions of √2), so a
/// quantum of 2^-20 steps never merges them and A* stays exactly optimal.
struct KeyQuantizer {
  KeyQuantizer() = default;
  explicit KeyQuantizer(Cost quantum) : quantum_(quantum), inverse_(quantum > 0 ? 1 / quantum : 0) {}

  [[nodiscard]] Cost quantum() const { return quantum_; }

  Cost operator()(Cost key) const {
    if (inverse_ == 0) return key;
    const Cost steps = key * inverse_;
    // Beyond this the conversion would overflow (and such keys are exact integers anyway).
    constexpr Cost largest_rounded = 0x1p62;
    if (!(steps >= 0 && steps < largest_rounded)) return key;
    return static_cast<Cost>(static_cast<std::int64_t>(steps + 0.5)) * quantum_;
  }

 private:
  Cost quantum_ = 0;
  Cost inverse_ = 0;
};

/// f = g + h. Optimal with an admissible heuristic (see KeyQuantizer for its rounding).
struct AStarPriority {
  static constexpr bool uses_heuristic = true;
  KeyQuantizer quantize{};
  Cost operator()(Cost g, Cost h) const { return quantize(g + h); }
};

/// f = g + w·h. With an admissible heuristic the cost found is at most w × optimal.
struct WeightedAStarPriority {
  static constexpr bool uses_heuristic = true;
  static constexpr double default_weight = 1.5;
  double weight = default_weight;  ///< inflation factor. [Limit: >= 1]
  constexpr Cost operator()(Cost g, Cost h) const { return g + weight * h; }
};

/// f = g. Uniform-cost search; the heuristic is never evaluated.
struct DijkstraPriority {
  static constexpr bool uses_heuristic = false;
  constexpr Cost operator()(Cost g, Cost) const { return g; }
};

/// f = h. Fast, no cost guarantee.
struct GreedyPriority {
  static constexpr bool uses_heuristic = true;
  constexpr Cost operator()(Cost, Cost h) const { return h; }
};

}  // namespace waymark::search
