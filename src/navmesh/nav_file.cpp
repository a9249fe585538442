// Baked navmeshes: the .wmnav format, its writer, and the checks every loaded file passes.
#include "waymark/navmesh/nav_file.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <istream>
#include <limits>
#include <ostream>
#include <string>
#include <type_traits>

#include "waymark/core/binary_io.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/hash.hpp"
#include "waymark/core/text.hpp"

namespace waymark::navmesh {

// ---------------------------------------------------------------------------------------------
// Binary format (little-endian, as written by the machine; a byte-order mark refuses others):
//   FileHeader
//   per class: ClassHeader, its name's bytes, then per tile: TileHeader and its arrays —
//     vertices (Vec3), poly_begin (u32, polygons + 1), corners (u32), neighbours (u32),
//     areas (u8), flags (u16), detail_begin (u32, polygons + 1 or none), detail triangles
//     (3 Vec3), links (LinkRecord)
//   the checksum (Hasher) of every byte before it.

namespace {

constexpr char file_magic[8] = {'W', 'M', 'N', 'A', 'V', 'M', 'S', 'H'};
constexpr std::uint32_t file_version = 1;
constexpr std::uint32_t byte_order_mark = 0x01020304u;

struct FileHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t byte_order;
  std::uint64_t fingerprint;
  std::uint32_t classes;
  std::uint32_t reserved;
};
static_assert(std::is_trivially_copyable_v<FileHeader> && sizeof(FileHeader) == 32);

// NavBuildParams without padding: Recast's doubles in declaration order, the tile size (a whole
// number, as a double), then verts_per_poly.
constexpr std::size_t param_doubles = 13;
struct ParamsRecord {
  double values[param_doubles];
  std::int32_t verts_per_poly;
  std::uint32_t reserved;
};
static_assert(std::is_trivially_copyable_v<ParamsRecord> && sizeof(ParamsRecord) == 112);

struct ClassHeader {
  std::uint32_t name_bytes;
  std::uint32_t tiles;
  ParamsRecord params;
};
static_assert(std::is_trivially_copyable_v<ClassHeader> && sizeof(ClassHeader) == 120);

struct TileHeader {
  std::int32_t x, z;
  double min_x, min_z, max_x, max_z;
  double climb;
  std::uint64_t vertices, polygons, corners, detail_polygons, detail_triangles, links;
};
static_assert(std::is_trivially_copyable_v<TileHeader> && sizeof(TileHeader) == 96);

// OffMeshLink without padding.
struct LinkRecord {
  double start[3], end[3];
  double radius, cost;
  std::uint32_t user_id;
  std::uint16_t flags;
  std::uint8_t area;
  std::uint8_t bidirectional;
};
static_assert(std::is_trivially_copyable_v<LinkRecord> && sizeof(LinkRecord) == 72);
static_assert(sizeof(Vec3) == 24 && sizeof(PolyId) == 4 && sizeof(std::array<Vec3, 3>) == 72);

/// The parameters as the file stores them, each with its name and its range: [lo, hi] in
/// `unit` (the cell size, the cell height or 1) — hi excluded when `open` — as recast::bake
/// checks them; `limit` names the limit, or is null for a range of Recast's own.
struct ParamField {
  const char* name;
  double RecastBuildParams::*member;
  double lo;
  double hi;
  double RecastBuildParams::*unit;  ///< null: 1
  bool open;
  const char* limit;
};
constexpr double unbounded = std::numeric_limits<double>::infinity();
constexpr ParamField param_fields[param_doubles - 1] = {
    {"cell_size", &RecastBuildParams::cell_size, 0, bake_limits.max_cell_size, nullptr, false, "max_cell_size"},
    {"cell_height", &RecastBuildParams::cell_height, 0, bake_limits.max_cell_size, nullptr, false, "max_cell_size"},
    {"agent_height", &RecastBuildParams::agent_height, 0, bake_limits.max_agent_height_cells, &RecastBuildParams::cell_height, false,
     "max_agent_height_cells"},
    {"agent_radius", &RecastBuildParams::agent_radius, 0, bake_limits.max_radius_cells, &RecastBuildParams::cell_size, false,
     "max_radius_cells"},
    {"agent_max_climb", &RecastBuildParams::agent_max_climb, 0, bake_limits.max_climb_cells, &RecastBuildParams::cell_height, false,
     "max_climb_cells"},
    {"agent_max_slope", &RecastBuildParams::agent_max_slope, 0, 90, nullptr, true, nullptr},
    {"region_min_size", &RecastBuildParams::region_min_size, 0, bake_limits.max_region_size, nullptr, true, "max_region_size"},
    {"region_merge_size", &RecastBuildParams::region_merge_size, 0, bake_limits.max_region_size, nullptr, true, "max_region_size"},
    {"edge_max_len", &RecastBuildParams::edge_max_len, 0, bake_limits.max_edge_len_cells, &RecastBuildParams::cell_size, false,
     "max_edge_len_cells"},
    {"edge_max_error", &RecastBuildParams::edge_max_error, 0, bake_limits.max_edge_error_cells, nullptr, false, "max_edge_error_cells"},
    {"detail_sample_dist", &RecastBuildParams::detail_sample_dist, 0, unbounded, nullptr, false, nullptr},
    {"detail_sample_max_error", &RecastBuildParams::detail_sample_max_error, 0, unbounded, nullptr, false, nullptr},
};
constexpr std::size_t tile_size_value = param_doubles - 1;  ///< ParamsRecord::values' index of the tile size

ParamsRecord record_of(const NavBuildParams& p) {
  ParamsRecord r{};
  for (std::size_t i = 0; i < std::size(param_fields); ++i) r.values[i] = p.*param_fields[i].member;
  r.values[tile_size_value] = p.tile_size;
  r.verts_per_poly = p.verts_per_poly;
  return r;
}

/// The tile sizes a class may have, as messages say them.
std::string tile_size_range() {
  return "(0, or a whole number from navmesh::bake_limits.min_tile_size = " + number_text(bake_limits.min_tile_size) +
         " to max_tile_size = " + number_text(bake_limits.max_tile_size) + ")";
}

/// Why `p` is out of range (naming the parameter, its value and the limit), or empty.
std::string params_problem(const NavBuildParams& p) {
  for (const ParamField& f : param_fields) {
    const double v = p.*f.member, unit = f.unit != nullptr ? p.*f.unit : 1;
    const double scaled = v / unit;
    const bool positive = f.member == &RecastBuildParams::cell_size || f.member == &RecastBuildParams::cell_height;
    const bool ok = std::isfinite(v) && (positive ? v > f.lo : v >= f.lo) && (f.open ? scaled < f.hi : scaled <= f.hi);
    if (!ok) {
      std::string range = positive ? "above 0 and at most " : f.open ? "from 0 to below " : "from 0 to ";
      if (!std::isfinite(f.hi)) {
        range = "finite, from 0";
      } else {
        range += (f.limit != nullptr ? std::string("navmesh::bake_limits.") + f.limit + " = " : std::string()) + number_text(f.hi) +
                 (f.unit == nullptr ? "" : f.unit == &RecastBuildParams::cell_size ? " cells" : " cell heights");
      }
      return std::string("build parameter ") + f.name + " is out of range: " + number_text(v) + " (" + range + ")";
    }
  }
  if (p.tile_size != 0 && (p.tile_size < bake_limits.min_tile_size || p.tile_size > bake_limits.max_tile_size)) {
    return "build parameter tile_size is out of range: " + number_text(p.tile_size) + " " + tile_size_range();
  }
  if (p.verts_per_poly < 3 || p.verts_per_poly > 6)
    return "build parameter verts_per_poly is out of range: " + number_text(p.verts_per_poly) + " (3 to 6)";
  return {};
}

/// Why `c`'s tiles cannot be a bake's (see BakedClass::tiles), or empty.
std::string tiles_problem(const BakedClass& c) {
  const auto at = [](const NavTile& t) { return "tile (" + number_text(t.coord.x) + ", " + number_text(t.coord.z) + ")"; };
  for (const NavTile& t : c.tiles) {
    if (!(t.data.climb == c.params.agent_max_climb))  // NaN too
      return at(t) + " has a climb of " + number_text(t.data.climb) + ", not its class's agent_max_climb";
  }
  if (c.params.tile_size == 0) {
    if (c.tiles.size() != 1 || c.tiles[0].coord != TileCoord{0, 0})
      return "a solo class (tile_size 0) has one tile, at (0, 0); this one has " + number_text(c.tiles.size()) +
             ", the first at " + at(c.tiles[0]).substr(5);
    return {};
  }
  const double side = c.params.tile_size * c.params.cell_size, slack = c.params.cell_size / 4;
  const NavTile& first = c.tiles[0];
  for (const NavTile& t : c.tiles) {
    const std::int64_t x = t.coord.x, z = t.coord.z;
    if (x < 0 || z < 0 || (x + 1) * (z + 1) > static_cast<std::int64_t>(max_class_tiles))
      return at(t) + " is off the grid of tiles: its coordinates run from 0, with (x + 1) x (z + 1) at most max_class_tiles = " +
             number_text(max_class_tiles);
    const Vec2 size = t.max - t.min;
    if (!(std::abs(size.x - side) <= slack && std::abs(size.y - side) <= slack))
      return at(t) + " is " + number_text(size.x) + " x " + number_text(size.y) + " in plan, not tile_size x cell_size = " + number_text(side);
    const Vec2 from_first = t.min - first.min, places{static_cast<double>(x - first.coord.x), static_cast<double>(z - first.coord.z)};
    if (!(std::abs(from_first.x - places.x * side) <= slack && std::abs(from_first.y - places.y * side) <= slack))
      return at(t) + " is not at its place on the grid of " + at(first);
  }
  return {};
}

Vec3 vec_of(const double (&c)[3]) { return {c[0], c[1], c[2]}; }

std::string tile_name(const BakedClass& c, const NavTile& t) {
  return "class '" + c.name + "' tile (" + number_text(t.coord.x) + ", " + number_text(t.coord.z) + ")";
}


/// Checks a whole bake against the limits and ranges (what save refuses and load rejects),
/// calling fail(reason) at the first problem.
template <class Fail>
void check_bake_shape(const NavBake& bake, Fail&& fail) {
  if (bake.classes().empty() || bake.classes().size() > max_bake_classes)
    fail("a bake holds 1 to " + number_text(max_bake_classes) + " agent classes, this one " +
         number_text(bake.classes().size()));
  for (std::size_t i = 0; i < bake.classes().size(); ++i) {
    const BakedClass& c = bake.classes()[i];
    if (std::string why = class_name_problem(c.name); !why.empty()) fail(why);
    for (std::size_t j = 0; j < i; ++j)
      if (bake.classes()[j].name == c.name) fail("two classes are called '" + c.name + "'");
    if (std::string why = params_problem(c.params); !why.empty()) fail("class '" + c.name + "': " + why);
    if (c.tiles.empty() || c.tiles.size() > max_class_tiles)
      fail("class '" + c.name + "' has " + number_text(c.tiles.size()) + " tiles (1 to " +
           number_text(max_class_tiles) + " allowed)");
    if (std::string why = tiles_problem(c); !why.empty()) fail("class '" + c.name + "': " + why);
  }
}

void write_tile(ChecksummedWriter& w, const NavTile& t) {
  const NavMeshData& d = t.data;
  const std::size_t polys = d.areas.size();
  const TileHeader h{t.coord.x, t.coord.z, t.min.x, t.min.y, t.max.x, t.max.y, d.climb,
                     d.vertices.size(), polys, d.corners.size(),
                     d.detail_begin.empty() ? 0 : polys, d.detail.size(), d.links.size()};
  w.bytes(&h, sizeof h);
  w.array(d.vertices);
  w.array(d.poly_begin);
  w.array(d.corners);
  w.array(d.neighbors);
  w.array(d.areas);
  w.array(d.flags);
  w.array(d.detail_begin);
  w.array(d.detail);
  for (const OffMeshLink& l : d.links) {
    const LinkRecord r{{l.start.x, l.start.y, l.start.z}, {l.end.x, l.end.y, l.end.z}, l.radius, l.cost,
                       l.user_id, l.flags, l.area, static_cast<std::uint8_t>(l.bidirectional ? 1 : 0)};
    w.bytes(&r, sizeof r);
  }
}

/// Reads one tile's header and arrays, checking every count before reading what it counts.
NavTile read_tile(ChecksummedReader& r, const std::string& where) {
  TileHeader h{};
  r.bytes(&h, sizeof h, "tile header");
  const auto fail = [&](const std::string& reason) { r.fail("corrupt file: " + where + ": " + reason); };
  for (const std::uint64_t count : {h.vertices, h.polygons, h.corners, h.detail_triangles}) {
    if (count > max_tile_elements)
      fail("a count of " + number_text(count) + " is over the limit of " + number_text(max_tile_elements));
  }
  if (h.links > max_tile_links) fail("more off-mesh links than the limit of " + number_text(max_tile_links));
  if (h.polygons == 0) fail("a tile has no polygons");
  if (h.detail_polygons != 0 && h.detail_polygons != h.polygons) fail("the detail mesh does not cover every polygon");
  for (const double v : {h.min_x, h.min_z, h.max_x, h.max_z})
    if (!std::isfinite(v)) fail("its bounds are not finite");
  if (!(h.min_x <= h.max_x && h.min_z <= h.max_z)) fail("its bounds are empty");
  NavTile t{{h.x, h.z}, {h.min_x, h.min_z}, {h.max_x, h.max_z}, {}};
  NavMeshData& d = t.data;
  d.climb = h.climb;
  const auto polys = static_cast<std::size_t>(h.polygons);
  r.array(d.vertices, static_cast<std::size_t>(h.vertices), "vertices");
  r.array(d.poly_begin, polys + 1, "polygon offsets");
  r.array(d.corners, static_cast<std::size_t>(h.corners), "corners");
  r.array(d.neighbors, static_cast<std::size_t>(h.corners), "neighbours");
  r.array(d.areas, polys, "areas");
  r.array(d.flags, polys, "flags");
  r.array(d.detail_begin, h.detail_polygons == 0 ? 0 : polys + 1, "detail offsets");
  r.array(d.detail, static_cast<std::size_t>(h.detail_triangles), "detail triangles");
  d.links.reserve(std::min<std::size_t>(static_cast<std::size_t>(h.links), 4096));  // grows as links are read
  for (std::uint64_t i = 0; i < h.links; ++i) {
    LinkRecord l{};
    r.bytes(&l, sizeof l, "off-mesh links");
    if (l.bidirectional > 1) fail("an off-mesh link's direction is neither one- nor two-way");
    d.links.push_back({vec_of(l.start), vec_of(l.end), l.radius, l.bidirectional == 1, l.area, l.flags, l.cost, l.user_id});
  }
  return t;
}

[[noreturn]] void corrupt(const std::string& file, const std::string& where, const std::string& reason) {
  throw LoadError(file, 0, "corrupt file: " + where + ": " + reason);
}

/// The checks NavMesh's constructor leaves to its builders: offsets that only grow (so a
/// polygon's corner span is inside the corner array before NavMesh reads a neighbour's) and
/// links in range. Then NavMesh checks the rest; its BuildError becomes a LoadError.
/// A class's tiles stitched into one mesh, as TiledNavMesh::snapshot stitches them; a
/// LoadError naming the class when they cannot be (a polygon past max_polygon_corners).
NavMesh stitched(const BakedClass& c, const std::string& file) {
  try {
    return NavMesh(stitch_tiles(c.tiles));
  } catch (const BuildError& e) {
    throw LoadError(file, 0, "class '" + c.name + "': its tiles do not stitch: " + e.what());
  }
}

NavMesh checked_mesh(const NavTile& t, const std::string& file, const std::string& where) {
  const auto fail = [&](const std::string& reason) { corrupt(file, where, reason); };
  const NavMeshData& d = t.data;
  if (d.poly_begin.front() != 0 || d.poly_begin.back() != d.corners.size() ||
      !std::is_sorted(d.poly_begin.begin(), d.poly_begin.end()))
    fail("the polygon offsets do not grow from 0 to the corner count");
  for (const OffMeshLink& l : d.links) {
    if (const auto why = find_link_problem(l)) fail("an off-mesh link's " + *why);
  }
  try {
    return NavMesh(d);
  } catch (const BuildError& e) {
    corrupt(file, where, e.what());
  }
}

}  // namespace

