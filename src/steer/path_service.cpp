#include "waymark/steer/path_service.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "waymark/core/errors.hpp"

#include "nearest_cell.hpp"

namespace waymark::steer {

namespace {

/// The smallest clearance a cell centre can have that is at least `radius` (world units): a
/// centre is cell_size·√(a² + b²) from a blocked square or the map's edge, a and b in
/// {0, ½, 1½, …}.
double clearance_step_at_least(double radius, double cell) {
  const int k = static_cast<int>(std::ceil(radius / cell)) + 2;
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= k; ++i) {
    for (int j = 0; j <= i; ++j) {
      const double a = std::max(0.0, i - 0.5), b = std::max(0.0, j - 0.5);
      const double v = cell * std::sqrt(a * a + b * b);
      if (v >= radius && v < best) best = v;
    }
  }
  return best;
}

}  // namespace

std::string_view to_string(PlanFailure failure) {
  switch (failure) {
    case PlanFailure::none: return "none";
    case PlanFailure::queue_full: return "queue_full";
    case PlanFailure::start_outside: return "start_outside";
    case PlanFailure::goal_outside: return "goal_outside";
    case PlanFailure::start_closed: return "start_closed";
    case PlanFailure::goal_closed: return "goal_closed";
    case PlanFailure::no_path: return "no_path";
    case PlanFailure::search_failed: return "search_failed";
  }
  return "search_failed";
}

GridPathService::GridPathService(const grid::GridMap& map, const grid::GridPlannerOptions& planner,
                                 const search::RequestQueueOptions& queue)
    : QueuedPathService(queue), map_(&map), options_(planner) {
  classes_.push_back({map.cell_size() / 2, nullptr, std::make_unique<grid::GridPlanner>(map, planner)});
}

GridPathService::~GridPathService() = default;

const grid::GridMap& GridPathService::class_map(std::size_t k) const {
  return classes_[k].sized ? classes_[k].sized->map() : *map_;
}

std::optional<std::size_t> GridPathService::size_class(double radius) {
  const double cell = map_->cell_size();
  if (!(radius >= 0) || !std::isfinite(radius) || radius > max_class_radius_cells * cell) return std::nullopt;
  if (radius <= cell / 2) return 0;
  const double step = clearance_step_at_least(radius, cell);
  for (std::size_t k = 1; k < classes_.size(); ++k) {
    if (classes_[k].radius == step) return k;
  }
  if (classes_.size() >= max_size_classes) return std::nullopt;
  // The class's map asks for a hair less than its step, so that rounding in the clearance's
  // square root can never drop a cell whose clearance is the step exactly.
  const double asked = step - 1e-9 * cell;
  if (!clearance_) {
    clearance_ = std::make_unique<grid::ClearanceMap>(*map_, grid::ClearanceParams{.max_clearance = step});
  } else {
    clearance_->sync();
    clearance_->raise_max_clearance(step);
  }
  auto sized = std::make_unique<grid::SizeClassMap>(*clearance_, asked);
  auto planner = std::make_unique<grid::GridPlanner>(sized->map(), options_);
  classes_.push_back({step, std::move(sized), std::move(planner)});
  return classes_.size() - 1;
}

search::RequestId GridPathService::submit(Vec2 from, Vec2 to, std::size_t size_class) {
  if (size_class >= classes_.size()) return refuse(PlanFailure::search_failed);
  const std::optional<grid::CellCoord> a = map_->world_to_cell(from);
  const std::optional<grid::CellCoord> b = map_->world_to_cell(to);
  if (!a) return refuse(PlanFailure::start_outside);
  if (!b) return refuse(PlanFailure::goal_outside);
  const SizeClass& c = classes_[size_class];
  const grid::GridMap& m = class_map(size_class);
  const int rings = static_cast<int>(std::ceil(c.radius / map_->cell_size())) + 1;
  const auto open_near = [&](grid::CellCoord at) -> std::optional<CellId> {
    const auto open = detail::nearest_passable_cell(m, at, m.cell_center(at), rings);
    return open ? std::optional<CellId>{m.cell(open->x, open->y)} : std::nullopt;
  };
  const std::optional<CellId> start = open_near(*a);
  // A goal the map itself closes (a wall, a shut door, a crate on it) stays where it is, and
  // the search finds it unreachable; only a goal too narrow for the class's disc moves.
  const std::optional<CellId> goal =
      map_->passable(b->x, b->y) ? open_near(*b) : std::optional<CellId>{map_->cell(b->x, b->y)};
  if (!start) return refuse(PlanFailure::start_closed);
  if (!goal) return refuse(PlanFailure::goal_closed);
  const Vec2 end = *goal == map_->cell(b->x, b->y) ? to : map_->cell_center(*goal);
  return submit_on(*c.planner, *start, *goal, from, end);
}

