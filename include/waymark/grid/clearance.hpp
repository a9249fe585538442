#pragma once
/// @file Clearance on grid maps, for agents of several sizes (HAA*-style): ClearanceMap holds,
/// for every cell, how far its centre is from the nearest wall; SizeClassMap is the map as an
/// agent of one radius sees it, a GridMap any grid planner searches.
///
/// The rule (docs/clearance.md): a disc of radius r fits a cell when the disc centred on the
/// cell's centre overlaps no blocked cell and nothing outside the map (touching is allowed).
/// Blocked cells are squares, so a cell whose centre is (kx, ky) cells from a blocked cell's
/// centre is cell_size·√(max(0,|kx|−½)² + max(0,|ky|−½)²) from it; the outside of the map is
/// as far as the nearest edge. Every passable cell therefore has clearance ≥ ½·cell_size, and a
/// straight corridor w cells wide fits a disc on a cell centre up to:
///   - w odd:  r ≤ w/2 cells (the middle cell; 1 cell: 0.5, 3 cells: 1.5, 5 cells: 2.5);
///   - w even: r ≤ (w−1)/2 cells, no more than the odd width below (2 cells: 0.5, 4 cells: 1.5),
///     because the corridor's centre line runs along cell edges, not through centres.
/// So r ≤ 0.5 passes one-cell gaps, r in (0.5, 1.5] needs three cells, (1.5, 2.5] five.
///
/// Paths: on a SizeClassMap searched 4-connected or under DiagonalRule::no_corner_cutting, the
/// straight segments between consecutive cell centres keep the whole disc clear, not only at
/// the centres (a cardinal step's segment is nearest a wall at one of its ends; a diagonal
/// step's lies in the square of the four centres around the corner it crosses, which is never
/// nearer a wall than the nearest of those four cells, all of which fit under that rule).
/// Corner-cutting rules (always, at_most_one_obstacle) and smoothed or any-angle paths lose
/// that guarantee (docs/clearance.md says what would keep it).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "waymark/grid/grid_map.hpp"

namespace waymark::grid {

struct ClearanceParams {
  /// Clearances are capped here (world units): set it to the largest agent radius that will be
  /// asked about. Building costs O(cells × max_clearance / cell_size), and an edit's effect
  /// reaches about that far. [Limit: finite, > 0, max_clearance / cell_size ≤ 4096; the
  /// constructor throws BuildError otherwise]
  double max_clearance = 0;
};

/// What ClearanceMap::sync() did.
struct ClearanceSync {
  CellRect changed;                ///< the bounding box of the cells whose clearance changed (empty: none)
  std::size_t changed_cells = 0;   ///< how many cells' clearance changed
  std::size_t recomputed_cells = 0;  ///< how many cells were recomputed (the cost of the sync)
  bool rebuilt = false;            ///< the map's change log no longer reached back: recomputed all
};

/// Every cell's clearance: the Euclidean distance, in world units, from its centre to the
/// nearest point of a blocked cell or of the outside of the map, capped at max_clearance
/// (blocked cells have 0). Exact: computed in integers (squared half-cells) by a pass along
/// each row (the nearest blocked cell in the row) and one across rows within the cap, in
/// O(cells × max_clearance / cell_size); 8 bytes per cell.
///
/// Holds a reference to the map, which must outlive it. Kept current under edits: after the
/// map is edited the clearance is stale until sync(), which recomputes only the cells within
/// the cap of each passability edit (cost edits change nothing here), or all of them when the
/// map's change log no longer reaches back. sync() allocates nothing. Read-only between syncs
/// (any number of threads may read it); sync() only while nothing reads it.
class ClearanceMap {
 public:
  /// [Limit: see ClearanceParams; throws BuildError]
  ClearanceMap(const GridMap& map, ClearanceParams params);
  ClearanceMap(const GridMap&&, ClearanceParams) = delete;  // would dangle

  [[nodiscard]] const GridMap& map() const { return *map_; }
  [[nodiscard]] double max_clearance() const { return max_clearance_; }
  /// The smallest k with (k − ½)·cell_size ≥ max_clearance: an edit changes the clearance only
  /// of cells fewer than k cells (in x and in y) from it.
  [[nodiscard]] int reach() const { return reach_; }

  /// The clearance of `c` as of the last sync, world units, in [0, max_clearance].
  /// [Limit: map().contains(c); unchecked]
  [[nodiscard]] double clearance(CellId c) const;
  /// The same by coordinates; 0 outside the map.
  [[nodiscard]] double clearance(int x, int y) const { return map_->in_bounds(x, y) ? clearance(map_->cell(x, y)) : 0.0; }
  /// Whether a disc of `radius` (world units) centred on `c`'s centre overlaps no blocked cell
  /// and nothing outside the map: `c` was passable and its clearance is ≥ radius, as of the last
  /// sync. Any radius ≤ ½·cell_size fits every passable cell. False for a radius above
  /// max_clearance (the cap hides whether it fits). [Limit: map().contains(c); unchecked]
  [[nodiscard]] bool fits(CellId c, double radius) const { return squared_[c.value] != 0 && clearance(c) >= radius; }

  /// Raises the cap (for a size class larger than any so far): recomputes every cell from the
  /// map as it is now, in O(cells × max_clearance / cell_size), allocating a little; the map is
  /// then synced. Nothing happens when `max_clearance` is not above the cap. SizeClassMaps
  /// on this clearance stay valid (their radius is still ≤ the cap). Not thread-safe, as
  /// sync(). [Limit: as ClearanceParams::max_clearance; throws BuildError]
  void raise_max_clearance(double max_clearance);