std::string class_name_problem(std::string_view name) {
  if (name.empty() || name.size() > max_class_name_bytes)
    return "a class name must have 1 to " + number_text(max_class_name_bytes) + " bytes";
  for (const char c : name) {
    if (c <= ' ' || c > '~' || c == ',' || c == '=') return "a class name must be printable ASCII without space, ',' or '='";
  }
  return {};
}

const BakedClass* NavBake::find_class(std::string_view name) const& {
  for (const BakedClass& c : classes_)
    if (c.name == name) return &c;
  return nullptr;
}

void NavBake::save(std::ostream& out) const {
  check_bake_shape(*this, [](const std::string& reason) { throw BuildError("navmesh bake: " + reason); });
  for (const BakedClass& c : classes_) {
    for (const NavTile& t : c.tiles) {
      const NavMeshData& d = t.data;
      const auto fail = [&](const char* reason) { throw BuildError("navmesh bake: " + tile_name(c, t) + " " + reason); };
      for (const std::size_t count : {d.vertices.size(), d.areas.size(), d.corners.size(), d.detail.size()})
        if (count > max_tile_elements) fail("is over max_tile_elements");
      if (d.links.size() > max_tile_links) fail("is over max_tile_links");
      const std::size_t polys = d.areas.size();
      if (d.poly_begin.size() != polys + 1 || d.flags.size() != polys || d.neighbors.size() != d.corners.size() ||
          (!d.detail_begin.empty() && d.detail_begin.size() != polys + 1))
        fail("has arrays that disagree in size");
    }
  }
  FileHeader h{};
  std::memcpy(h.magic, file_magic, sizeof h.magic);
  h.version = file_version;
  h.byte_order = byte_order_mark;
  h.fingerprint = geometry_fingerprint;
  h.classes = static_cast<std::uint32_t>(classes_.size());
  ChecksummedWriter w(out);
  w.bytes(&h, sizeof h);
  for (const BakedClass& c : classes_) {
    const ClassHeader ch{static_cast<std::uint32_t>(c.name.size()), static_cast<std::uint32_t>(c.tiles.size()),
                         record_of(c.params)};
    w.bytes(&ch, sizeof ch);
    w.bytes(c.name.data(), c.name.size());
    for (const NavTile& t : c.tiles) write_tile(w, t);
  }
  w.finish();
}

