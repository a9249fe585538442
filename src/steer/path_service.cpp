#include "waymark/steer/path_service.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "waymark/core/errors.hpp"

namespace waymark::steer {

GridPathService::GridPathService(const grid::GridMap& map, const grid::GridPlannerOptions& planner,
                                 const search::RequestQueueOptions& queue)
    : QueuedPathService(queue), map_(&map), planner_(map, planner) {}

std::optional<std::size_t> GridPathService::size_class(double radius) {
  if (!(radius >= 0)) return std::nullopt;
  return 0;
}

search::RequestId GridPathService::submit(Vec2 from, Vec2 to, std::size_t size_class) {
  const std::optional<grid::CellCoord> a = map_->world_to_cell(from);
  const std::optional<grid::CellCoord> b = map_->world_to_cell(to);
  if (!a || !b || size_class != 0) return {};
  return submit_on(planner_, map_->cell(a->x, a->y), map_->cell(b->x, b->y), from, to);
}

void GridPathService::sync() { planner_.sync(); }

navmesh::NavQueryOptions NavMeshPathService::tall(const navmesh::NavMesh& mesh, navmesh::NavQueryOptions query) {
  const Aabb3& box = mesh.bounds();
  query.half_extents.y = std::max(query.half_extents.y, (box.max.y - box.min.y) / 2 + 1);
  return query;
}

NavMeshPathService::NavMeshPathService(const navmesh::NavMesh& mesh, const navmesh::NavQueryOptions& query,
                                       const search::RequestQueueOptions& queue)
    : QueuedPathService(queue) {
  classes_.push_back({std::numeric_limits<double>::infinity(), (mesh.bounds().min.y + mesh.bounds().max.y) / 2,
                      std::make_unique<navmesh::NavPlanner>(mesh, tall(mesh, query))});
}

NavMeshPathService::NavMeshPathService(std::span<const SizedNavMesh> meshes, const navmesh::NavQueryOptions& query,
                                       const search::RequestQueueOptions& queue)
    : QueuedPathService(queue) {
  if (meshes.empty()) throw BuildError("NavMeshPathService: at least one mesh is required");
  for (const SizedNavMesh& m : meshes) {
    if (m.mesh == nullptr) throw BuildError("NavMeshPathService: a mesh is null");
    if (!(m.radius >= 0) || !std::isfinite(m.radius)) throw BuildError("NavMeshPathService: a mesh radius must be finite and >= 0");
    const navmesh::NavMesh& mesh = *m.mesh;
    classes_.push_back({m.radius, (mesh.bounds().min.y + mesh.bounds().max.y) / 2,
                        std::make_unique<navmesh::NavPlanner>(mesh, tall(mesh, query))});
  }
  std::stable_sort(classes_.begin(), classes_.end(), [](const Class& a, const Class& b) { return a.radius < b.radius; });
}

std::optional<std::size_t> NavMeshPathService::size_class(double radius) {
  for (std::size_t i = 0; i < classes_.size(); ++i) {
    if (radius <= classes_[i].radius) return i;
  }
  return std::nullopt;
}

search::RequestId NavMeshPathService::submit(Vec2 from, Vec2 to, std::size_t size_class) {
  if (size_class >= classes_.size()) return {};
  const Class& c = classes_[size_class];
  return submit_on(*c.source, Vec3{from.x, c.height, from.y}, Vec3{to.x, c.height, to.y}, from, to);
}

std::size_t add_navmesh_walls(ObstacleWorld& world, const navmesh::NavMesh& mesh, int layer) {
  std::size_t added = 0;
  const auto corners = static_cast<std::uint32_t>(mesh.data().corners.size());
  for (std::uint32_t k = 0; k < corners; ++k) {
    if (mesh.twin(k) != std::numeric_limits<std::uint32_t>::max()) continue;
    const Segment3 e = mesh.edge(k);
    world.add(Segment2{navmesh::plan(e.a), navmesh::plan(e.b)}, layer);
    ++added;
  }
  return added;
}

}  // namespace waymark::steer
