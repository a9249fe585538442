#pragma once
/// @file CoarseFinePlanner: grid paths planned over regions first — a Dijkstra over the region
/// adjacency graph picks a corridor of regions, then A* searches only the cells of those
/// regions — with a search of the whole map when the corridor holds no path.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "waymark/core/ids.hpp"
#include "waymark/core/path.hpp"
#include "waymark/core/status.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/moves.hpp"
#include "waymark/regions/regions.hpp"

namespace waymark::regions {

/// The widest corridor margin accepted (rings of neighbouring regions).
inline constexpr unsigned max_corridor_margin = 16;

struct CoarseFineParams {
  /// Moves of the fine search; use the rule the regions were labelled with.
  grid::DiagonalRule diagonal = grid::DiagonalRule::no_corner_cutting;
  /// Rings of neighbouring regions (in the adjacency graph) added around the corridor: 0 keeps
  /// the regions of the coarse path only. Wider corridors give cheaper paths for more
  /// expansions (docs/regions.md). [Limit: <= max_corridor_margin]
  unsigned corridor_margin = 0;
  /// When the corridor search finds nothing (euclidean regions can be cut in two by walls),
  /// search the whole map instead and say so in CoarseFineStats::fallback.
  bool fallback = true;
};

/// What the last plan() did.
struct CoarseFineStats {
  std::uint64_t coarse_expanded = 0;  ///< regions settled by the coarse Dijkstra
  std::uint64_t fine_expanded = 0;    ///< cells expanded by the corridor search and the fallback
  std::size_t corridor_regions = 0;   ///< regions the corridor search could enter
  bool fallback = false;              ///< the whole map was searched (the corridor held no path)
  double time_s = 0;                  ///< wall time of the whole query
};

/// Coarse-then-fine planning on one grid with its regions (label_grid), both read-only and
/// outliving the planner.
///
/// The path is valid and never cheaper than the optimum; how much dearer depends on the
/// regions (measured in docs/regions.md); with `fallback` on, a path is found whenever one
/// exists. One planner per thread: it owns its scratch (about 64 bytes per cell for the two
/// searches' records), allocating nothing per query after warm-up. Never throws from plan().
/// Refuses (stale_world) once the map was edited after the regions were labelled.
class CoarseFinePlanner {
 public:
  /// Throws BuildError when `regions` does not label `map` (another number of elements) or
  /// `params` break their limits. O(cells).
  CoarseFinePlanner(const grid::GridMap& map, const Regions& regions, const CoarseFineParams& params = {});
  CoarseFinePlanner(const grid::GridMap&&, const Regions&, const CoarseFineParams& = {}) = delete;
  CoarseFinePlanner(const grid::GridMap&, const Regions&&, const CoarseFineParams& = {}) = delete;
  ~CoarseFinePlanner();
  CoarseFinePlanner(const CoarseFinePlanner&) = delete;
  CoarseFinePlanner& operator=(const CoarseFinePlanner&) = delete;

  /// Plans from `start` to `goal`: Success with path(), or Failure (no path; a start or goal
  /// that is blocked or off the map, flagged invalid_query; stale_world).
  Status plan(CellId start, CellId goal);
  /// The last path (empty after a failure). Valid until the next plan().
  [[nodiscard]] const Path<CellId>& path() const;
  [[nodiscard]] const CoarseFineStats& stats() const;
  /// The regions of the last corridor, in coarse-path order (margins not included).
  [[nodiscard]] std::span<const RegionId> corridor() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace waymark::regions