void GridPathService::sync() {
  for (SizeClass& c : classes_) {
    if (c.sized) c.sized->sync();
    c.planner->sync();
  }
}

navmesh::NavQueryOptions NavMeshPathService::tall(const navmesh::NavMesh& mesh, navmesh::NavQueryOptions query) {
  const Aabb3& box = mesh.bounds();
  query.half_extents.y = std::max(query.half_extents.y, (box.max.y - box.min.y) / 2 + 1);
  return query;
}

NavMeshPathService::NavMeshPathService(const navmesh::NavMesh& mesh, const navmesh::NavQueryOptions& query,
                                       const search::RequestQueueOptions& queue)
    : QueuedPathService(queue) {
  classes_.push_back({std::numeric_limits<double>::infinity(), (mesh.bounds().min.y + mesh.bounds().max.y) / 2,
                      std::make_unique<navmesh::NavPlanner>(mesh, tall(mesh, query)), nullptr});
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
                        std::make_unique<navmesh::NavPlanner>(mesh, tall(mesh, query)), nullptr});
  }
  std::stable_sort(classes_.begin(), classes_.end(), [](const Class& a, const Class& b) { return a.radius < b.radius; });
}

NavMeshPathService::NavMeshPathService(const navmesh::TiledNavMesh& world, const navmesh::NavQueryOptions& query,
                                       const search::RequestQueueOptions& queue)
    : QueuedPathService(queue), tiled_(&world) {
  const KeepPtr<const navmesh::NavMesh> now = world.mesh();
  const Aabb3& box = now->bounds();
  const double middle = (box.min.y + box.max.y) / 2;  // not finite for a world with no tile yet
  classes_.push_back({std::numeric_limits<double>::infinity(), std::isfinite(middle) ? middle : 0.0, nullptr,
                      std::make_unique<navmesh::TiledNavPlanner>(world, tall(*now, query))});
}

const navmesh::NavMesh& NavMeshPathService::class_mesh(std::size_t k) const {
  const Class& c = classes_[k];
  return c.fixed ? c.fixed->mesh() : c.tiled->snapshot()->mesh;
}

void NavMeshPathService::sync() {
  for (Class& c : classes_) {
    if (c.tiled && c.tiled->stale()) c.tiled->sync();
  }
}

std::optional<std::size_t> NavMeshPathService::size_class(double radius) {
  for (std::size_t i = 0; i < classes_.size(); ++i) {
    if (radius <= classes_[i].radius) return i;
  }
  return std::nullopt;
}

search::RequestId NavMeshPathService::submit(Vec2 from, Vec2 to, std::size_t size_class) {
  if (size_class >= classes_.size()) return refuse(PlanFailure::search_failed);
  const Class& c = classes_[size_class];
  const Vec3 start{from.x, c.height, from.y}, goal{to.x, c.height, to.y};
  // Ends off the mesh are refused here, each by name (the search would fail them both alike).
  const navmesh::NavMesh& mesh = class_mesh(size_class);
  const Vec3 reach = c.options().half_extents;
  if (!mesh.nearest_poly(start, reach)) return refuse(PlanFailure::start_outside);
  if (!mesh.nearest_poly(goal, reach)) return refuse(PlanFailure::goal_outside);
  return submit_on(c.source(), start, goal, from, to);
}

void NavMeshPathService::links_of(const navmesh::NavPath& path, std::vector<PathLink>& links) const {
  for (const navmesh::LinkUse& use : path.links) {
    if (use.corner + 1 >= path.corners.size()) continue;  // never: a link adds both its ends
    links.push_back({use.corner, use.link, use.user_id, distance(path.corners[use.corner], path.corners[use.corner + 1])});
  }
}

std::vector<Segment2> navmesh_outline(const navmesh::NavMesh& mesh) {
  std::vector<Segment2> out;
  const auto corners = static_cast<std::uint32_t>(mesh.data().corners.size());
  for (std::uint32_t k = 0; k < corners; ++k) {
    if (mesh.twin(k) != std::numeric_limits<std::uint32_t>::max()) continue;
    const Segment3 e = mesh.edge(k);
    out.push_back(Segment2{navmesh::plan(e.a), navmesh::plan(e.b)});
  }
  return out;
}

std::size_t add_navmesh_walls(ObstacleWorld& world, const navmesh::NavMesh& mesh, int layer) {
  const std::vector<Segment2> outline = navmesh_outline(mesh);
  for (const Segment2& s : outline) world.add(s, layer);
  return outline.size();
}

}  // namespace waymark::steer
