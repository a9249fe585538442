// Baking (issue 31): a bake saved and loaded answers every query exactly as the mesh built
// directly; every kind of damage to a .wmnav file is a LoadError; one bake holds several agent
// classes; the geometry's fingerprint follows the model.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "support/doorway_level.hpp"
#include "support/error_text.hpp"
#include "support/forge.hpp"
#include "support/navmesh_support.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_file.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"
#include "waymark/recast/bake.hpp"
#include "waymark/recast/tiled_build.hpp"
#include "waymark/steer/path_service.hpp"

namespace waymark::recast::bake_test {
namespace {

using navmesh::BakedClass;
using navmesh::NavBake;
using navmesh::NavMesh;
using navmesh::NavMeshQuery;

TriangleMesh load(const char* name) { return io::load_obj(std::string(WAYMARK_DATA_DIR "/meshes/") + name); }

std::string bytes_of(const NavBake& bake) {
  std::ostringstream out;
  bake.save(out);
  return out.str();
}

NavBake load_bytes(const std::string& bytes) {
  std::istringstream in(bytes);
  return NavBake::load(in, "test.wmnav");
}

/// What loading `bytes` throws as a LoadError ("" when it loads).
std::string load_error(const std::string& bytes) {
  return test::error_text<LoadError>([&] { (void)load_bytes(bytes); });
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(Vec3 a, Vec3 b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z); }

/// Runs every query on both meshes in `mode`: the same status, polygons, corners and length,
/// bit for bit. Returns how many found a path.
int expect_same_answers(const NavMesh& built, const NavMesh& loaded, const std::vector<io::NavQueryLine>& queries,
                        navmesh::NavMode mode) {
  NavMeshQuery a(built, {.mode = mode, .query = {.partial_result = true}});
  NavMeshQuery b(loaded, {.mode = mode, .query = {.partial_result = true}});
  int found = 0;
  for (const io::NavQueryLine& q : queries) {
    const navmesh::QueryFilter filter{.include = q.include, .exclude = q.exclude};
    const Status sa = a.find_path(q.from, q.to, filter);
    EXPECT_EQ(sa, b.find_path(q.from, q.to, filter));
    EXPECT_EQ(a.path().polys, b.path().polys);
    EXPECT_TRUE(same_bits(a.path().length, b.path().length)) << a.path().length << " vs " << b.path().length;
    EXPECT_EQ(a.path().corners.size(), b.path().corners.size());
    for (std::size_t i = 0; i < std::min(a.path().corners.size(), b.path().corners.size()); ++i)
      EXPECT_TRUE(same_bits(a.path().corners[i], b.path().corners[i])) << "corner " << i;
    found += sa.succeeded() ? 1 : 0;
  }
  return found;
}

// The mesh Recast builds and the same mesh baked, written, read back: RecastDemo's 21 queries
// (with their flags) and 300 seeded polygon-centre pairs, in both modes, give the same bits.
TEST(Bake, LoadedMeshAnswersExactlyAsTheBuiltOne) {
  const std::vector<io::NavQueryLine> demo = io::load_nav_queries(WAYMARK_DATA_DIR "/meshes/nav_mesh_test.txt");
  ASSERT_EQ(demo.size(), 21u);
  for (const char* obj : {"nav_test.obj", "dungeon.obj"}) {
    SCOPED_TRACE(obj);
    const TriangleMesh model = load(obj);
    const NavMesh built = build_nav_mesh(model, {});
    const AgentClass one{"agent", {}};
    const NavBake loaded = load_bytes(bytes_of(bake(model, {&one, 1})));
    ASSERT_EQ(loaded.classes().size(), 1u);
    const BakedClass& c = loaded.classes()[0];
    ASSERT_TRUE(c.mesh.has_value());
    EXPECT_EQ(c.params, build_params_of(RecastParams{}));
    EXPECT_EQ(loaded.geometry_fingerprint, navmesh::geometry_fingerprint(model));
    EXPECT_EQ(c.mesh->poly_count(), built.poly_count());
    EXPECT_EQ(c.mesh->data().corners, built.data().corners);
    EXPECT_EQ(c.mesh->data().neighbors, built.data().neighbors);
    EXPECT_EQ(c.mesh->data().detail_begin, built.data().detail_begin);
    std::vector<io::NavQueryLine> queries = demo;
    for (const auto& [from, to] : test::centroid_pairs(built, 300)) queries.push_back({from, to, 0xffff, 0, 0});
    for (const navmesh::NavMode mode : {navmesh::NavMode::shortest, navmesh::NavMode::funnel}) {
      const int found = expect_same_answers(built, *c.mesh, queries, mode);
      EXPECT_GT(found, 100);  // most centre pairs are connected on both levels
    }
  }
}

// A tiled class: its tiles are stored, and the loaded class's mesh is the tiled world's
// snapshot of the same tiles (TiledNavMesh over build_tiles), answering bit for bit alike.
TEST(Bake, ATiledClassLoadsStitchedAsTheTiledWorld) {
  const TriangleMesh model = load("dungeon.obj");
  const navmesh::TiledNavMesh world(build_tiles(model, {.tile_size = 32}));
  const AgentClass tiled{"tiled", {}, 32};
  const NavBake loaded = load_bytes(bytes_of(bake(model, {&tiled, 1})));
  const BakedClass& c = loaded.classes().at(0);
  EXPECT_EQ(c.params.tile_size, 32);
  EXPECT_EQ(c.tiles.size(), world.tile_count());
  ASSERT_TRUE(c.mesh.has_value());
  const auto snapshot = world.snapshot();
  const NavMesh& stitched = snapshot->mesh;
  EXPECT_EQ(c.mesh->data().corners, stitched.data().corners);
  EXPECT_EQ(c.mesh->data().neighbors, stitched.data().neighbors);
  std::vector<io::NavQueryLine> queries;
  for (const auto& [from, to] : test::centroid_pairs(stitched, 200)) queries.push_back({from, to, 0xffff, 0, 0});
  EXPECT_GT(expect_same_answers(stitched, *c.mesh, queries, navmesh::NavMode::shortest), 100);
}

// A small bake for the damage tests: the doorway level's two classes, with off-mesh links
// added by hand so that every section of the format is present.
const std::string& small_bake_bytes() {
  static const std::string bytes = [] {
    std::istringstream obj(test::doorway_level_obj(1.2));
    const TriangleMesh model = io::parse_obj(obj, "doorway.obj");
    RecastParams p{.cell_size = 0.2};
    std::vector<AgentClass> classes{{"small", p}, {"large", p}};
    classes[0].params.agent_radius = 0.3;
    classes[1].params.agent_radius = 1.0;
    NavBake b = bake(model, classes);
    navmesh::NavMeshData& d = b.classes()[0].tiles[0].data;
    d.links.push_back({Vec3{2, 0, 2}, Vec3{3, 0, 8}, 0.5, true, 1, 0x3, 2.5, 7});
    d.links.push_back({Vec3{15, 0, 5}, Vec3{18, 0, 5}, 0.25, false, 0, navmesh::walk_flag, 0, 8});
    return bytes_of(b);
  }();
  return bytes;
}

TEST(Bake, EveryFieldRoundTrips) {
  std::istringstream obj(test::doorway_level_obj(1.2));
  const TriangleMesh model = io::parse_obj(obj, "doorway.obj");
  const NavBake b = load_bytes(small_bake_bytes());
  ASSERT_EQ(b.classes().size(), 2u);
  EXPECT_EQ(b.classes()[0].name, "small");
  EXPECT_EQ(b.classes()[1].name, "large");
  EXPECT_EQ(b.classes()[1].params.agent_radius, 1.0);
  EXPECT_EQ(b.classes()[1].params.cell_size, 0.2);
  EXPECT_EQ(b.geometry_fingerprint, navmesh::geometry_fingerprint(model));
  const navmesh::NavMeshData& d = b.classes()[0].tiles[0].data;
  ASSERT_EQ(d.links.size(), 2u);
  EXPECT_EQ(d.links[0].start, (Vec3{2, 0, 2}));
  EXPECT_EQ(d.links[0].end, (Vec3{3, 0, 8}));
  EXPECT_EQ(d.links[0].radius, 0.5);
  EXPECT_TRUE(d.links[0].bidirectional);
  EXPECT_EQ(d.links[0].area, 1);
  EXPECT_EQ(d.links[0].flags, 0x3);
  EXPECT_EQ(d.links[0].cost, 2.5);
  EXPECT_EQ(d.links[0].user_id, 7u);
  EXPECT_FALSE(d.links[1].bidirectional);
  EXPECT_EQ(d.links[1].user_id, 8u);
  EXPECT_EQ(b.classes()[0].mesh->data().links.size(), 2u);
  EXPECT_GT(d.climb, 0);
  EXPECT_FALSE(d.detail.empty());
  // Saving what was loaded gives the same bytes.
  EXPECT_EQ(bytes_of(b), small_bake_bytes());
}

TEST(Bake, EveryTruncationAndEveryFlippedByteIsALoadError) {
  const std::string& bytes = small_bake_bytes();
  ASSERT_EQ(load_error(bytes), "");
  ASSERT_LT(bytes.size(), 200000u);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::string why = load_error(bytes.substr(0, n));
    ASSERT_NE(why, "") << "a file cut to " << n << " bytes loaded";
    ASSERT_NE(why.find("test.wmnav: "), std::string::npos) << why;
  }
  EXPECT_EQ(load_error(bytes + '\0'), "test.wmnav: corrupt file: data after the checksum");
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ (1 << (i % 8)));
    ASSERT_NE(load_error(damaged), "") << "a file with byte " << i << " flipped loaded";
  }
}

