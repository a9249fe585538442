#pragma once
// A bundled level as the navmesh view shows it: built tiled (Recast's tiled pipeline), shared
// by every request and never changed; and the copies of it pages edit, each its own
// CarvedNavMesh in a session (POST /api/navmesh/obstacle). Internal to src/web.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "waymark/core/triangle_mesh.hpp"
#include "waymark/navmesh/nav_obstacle.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"
#include "waymark/recast/carving.hpp"
#include "waymark/recast/tiled_build.hpp"
#include "web/request.hpp"
#include "web/session_store.hpp"

namespace waymark::web {

/// A tile's side in voxels for the bundled levels (RecastDemo's smallest usual size: several
/// tiles even on nav_test, and an obstacle rebuilds few cells).
inline constexpr int level_tile_size = 32;

/// The tiled build's parameters for the bundled levels: Recast's defaults (as the solo build
/// had), level_tile_size, one thread (a request runs on one server thread).
[[nodiscard]] recast::TiledParams level_params();

struct Api::Level {
  std::string name;
  TriangleMesh model;  ///< what sessions build their own carvable copy from
  recast::TileLayout layout;
  std::shared_ptr<const navmesh::TiledSnapshot> built;  ///< the level as built, stitched
  std::string picture;  ///< GET /api/navmesh's answer, made once
};

/// A bundled level a page edits: its own CarvedNavMesh, built from the level's model.
struct NavSession : TimedSession {
  std::mutex mutex;  ///< one request at a time edits it or takes its snapshot
  std::shared_ptr<const Api::Level> level;
  std::unique_ptr<recast::CarvedNavMesh> carved;
};

class NavSessionStore : public SessionStoreOf<NavSession> {
 public:
  NavSessionStore(std::size_t capacity, std::size_t per_client, double idle_seconds)
      : SessionStoreOf(capacity, per_client, idle_seconds, "edited levels", "stop one (POST /api/navmesh/stop)") {}
};

/// The request's "session" (a number POST /api/navmesh/obstacle gave) in `store`, or null when
/// it gives none. 400 when it is no number or its "mesh" is not the session's level, 404 when
/// it is gone.
[[nodiscard]] std::shared_ptr<NavSession> request_session(const NavSessionStore& store, const Field& request);

/// GET /api/navmesh's answer for `snapshot` of level `name`: vertices, polygons, portals, the
/// tile grid and each polygon's tile, the off-mesh links and `obstacles` (by id).
[[nodiscard]] json level_json(const std::string& name, const navmesh::TiledSnapshot& snapshot, const recast::TileLayout& layout,
                              const std::map<std::uint32_t, navmesh::NavObstacle>& obstacles);

}  // namespace waymark::web
