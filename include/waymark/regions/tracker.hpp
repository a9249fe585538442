#pragma once
/// @file RegionTracker: which region each moving object is in, and the enter/exit events
/// when that changes.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/regions/regions.hpp"

namespace waymark::regions {

/// An object crossed into or out of a region.
struct RegionEvent {
  enum class Kind : std::uint8_t { enter, exit };
  Kind kind = Kind::enter;
  std::uint32_t object = 0;
  RegionId region = no_region;
  friend bool operator==(const RegionEvent&, const RegionEvent&) = default;
};

/// One object's position in an update.
struct TrackedObject {
  std::uint32_t id = 0;  ///< [Limit: < the tracker's object_count()]
  Vec3 position;         ///< world units
};

/// The most objects a tracker may be built for: 2^24 (5 bytes each).
inline constexpr std::size_t max_tracked_objects = std::size_t{1} << 24;

/// Remembers the region of objects 0..object_count()-1 (all start in no region) and reports
/// the changes of each update.
///
/// An update resolves each position to a region with a caller's function — SeedIndex::
/// region_at for seed areas (the nearest seed among the overlapping areas that contain the
/// point), or a labelled grid (region_at_cell) — and reports, per object whose region changed,
/// `exit` of the old region (unless it was none) then `enter` of the new one (unless it is
/// none), in the order the objects were given. Objects not in an update keep their region.
///
/// Allocates nothing per update: the events go into the caller's vector, which grows only past
/// its largest size so far (at most two events per object). Not thread-safe; never throws.
class RegionTracker {
 public:
  /// Objects 0..object_count-1. Throws BuildError above max_tracked_objects.
  explicit RegionTracker(std::size_t object_count);

  [[nodiscard]] std::size_t object_count() const { return regions_.size(); }
  /// The region an object was last seen in (no_region before its first update, and for ids
  /// beyond object_count()).
  [[nodiscard]] RegionId region_of(std::uint32_t object) const {
    return object < regions_.size() ? regions_[object] : no_region;
  }

  /// Moves the objects to their new positions; `events` is cleared and filled with what
  /// changed. `resolve(Vec3) -> RegionId` names the region of a position. Returns how many
  /// objects were ignored because their id is not below object_count().
  template <class Resolve>
  std::size_t update(std::span<const TrackedObject> objects, const Resolve& resolve, std::vector<RegionEvent>& events) {
    events.clear();
    std::size_t ignored = 0;
    for (const TrackedObject& o : objects) {
      if (o.id >= regions_.size()) {
        ++ignored;
        continue;
      }
      move(o.id, static_cast<RegionId>(resolve(o.position)), events);
    }
    return ignored;
  }

  /// Takes an object out of every region (an `exit` event when it was in one), as when it is
  /// destroyed. Appends to `events`.
  void forget(std::uint32_t object, std::vector<RegionEvent>& events) {
    if (object < regions_.size()) move(object, no_region, events);
  }

 private:
  void move(std::uint32_t object, RegionId to, std::vector<RegionEvent>& events) {
    const RegionId from = regions_[object];
    if (from == to) return;
    if (from != no_region) events.push_back({RegionEvent::Kind::exit, object, from});
    if (to != no_region) events.push_back({RegionEvent::Kind::enter, object, to});
    regions_[object] = to;
  }

  std::vector<RegionId> regions_;
};

/// The region of the grid cell under `p` (x, y in world units; z ignored), or no_region off
/// the map: a RegionTracker resolver for grid regions.
/// `regions` must be labels of `map` (as many elements as cells).
[[nodiscard]] inline RegionId region_at_cell(const grid::GridMap& map, const Regions& regions, Vec3 p) {
  const auto cell = map.world_to_cell(drop_z(p));
  return cell ? regions.label(map.cell(cell->x, cell->y).value) : no_region;
}

}  // namespace waymark::regions