// Offsets in the small bake (the format in src/navmesh/nav_file.cpp): the file header (32
// bytes), the first class's header (120) and name ("small"), then its tile's header (96).
constexpr std::size_t version_at = 8, classes_at = 24, class_at = 32, name_bytes_at = class_at, tiles_at = class_at + 4;
constexpr std::size_t params_at = class_at + 8, tile_at = class_at + 120 + 5;
constexpr std::size_t vertices_at = tile_at + 48, polygons_at = tile_at + 56, corners_at = tile_at + 64;
constexpr std::size_t detail_polys_at = tile_at + 72, links_at = tile_at + 88, arrays_at = tile_at + 96;

template <class T>
std::string forged(std::size_t at, T value) {
  return test::forge(small_bake_bytes(), at, &value, sizeof value);
}
template <class T>
T read_at_of(const std::string& bytes, std::size_t at) {
  T v{};
  std::memcpy(&v, bytes.data() + at, sizeof v);
  return v;
}
template <class T>
T read_at(std::size_t at) {
  T v{};
  std::memcpy(&v, small_bake_bytes().data() + at, sizeof v);
  return v;
}

TEST(Bake, ForgedFilesAreLoadErrors) {
  const auto error = [](const std::string& bytes) { return load_error(bytes); };
  EXPECT_EQ(error(test::forge(small_bake_bytes(), 0, "WMNAVMSX", 8)), "test.wmnav: not a waymark navmesh bake (wrong magic)");
  EXPECT_EQ(error(forged<std::uint32_t>(version_at, 2)), "test.wmnav: unsupported version 2 (expected 1)");
  EXPECT_EQ(error(forged<std::uint32_t>(classes_at, 0)), "test.wmnav: corrupt file: 0 agent classes (1 to 32 allowed)");
  EXPECT_EQ(error(forged<std::uint32_t>(classes_at, 1000)), "test.wmnav: corrupt file: 1000 agent classes (1 to 32 allowed)");
  EXPECT_EQ(error(forged<std::uint32_t>(classes_at, 3)), "test.wmnav: truncated file (in the class header)");
  EXPECT_EQ(error(forged<std::uint32_t>(name_bytes_at, 0xffffffffu)),
            "test.wmnav: corrupt file: a class name's length is out of range");
  EXPECT_EQ(error(forged<std::uint32_t>(tiles_at, 0)), "test.wmnav: corrupt file: a class's tile count is out of range");
  EXPECT_EQ(error(forged<double>(params_at, std::numeric_limits<double>::quiet_NaN())),
            "test.wmnav: corrupt file: class 'small': build parameter cell_size is out of range: nan (above 0 and at most "
            "navmesh::bake_limits.max_cell_size = 1000000)");
  EXPECT_EQ(error(forged<double>(params_at + 5 * 8, 90.0)),
            "test.wmnav: corrupt file: class 'small': build parameter agent_max_slope is out of range: 90 (from 0 to below 90)");
  // Metadata no bake can have written, each against the limit recast::bake checks (these
  // loaded: harmless, but not a bake's).
  const std::string small = "test.wmnav: corrupt file: class 'small': ";
  EXPECT_EQ(error(forged<double>(params_at + 12 * 8, 1e300)),
            small + "build parameter tile_size is out of range: 1e+300 (from 0 to navmesh::bake_limits.max_tile_size = 4096)");
  EXPECT_EQ(error(forged<double>(params_at + 12 * 8, 2.0)),
            small + "build parameter tile_size is out of range: 2 (0, or a whole number from navmesh::bake_limits.min_tile_size = 3 "
                    "to max_tile_size = 4096)");
  // A fraction would truncate into the int tile size: refused before the conversion.
  EXPECT_EQ(error(forged<double>(params_at + 12 * 8, 16.5)),
            small + "build parameter tile_size is out of range: 16.5 (0, or a whole number from navmesh::bake_limits.min_tile_size = 3 "
                    "to max_tile_size = 4096)");
  EXPECT_EQ(error(forged<double>(params_at + 12 * 8, -0.5)),
            small + "build parameter tile_size is out of range: -0.5 (from 0 to navmesh::bake_limits.max_tile_size = 4096)");
  EXPECT_EQ(error(forged<double>(params_at + 3 * 8, 1e308)),
            small + "build parameter agent_radius is out of range: 1e+308 (from 0 to navmesh::bake_limits.max_radius_cells = 127 cells)");
  EXPECT_EQ(error(forged<double>(params_at, 2e6)),
            small + "build parameter cell_size is out of range: 2000000 (above 0 and at most navmesh::bake_limits.max_cell_size = 1000000)");
  EXPECT_EQ(error(forged<double>(params_at + 2 * 8, 52.0)),
            small + "build parameter agent_height is out of range: 52 (from 0 to navmesh::bake_limits.max_agent_height_cells = 255 cell heights)");
  EXPECT_EQ(error(forged<double>(params_at + 4 * 8, 2000.0)),
            small + "build parameter agent_max_climb is out of range: 2000 (from 0 to navmesh::bake_limits.max_climb_cells = 8191 cell heights)");
  EXPECT_EQ(error(forged<double>(params_at + 6 * 8, 1e4)),
            small + "build parameter region_min_size is out of range: 10000 (from 0 to below navmesh::bake_limits.max_region_size = 10000)");
  EXPECT_EQ(error(forged<double>(params_at + 7 * 8, -1.0)), small + "build parameter region_merge_size is out of range: -1 (from 0 to below navmesh::bake_limits.max_region_size = 10000)");
  EXPECT_EQ(error(forged<double>(params_at + 10 * 8, std::numeric_limits<double>::infinity())),
            small + "build parameter detail_sample_dist is out of range: inf (finite, from 0)");
  EXPECT_EQ(error(forged<double>(params_at + 8 * 8, 1e5)),
            small + "build parameter edge_max_len is out of range: 100000 (from 0 to navmesh::bake_limits.max_edge_len_cells = 46340 cells)");
  EXPECT_EQ(error(forged<double>(params_at + 9 * 8, 65.0)),
            small + "build parameter edge_max_error is out of range: 65 (from 0 to navmesh::bake_limits.max_edge_error_cells = 64)");
  EXPECT_EQ(error(forged<std::int32_t>(params_at + 13 * 8, 7)),
            small + "build parameter verts_per_poly is out of range: 7 (3 to 6)");
  EXPECT_EQ(error(forged<std::int64_t>(tile_at, (std::int64_t{std::numeric_limits<std::int32_t>::max()} << 32) |
                                                    std::uint32_t{0x80000000u})),
            small + "a solo class (tile_size 0) has one tile, at (0, 0); this one has 1, the first at (-2147483648, 2147483647)");
  EXPECT_EQ(error(forged<double>(tile_at + 40, 5.0)), small + "tile (0, 0) has a climb of 5, not its class's agent_max_climb");
  // A solo class saying it was tiled: its one tile is not tile_size cells wide.
  EXPECT_NE(error(forged<double>(params_at + 12 * 8, 16.0)).find(small + "tile (0, 0) is "), std::string::npos);
  EXPECT_EQ(error(test::forge(small_bake_bytes(), class_at + 120, "large", 5)),
            "test.wmnav: corrupt file: two classes are called 'large'");
  EXPECT_EQ(error(test::forge(small_bake_bytes(), class_at + 120, "sm ll", 5)),
            "test.wmnav: corrupt file: a class name must be printable ASCII without space, ',' or '='");
  // Counts: over a limit (refused before anything is allocated), or past the end of the file.
  for (const std::size_t at : {vertices_at, polygons_at, corners_at}) {
    EXPECT_EQ(error(forged<std::uint64_t>(at, std::uint64_t{1} << 40)),
              "test.wmnav: corrupt file: class 'small': a count of 1099511627776 is over the limit of 268435456");
    EXPECT_NE(error(forged<std::uint64_t>(at, read_at<std::uint64_t>(at) + 1000)), "");
    EXPECT_NE(error(forged<std::uint64_t>(at, read_at<std::uint64_t>(at) - 1)), "");
  }
  EXPECT_EQ(error(forged<std::uint64_t>(links_at, std::uint64_t{1} << 30)),
            "test.wmnav: corrupt file: class 'small': more off-mesh links than the limit of 1048576");
  EXPECT_EQ(error(forged<std::uint64_t>(detail_polys_at, 1)),
            "test.wmnav: corrupt file: class 'small': the detail mesh does not cover every polygon");
  EXPECT_EQ(error(forged<double>(tile_at + 8, std::numeric_limits<double>::infinity())),
            "test.wmnav: corrupt file: class 'small': its bounds are not finite");
  // The arrays: a vertex not finite, a corner out of range, offsets that shrink, a neighbour
  // that is not reciprocal, an area out of range, a link out of range.
  const auto vertices = read_at<std::uint64_t>(vertices_at), polys = read_at<std::uint64_t>(polygons_at);
  const auto corners = read_at<std::uint64_t>(corners_at);
  const std::size_t poly_begin_at = arrays_at + 24 * vertices, corner_list_at = poly_begin_at + 4 * (polys + 1);
  const std::size_t neighbours_at = corner_list_at + 4 * corners, areas_at = neighbours_at + 4 * corners;
  EXPECT_EQ(error(forged<double>(arrays_at + 8, std::numeric_limits<double>::quiet_NaN())),
            "test.wmnav: corrupt file: class 'small' tile (0, 0): navmesh data: a vertex has a coordinate that is not finite");
  EXPECT_EQ(error(forged<std::uint32_t>(corner_list_at, static_cast<std::uint32_t>(vertices))),
            "test.wmnav: corrupt file: class 'small' tile (0, 0): navmesh polygon 0: corner " + std::to_string(vertices) +
                " is not a vertex");
  EXPECT_EQ(error(forged<std::uint32_t>(poly_begin_at + 4, 1000000)),
            "test.wmnav: corrupt file: class 'small' tile (0, 0): the polygon offsets do not grow from 0 to the corner count");
  std::size_t wall = 0, link = 0;  // a corner with no neighbour, one with one
  for (std::size_t k = 0; k < corners; ++k) {
    const auto n = read_at<std::uint32_t>(neighbours_at + 4 * k);
    (n == PolyId::invalid_value ? wall : link) = k;
  }
  EXPECT_NE(error(forged<std::uint32_t>(neighbours_at + 4 * wall, 0)).find("corrupt file: class 'small' tile (0, 0): navmesh polygon"),
            std::string::npos);
  EXPECT_NE(error(forged<std::uint32_t>(neighbours_at + 4 * link, PolyId::invalid_value)).find("does not share edge"),
            std::string::npos);
  // (the polygon across that edge, checked first or not, finds its neighbour gone)
  const std::string far = error(forged<std::uint32_t>(neighbours_at + 4 * link, 1u << 30));
  EXPECT_TRUE(far.find("is not another polygon") != std::string::npos || far.find("does not share edge") != std::string::npos)
      << far;
  EXPECT_NE(error(forged<std::uint8_t>(areas_at, 64)).find("area type 64 is not below 64"), std::string::npos);
  const std::size_t file_end = small_bake_bytes().size() - checksum_bytes;
  // The first class's links are the last thing before the second class's header.
  const std::size_t first_link_at = [&] {
    const std::string& b = small_bake_bytes();
    return b.find(std::string("large"), tile_at) - 120 - 2 * 72;
  }();
  ASSERT_LT(first_link_at, file_end);
  EXPECT_EQ(read_at<double>(first_link_at), 2.0);  // the first link's start.x: the offset is right
  EXPECT_EQ(error(forged<double>(first_link_at + 48, -1.0)),
            "test.wmnav: corrupt file: class 'small' tile (0, 0): an off-mesh link's radius must be finite and > 0, got -1");
  EXPECT_EQ(error(forged<double>(first_link_at + 56, std::numeric_limits<double>::infinity())),
            "test.wmnav: corrupt file: class 'small' tile (0, 0): an off-mesh link's cost must be finite and >= 0, got inf");
  EXPECT_EQ(error(forged<std::uint8_t>(first_link_at + 70, 64)),
            "test.wmnav: corrupt file: class 'small' tile (0, 0): an off-mesh link's area type 64 is not below 64");
  EXPECT_EQ(error(forged<std::uint8_t>(first_link_at + 71, 2)),
            "test.wmnav: corrupt file: class 'small': an off-mesh link's direction is neither one- nor two-way");
}

