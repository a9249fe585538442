#include "waymark/steer/path_service.hpp"

#include <limits>

namespace waymark::steer {

GridPathService::GridPathService(const grid::GridMap& map, const grid::GridPlannerOptions& planner,
                                 const search::RequestQueueOptions& queue)
    : QueuedPathService(queue), map_(&map), planner_(map, planner) {}

search::RequestId GridPathService::submit(Vec2 from, Vec2 to) {
  const std::optional<grid::CellCoord> a = map_->world_to_cell(from);
  const std::optional<grid::CellCoord> b = map_->world_to_cell(to);
  if (!a || !b) return {};
  return submit_on(planner_, map_->cell(a->x, a->y), map_->cell(b->x, b->y), from, to);
}

navmesh::NavQueryOptions NavMeshPathService::tall(const navmesh::NavMesh& mesh, navmesh::NavQueryOptions query) {
  const Aabb3& box = mesh.bounds();
  query.half_extents.y = std::max(query.half_extents.y, (box.max.y - box.min.y) / 2 + 1);
  return query;
}

NavMeshPathService::NavMeshPathService(const navmesh::NavMesh& mesh, const navmesh::NavQueryOptions& query,
                                       const search::RequestQueueOptions& queue)
    : QueuedPathService(queue), height_((mesh.bounds().min.y + mesh.bounds().max.y) / 2), source_(mesh, tall(mesh, query)) {}

search::RequestId NavMeshPathService::submit(Vec2 from, Vec2 to) {
  return submit_on(source_, Vec3{from.x, height_, from.y}, Vec3{to.x, height_, to.y}, from, to);
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
