// Fuzz target: navmesh bakes (.wmnav) read back (NavBake::load). A damaged or forged file is
// a LoadError; a file the loader accepts is canonical (saving what was loaded gives the same
// bytes) and its meshes answer queries without fault (ASan and UBSan watch).
//
// Seeds (fuzz/corpus/nav_bake_file): the doorway level of tests/support/doorway_level.hpp,
// baked by the CLI with two classes (`waymark bake --obj doorway.obj --cell-size 0.2
// --agent-class small=0.3,2,0.9,45 --agent-class large=1,2,0.9,45 --out F`), as saved (byte 0
// even) and as a payload to reseal (byte 0 odd), as write_seeds.cpp writes the others; the same
// level baked in tiles (`--agent-class small=0.3,2,0.9,45 --tile-size 16`, seed-tiled-saved);
// and forged payloads the loader refuses: the solo class's tile_size 1e300
// (seed-forged-tile-size, issue 41) and 16.5 (seed-forged-tile-size-fraction, issue 42: the
// file's double is checked as a whole number in range before it becomes the int), the tiled
// class's first tile at (INT_MIN, INT_MAX) (seed-forged-tile-at).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

#include "waymark/core/errors.hpp"
#include "waymark/navmesh/nav_file.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "worlds.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  using namespace waymark::navmesh;
  std::optional<NavBake> bake;
  std::istringstream file = fuzz::file_of(data, size);
  const std::string input = file.str();
  try {
    bake.emplace(NavBake::load(file, "fuzz.wmnav"));
  } catch (const LoadError&) {
    return 0;
  }
  std::ostringstream again;
  bake->save(again);
  if (again.str() != input) fuzz::finding();  // the format has one spelling per bake
  for (const BakedClass& c : bake->classes()) {
    if (!c.mesh) continue;
    const NavMesh& mesh = *c.mesh;
    if (mesh.poly_count() == 0) continue;  // the loader refuses such tiles
    const Vec3 a = mesh.vertex(0), b = mesh.vertex(static_cast<std::uint32_t>(mesh.vertex_count() - 1));
    for (const NavMode mode : {NavMode::shortest, NavMode::funnel}) {
      NavMeshQuery q(mesh, {.mode = mode, .query = {.partial_result = true}});
      (void)q.find_path(a, b);
      (void)q.find_path(mesh.centroid(PolyId{0}), a);
    }
    RaycastHit hit;
    if (const auto start = mesh.nearest_poly(a, {2, 4, 2})) (void)mesh.raycast(start->poly, start->point, b, hit);
  }
  return 0;
}
