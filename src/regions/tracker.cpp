#include "waymark/regions/tracker.hpp"

#include <string>

#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"

namespace waymark::regions {

RegionTracker::RegionTracker(std::size_t object_count) {
  if (object_count > max_tracked_objects)
    throw BuildError("a region tracker follows at most " + number_text(max_tracked_objects) + " objects, asked for " +
                     number_text(object_count));
  regions_.assign(object_count, no_region);
}

}  // namespace waymark::regions
