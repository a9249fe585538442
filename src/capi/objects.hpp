#pragma once
/// @file What the C API's handles of more than one file own: a grid, a navmesh (objects of
/// grid.cpp and navmesh.cpp that a simulation's handle keeps alive too), and the one reading of
/// wm_planner_options (a planner's, and a grid simulation's planner).

#include <memory>
#include <utility>

#include "handles.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/waymark.h"

namespace waymark::navmesh {
class NavMesh;
}

namespace waymark::capi {

struct GridObject final : Object {
  explicit GridObject(grid::GridMap m) : map(std::move(m)) {}
  grid::GridMap map;
};

/// A navmesh: what owns it is navmesh.cpp's business (a mesh of its own, or a bake holding it).
struct NavMeshObjectBase : Object {
  explicit NavMeshObjectBase(const navmesh::NavMesh* m) : mesh(m) {}
  const navmesh::NavMesh* mesh;
};

/// Checks `in` (its version, names and values, each refusal with the message) and writes the
/// grid planner's options: WM_OK or the code.
int planner_options_of(const wm_planner_options& in, grid::GridPlannerOptions& out);

}  // namespace waymark::capi