  /// Whether the map was edited since the last sync().
  [[nodiscard]] bool stale() const { return map_->edited_since(synced_version_); }
  /// The map's version the clearances reflect.
  [[nodiscard]] std::uint64_t synced_version() const { return synced_version_; }
  /// Brings the clearances up to date with the map's edits (a no-op when they are). Allocates
  /// nothing. Not thread-safe: nothing may read the clearances meanwhile.
  ClearanceSync sync();

 private:
  /// Row pass: row_[cell] = f(distance in cells to the nearest blocked cell in the row, the
  /// outside included, capped at reach_), for columns [xa, xb) of rows [y0, y1).
  void compute_rows(int y0, int y1, int xa, int xb);
  /// Column pass over `area`: squared_ from row_ of the rows within reach; reports changes.
  void compute_cells(CellRect area, ClearanceSync& out);
  /// Recomputes everything an edit of `area` can change.
  void recompute(CellRect area, ClearanceSync& out);
  /// Sets the cap and the tables that follow from it, and recomputes every cell.
  void rebuild(double max_clearance);

  const GridMap* map_;
  double max_clearance_;
  double half_cell_;  ///< cell_size / 2: squared_ counts squared half-cells
  int reach_;
  std::uint64_t synced_version_;
  /// f(k) = max(0, 2k − 1)²: the squared distance in half-cells from a cell centre to a cell
  /// k cells away along one axis; k = 0..reach_. f(reach_) is the cap.
  std::vector<std::uint32_t> f_;
  std::vector<std::uint32_t> row_;      ///< per cell: the row pass
  std::vector<std::uint32_t> squared_;  ///< per cell: (2·clearance / cell_size)², capped at f(reach_)
  std::vector<std::uint32_t> scratch_;  ///< one row of the column pass
};

/// What SizeClassMap::sync() did.
struct SizeClassSync {
  std::size_t fit_changes = 0;   ///< cells that became passable or blocked for this radius
  std::size_t cost_changes = 0;  ///< cells whose cost multiplier was copied again
  bool rebuilt = false;          ///< the base's change log no longer reached back: compared every cell
};

/// The map as an agent of one radius sees it: a GridMap of the base map's size and placement
/// where a cell is passable iff the disc of that radius fits it (ClearanceMap::fits), with the
/// base map's cost multipliers (terrain and zones, copied as terrain). Build a GridPlanner (or
/// any grid search) on map() to plan for agents of that size.
///
/// Several radii share one ClearanceMap (one SizeClassMap per size class). Kept current under
/// edits of the base map: sync() syncs the clearance first (a no-op when another size class
/// has), then replays the base's change log, testing only the cells nearer than the radius to each
/// passability edit and copying the multipliers of each cost edit, and edits map() only
/// where the fit or a multiplier changed: one logged edit per run of cells in a row. So map()'s
/// own change log stays small, and planners on it re-sync incrementally (call their sync()
/// after this one). After warm-up (once map()'s change log has grown to its full size, 2 ×
/// ChangeLog::capacity edits) sync() allocates nothing.
///
/// map() follows the base (GridMap::follow): from an edit of the base until sync(), map() is
/// behind() and everything built on it is stale — planners, jump tables and D* Lite refuse
/// (stale_world) instead of planning on the old cells (a door the base closed). An edit that
/// changes no fit leaves map() as it was: after sync() its planners need no sync of their own.
///
/// map() keeps its address when the SizeClassMap is moved, so planners built on it stay valid.
/// Holds a reference to the ClearanceMap (and through it the base map): both must outlive it.
class SizeClassMap {
 public:
  /// Syncs `clearance` first. O(cells).
  /// [Limit: radius finite, 0 ≤ radius ≤ clearance.max_clearance(); throws BuildError otherwise]
  SizeClassMap(ClearanceMap& clearance, double radius);
  SizeClassMap(ClearanceMap&&, double) = delete;  // would dangle

  /// The map to plan on. Do not edit it: the next sync() would not see the edit. Not of a
  /// temporary: that map goes with it (`GridPlanner(SizeClassMap(c, r).map())` does not compile).
  [[nodiscard]] const GridMap& map() const& { return *map_; }
  const GridMap& map() const&& = delete;  // a temporary's: would dangle
  [[nodiscard]] const GridMap& base() const { return clearance_->map(); }
  [[nodiscard]] const ClearanceMap& clearance() const { return *clearance_; }
  [[nodiscard]] double radius() const { return radius_; }

  /// Whether the base map was edited since the last sync().
  [[nodiscard]] bool stale() const { return synced_version_ != base().version(); }
  /// Brings map() up to date with the base map's edits (syncing the clearance first). Not
  /// thread-safe: nothing may use the clearance, map() or a planner on it meanwhile.
  SizeClassSync sync();

 private:
  /// Makes the fit of every cell of `area` (clipped) current; returns how many changed.
  std::size_t refit(CellRect area);
  /// Copies the base's multipliers of `area` (clipped); returns how many changed.
  std::size_t copy_costs(CellRect area);

  ClearanceMap* clearance_;
  double radius_;
  std::uint64_t synced_version_;
  std::unique_ptr<GridMap> map_;
};

}  // namespace waymark::grid