// Any single byte changed and the checksum made to match: the loader refuses the file or
// loads a bake whose meshes pass NavMesh's checks (a changed height is still a mesh), and
// never crashes (this runs under ASan too).
TEST(Bake, EveryResealedByteChangeIsRefusedOrSound) {
  const std::string& bytes = small_bake_bytes();
  int refused = 0;
  for (std::size_t i = 0; i + checksum_bytes < bytes.size(); ++i) {
    std::string b = bytes;
    b[i] = static_cast<char>(b[i] ^ 0x5a);
    test::reseal(b);
    try {
      const NavBake loaded = load_bytes(b);
      for (const BakedClass& c : loaded.classes()) EXPECT_TRUE(c.mesh.has_value());
    } catch (const LoadError&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 100);
}

/// A bake of the doorway level with one class in tiles of 16 voxels (several tiles).
const std::string& tiled_bake_bytes() {
  static const std::string bytes = [] {
    std::istringstream obj(test::doorway_level_obj(1.2));
    const AgentClass tiled{"tiled", {.cell_size = 0.2, .agent_radius = 0.3}, 16};
    return bytes_of(bake(io::parse_obj(obj, "doorway.obj"), {&tiled, 1}));
  }();
  return bytes;
}

TEST(Bake, ClassesOfSeveralTilesKeepTheirTilesAndLoadStitched) {
  NavBake b = load_bytes(tiled_bake_bytes());
  ASSERT_GE(b.classes()[0].tiles.size(), 4u);
  std::size_t polys = 0;
  for (const navmesh::NavTile& t : b.classes()[0].tiles) polys += t.data.areas.size();
  ASSERT_TRUE(b.classes()[0].mesh.has_value());
  EXPECT_EQ(b.classes()[0].mesh->poly_count(), polys);
  EXPECT_EQ(bytes_of(b), tiled_bake_bytes());
  b.classes()[0].tiles[1] = b.classes()[0].tiles[0];
  EXPECT_EQ(load_error(bytes_of(b)), "test.wmnav: corrupt file: class 'tiled' has two tiles at one place");
}

// A tiled class's tiles lie on the grid recast::build_tiles cuts: forged coordinates or bounds
// are refused (a tile at (INT_MIN, INT_MAX) loaded).
TEST(Bake, ForgedTilesOfATiledClassAreLoadErrors) {
  const std::string& bytes = tiled_bake_bytes();
  ASSERT_EQ(load_error(bytes), "");
  const std::size_t first_tile_at = class_at + 120 + 5;  // after the class header and its name, "tiled"
  const auto forge = [&](std::size_t at, auto value) { return load_error(test::forge(bytes, at, &value, sizeof value)); };
  const std::string tiled = "test.wmnav: corrupt file: class 'tiled': ";
  const auto x0 = read_at_of<std::int32_t>(bytes, first_tile_at), z0 = read_at_of<std::int32_t>(bytes, first_tile_at + 4);
  ASSERT_EQ(x0, 0);
  ASSERT_EQ(z0, 0);
  EXPECT_EQ(forge(first_tile_at, std::numeric_limits<std::int32_t>::min()),
            tiled + "tile (-2147483648, 0) is off the grid of tiles: its coordinates run from 0, with (x + 1) x (z + 1) at most "
                    "max_class_tiles = 1048576");
  EXPECT_EQ(forge(first_tile_at + 4, std::numeric_limits<std::int32_t>::max()),
            tiled + "tile (0, 2147483647) is off the grid of tiles: its coordinates run from 0, with (x + 1) x (z + 1) at most "
                    "max_class_tiles = 1048576");
  EXPECT_NE(forge(first_tile_at, std::int32_t{1000}).find("is not at its place on the grid of tile (1000, 0)"), std::string::npos);
  const double min_x = read_at_of<double>(bytes, first_tile_at + 8);
  EXPECT_NE(forge(first_tile_at + 8, min_x - 1e300).find(tiled + "tile (0, 0) is 1e+300 x 3."), std::string::npos);
  EXPECT_NE(forge(first_tile_at + 8, min_x - 1e300).find("in plan, not tile_size x cell_size = 3."), std::string::npos);
}

TEST(Bake, SaveAndBakeRefuseWhatTheFileCannotHold) {
  NavBake b = load_bytes(small_bake_bytes());
  b.classes()[1].name = "small";
  EXPECT_EQ(test::error_text<BuildError>([&] { (void)bytes_of(b); }), "navmesh bake: two classes are called 'small'");
  b.classes()[1].name = "large";
  b.classes()[1].tiles[0].data.flags.pop_back();
  EXPECT_EQ(test::error_text<BuildError>([&] { (void)bytes_of(b); }),
            "navmesh bake: class 'large' tile (0, 0) has arrays that disagree in size");
  b.classes()[1].tiles[0].data.flags.push_back(0);
  b.classes()[1].params.agent_radius = 1e308;  // what the loader refuses, save refuses too
  EXPECT_EQ(test::error_text<BuildError>([&] { (void)bytes_of(b); }),
            "navmesh bake: class 'large': build parameter agent_radius is out of range: 1e+308 (from 0 to "
            "navmesh::bake_limits.max_radius_cells = 127 cells)");
  b.classes()[1].params.agent_radius = 1;
  b.classes()[1].tiles[0].coord = {1, 0};
  EXPECT_EQ(test::error_text<BuildError>([&] { (void)bytes_of(b); }),
            "navmesh bake: class 'large': a solo class (tile_size 0) has one tile, at (0, 0); this one has 1, the first at (1, 0)");
  b.classes().clear();
  EXPECT_EQ(test::error_text<BuildError>([&] { (void)bytes_of(b); }),
            "navmesh bake: a bake holds 1 to 32 agent classes, this one 0");
  const TriangleMesh model = load("nav_test.obj");
  const std::vector<AgentClass> two{{"a", {}}, {"a", {}}};
  EXPECT_EQ(test::error_text<BuildError>([&] { (void)bake(model, two); }), "two agent classes are called 'a'");
  const std::vector<AgentClass> bad{{"a", {.cell_size = -1}}};
  EXPECT_EQ(test::error_text<BuildError>([&] { (void)bake(model, bad); }),
            "agent class 'a': Recast parameter cell_size must be > 0 and at most recast::max_cell_size (1000000)");
  const std::vector<AgentClass> unnamed{{"", {}}};
  EXPECT_EQ(test::error_text<BuildError>([&] { (void)bake(model, unnamed); }),
            "a class name must have 1 to 64 bytes, got ''");
}

// Two agent classes from one bake through one doorway 1.2 wide: the small agent (radius 0.3,
// diameter 0.6) passes from one room to the other; the large one (radius 1.0, diameter 2.0)
// does not, and its rooms are cut apart (a partial path at most).
TEST(Bake, TwoAgentClassesThroughOneDoorway) {
  const NavBake b = load_bytes(small_bake_bytes());
  const Vec3 west{5, 0, 5}, east{15, 0, 5};
  for (const navmesh::NavMode mode : {navmesh::NavMode::shortest, navmesh::NavMode::funnel}) {
    NavMeshQuery small(*b.find_class("small")->mesh, {.mode = mode});
    NavMeshQuery large(*b.find_class("large")->mesh, {.mode = mode, .query = {.partial_result = true}});
    ASSERT_TRUE(small.find_path(west, east).succeeded());
    EXPECT_NEAR(small.path().length, 10.0, 0.2);  // straight through the doorway
    const Status st = large.find_path(west, east);
    EXPECT_FALSE(st.succeeded());
    EXPECT_TRUE(st.has(StatusDetail::partial_result));  // it gets to the wall, not beyond
    EXPECT_LT(large.path().corners.back().x, 10.0 - 1.0 + 1e-6);
    EXPECT_TRUE(large.find_path(west, Vec3{3, 0, 8}).succeeded());  // within its room it goes anywhere
  }
  EXPECT_EQ(b.find_class("none"), nullptr);
}

// Simulation agents name their class by their radius: one SizedNavMesh per baked class, and
// NavMeshPathService plans a small agent through the doorway and refuses the large one's path.
TEST(Bake, SimulationAgentsPlanOnTheirClassesMesh) {
  const NavBake b = load_bytes(small_bake_bytes());
  std::vector<steer::SizedNavMesh> sized;
  for (const BakedClass& c : b.classes()) sized.push_back({&*c.mesh, c.params.agent_radius});
  steer::NavMeshPathService service(sized, {}, {});
  ASSERT_EQ(service.size_class(0.25), std::optional<std::size_t>(0));
  ASSERT_EQ(service.size_class(0.9), std::optional<std::size_t>(1));
  EXPECT_EQ(service.size_class(1.1), std::nullopt);  // no class is that large
  const auto answer = [&](std::size_t size_class, std::vector<Vec2>& points) {
    const search::RequestId id = service.submit({5, 5}, {15, 5}, size_class);
    while (service.in_flight() > 0) service.update({});
    const steer::PathService::Answer a = service.take(id, points);
    service.release(id);
    return a;
  };
  std::vector<Vec2> points;
  EXPECT_EQ(answer(0, points), steer::PathService::Answer::found);
  EXPECT_EQ(answer(1, points), steer::PathService::Answer::failed);
}

// The doorway between the diameters is what decides: wider than the large agent, both pass.
TEST(Bake, AWideDoorwayLetsBothClassesThrough) {
  std::istringstream obj(test::doorway_level_obj(3.0));
  const TriangleMesh model = io::parse_obj(obj, "wide.obj");
  std::vector<AgentClass> classes{{"small", {.cell_size = 0.2, .agent_radius = 0.3}},
                                  {"large", {.cell_size = 0.2, .agent_radius = 1.0}}};
  const NavBake b = bake(model, classes);
  for (const BakedClass& c : b.classes()) {
    NavMeshQuery q(*c.mesh);
    EXPECT_TRUE(q.find_path({5, 0, 5}, {15, 0, 5}).succeeded()) << c.name;
  }
}

// The classes are built on several threads; the bake is the same bytes on one.
TEST(Bake, ThreadsDoNotChangeTheBake) {
  const TriangleMesh model = load("dungeon.obj");
  std::vector<AgentClass> classes{{"a", {}}, {"b", {}}, {"c", {}}};
  classes[1].params.agent_radius = 0.3;
  classes[2].params.agent_radius = 1.2;
  const std::string one = bytes_of(bake(model, classes, 1));
  EXPECT_EQ(bytes_of(bake(model, classes, 3)), one);
  EXPECT_EQ(bytes_of(bake(model, classes)), one);
  classes[1].params.cell_size = 0;  // the first failure in class order is reported
  classes[2].params.verts_per_poly = 9;
  EXPECT_EQ(test::error_text<BuildError>([&] { (void)bake(model, classes, 3); }),
            "agent class 'b': Recast parameter cell_size must be > 0 and at most recast::max_cell_size (1000000)");
}

TEST(Bake, FingerprintFollowsTheGeometry) {
  const TriangleMesh model = load("nav_test.obj");
  const std::uint64_t f = navmesh::geometry_fingerprint(model);
  EXPECT_EQ(f, navmesh::geometry_fingerprint(load("nav_test.obj")));
  EXPECT_NE(f, navmesh::geometry_fingerprint(load("dungeon.obj")));
  TriangleMesh nudged = model;
  nudged.vertices[100].y = std::nextafter(nudged.vertices[100].y, 1e9);  // one unit in the last place
  EXPECT_NE(f, navmesh::geometry_fingerprint(nudged));
  TriangleMesh turned = model;
  std::swap(turned.triangles[5][0], turned.triangles[5][1]);
  EXPECT_NE(f, navmesh::geometry_fingerprint(turned));
  TriangleMesh fewer = model;
  fewer.triangles.pop_back();
  EXPECT_NE(f, navmesh::geometry_fingerprint(fewer));
  // An edited OBJ (one more line), read again.
  std::istringstream a(test::doorway_level_obj(1.2)), c(test::doorway_level_obj(1.2) + "v 0 0 0\n");
  EXPECT_NE(navmesh::geometry_fingerprint(io::parse_obj(a, "a.obj")), navmesh::geometry_fingerprint(io::parse_obj(c, "c.obj")));
}

TEST(Bake, FilesOnDiskReportTheirPath) {
  const std::string path = ::testing::TempDir() + "/waymark_bake_test.wmnav";
  load_bytes(small_bake_bytes()).save(path);
  const NavBake loaded = NavBake::load(path);
  EXPECT_EQ(loaded.classes().size(), 2u);
  EXPECT_EQ(test::error_text<LoadError>([&] { (void)NavBake::load(path + ".none"); }), path + ".none: cannot open file");
  const std::string unwritable = ::testing::TempDir() + "/no/such/dir/x.wmnav";
  EXPECT_NE(test::error_text<SaveError>([&] { load_bytes(small_bake_bytes()).save(unwritable); }).find("cannot open for writing"),
            std::string::npos);
}

}  // namespace
}  // namespace waymark::recast::bake_test