void NavBake::save(const std::string& path) const {
  save_file(path, [&](std::ostream& out) { save(out); });
}

NavBake NavBake::load(const std::string& path) {
  return load_file(path, [&](std::istream& in) { return load(in, path); });
}

NavBake NavBake::load(std::istream& in, const std::string& name) {
  ChecksummedReader r(in, name);
  FileHeader h{};
  r.bytes(&h, sizeof h, "header");
  if (std::memcmp(h.magic, file_magic, sizeof h.magic) != 0) r.fail("not a waymark navmesh bake (wrong magic)");
  if (h.version != file_version)
    r.fail("unsupported version " + number_text(h.version) + " (expected " + number_text(file_version) + ")");
  if (h.byte_order != byte_order_mark) r.fail("written on a machine with another byte order");
  if (h.reserved != 0) r.fail("corrupt file: a reserved field is not 0");
  if (h.classes == 0 || h.classes > max_bake_classes)
    r.fail("corrupt file: " + number_text(h.classes) + " agent classes (1 to " + number_text(max_bake_classes) +
           " allowed)");
  NavBake bake;
  bake.geometry_fingerprint = h.fingerprint;
  bake.classes().resize(h.classes);
  for (BakedClass& c : bake.classes()) {
    ClassHeader ch{};
    r.bytes(&ch, sizeof ch, "class header");
    if (ch.name_bytes == 0 || ch.name_bytes > max_class_name_bytes) r.fail("corrupt file: a class name's length is out of range");
    if (ch.tiles == 0 || ch.tiles > max_class_tiles) r.fail("corrupt file: a class's tile count is out of range");
    if (ch.params.reserved != 0) r.fail("corrupt file: a reserved field is not 0");
    c.name.resize(ch.name_bytes);
    r.bytes(c.name.data(), c.name.size(), "class name");
    if (std::string why = class_name_problem(c.name); !why.empty()) r.fail("corrupt file: " + why);  // before messages quote it
    for (std::size_t i = 0; i < std::size(param_fields); ++i) c.params.*param_fields[i].member = ch.params.values[i];
    // The tile size is a whole number in the file's double: checked here, before it becomes
    // the int, with params_problem's words.
    const double tile_size = ch.params.values[tile_size_value];
    const std::string tile_size_problem = "corrupt file: class '" + c.name + "': build parameter tile_size is out of range: " + number_text(tile_size);
    if (!(tile_size >= 0 && tile_size <= bake_limits.max_tile_size)) {
      r.fail(tile_size_problem + " (from 0 to navmesh::bake_limits.max_tile_size = " + number_text(bake_limits.max_tile_size) + ")");
    }
    if (tile_size != std::floor(tile_size) || (tile_size != 0 && tile_size < bake_limits.min_tile_size)) {
      r.fail(tile_size_problem + " " + tile_size_range());
    }
    c.params.tile_size = static_cast<int>(tile_size);
    c.params.verts_per_poly = ch.params.verts_per_poly;
    for (std::uint32_t i = 0; i < ch.tiles; ++i) c.tiles.push_back(read_tile(r, "class '" + c.name + "'"));
  }
  r.finish();
  check_bake_shape(bake, [&](const std::string& reason) { r.fail("corrupt file: " + reason); });
  for (BakedClass& c : bake.classes()) {
    std::vector<TileCoord> coords;
    for (const NavTile& t : c.tiles) coords.push_back(t.coord);
    std::sort(coords.begin(), coords.end());
    if (std::adjacent_find(coords.begin(), coords.end()) != coords.end())
      r.fail("corrupt file: class '" + c.name + "' has two tiles at one place");
    for (const NavTile& t : c.tiles) {
      NavMesh mesh = checked_mesh(t, name, tile_name(c, t));
      if (c.tiles.size() == 1) c.mesh.emplace(std::move(mesh));
    }
    if (c.tiles.size() > 1) c.mesh.emplace(stitched(c, name));
  }
  return bake;
}

std::uint64_t geometry_fingerprint(const TriangleMesh& model) {
  Hasher h;
  h.add(model.vertices.size());
  for (const Vec3& v : model.vertices) {
    h.add(std::bit_cast<std::uint64_t>(v.x));
    h.add(std::bit_cast<std::uint64_t>(v.y));
    h.add(std::bit_cast<std::uint64_t>(v.z));
  }
  h.add(model.triangles.size());
  for (const auto& t : model.triangles) {
    for (const std::uint32_t v : t) h.add(v);
  }
  return h.value();
}

NavTile solo_tile(const NavMesh& mesh) {
  Vec2 lo{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  Vec2 hi{-lo.x, -lo.y};
  for (const Vec3& v : mesh.vertices()) {
    lo = {std::min(lo.x, v.x), std::min(lo.y, v.z)};
    hi = {std::max(hi.x, v.x), std::max(hi.y, v.z)};
  }
  if (mesh.vertex_count() == 0) lo = hi = {0, 0};
  return {{0, 0}, lo, hi, mesh.data()};
}

}  // namespace waymark::navmesh
