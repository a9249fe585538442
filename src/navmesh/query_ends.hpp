#pragma once
// What both navmesh search spaces are given per query (not installed, not public).

#include "waymark/core/geometry.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/navmesh/query_filter.hpp"

namespace waymark::navmesh::detail {

/// A query's two ends, snapped onto the mesh, and the filter it runs under.
struct QueryEnds {
  PolyId start_poly;
  PolyId goal_poly;
  Vec3 start;
  Vec3 goal;
  QueryFilter filter;
};

}  // namespace waymark::navmesh::detail
