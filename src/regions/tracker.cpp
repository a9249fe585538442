#include "waymark/regions/tracker.hpp"

#include <string>

#include "waymark/core/errors.hpp"

namespace waymark::regions {

RegionTracker::RegionTracker(std::size_t object_count) {
  if (object_count > max_tracked_objects)
    throw BuildError("a region tracker follows at most " + std::to_string(max_tracked_objects) + " objects, asked for " +
                     std::to_string(object_count));
  regions_.assign(object_count, no_region);
}

}  // namespace waymark::regions
