#pragma once
/// @file Baked navmeshes: the `.wmnav` file. One bake holds one navmesh per agent class (agent
/// radius, height, climb, slope), each with the parameters it was built with and its tiles
/// (a solo build is one tile), and a fingerprint of the geometry it was built from. Written
/// and read here without Recast (recast/bake.hpp builds one); a damaged, truncated, forged or
/// other-version file is a LoadError naming the file, never a wrong answer: every count is
/// checked against its limit before anything is allocated, the checksum before anything is
/// trusted, and every tile's structure as NavMesh checks a build (docs/levels.md "Baking").

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "waymark/core/triangle_mesh.hpp"
#include "waymark/navmesh/build_params.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_tile.hpp"

namespace waymark::navmesh {

/// The most agent classes one bake holds. [Limit: max_bake_classes = 32]
inline constexpr std::size_t max_bake_classes = 32;
/// The longest class name, in bytes. [Limit: max_class_name_bytes = 64]
inline constexpr std::size_t max_class_name_bytes = 64;
/// The most tiles one class holds. [Limit: max_class_tiles = 2^20]
inline constexpr std::size_t max_class_tiles = std::size_t{1} << 20;
/// The most vertices, polygons, corners and detail triangles one tile holds (a tile's indices
/// are 32-bit). [Limit: max_tile_elements = 2^28]
inline constexpr std::size_t max_tile_elements = std::size_t{1} << 28;
/// The most off-mesh links one tile holds. [Limit: max_tile_links = 2^20]
inline constexpr std::size_t max_tile_links = std::size_t{1} << 20;

/// What a bake's build parameters and tiles may hold: the limits recast::bake checks before
/// it builds (recast/recast_build.hpp and tiled_build.hpp name each; recast/bake.cpp asserts at
/// compile time that these are the same), so a file past any was not written by a bake:
/// NavBake::save refuses it and NavBake::load calls it corrupt.
struct BakeLimits {
  double max_cell_size = 1e6;           ///< cell_size and cell_height, world units (recast::max_cell_size)
  double max_radius_cells = 127;        ///< agent_radius / cell_size (recast::max_radius_cells)
  double max_agent_height_cells = 255;  ///< agent_height / cell_height (recast::max_agent_height_cells)
  double max_climb_cells = 8191;        ///< agent_max_climb / cell_height (recast::max_climb_cells)
  double max_region_size = 1e4;         ///< region_min_size and region_merge_size are below it (recast::max_region_size)
  double max_edge_len_cells = 46340;    ///< edge_max_len / cell_size (recast::max_edge_len_cells)
  double max_edge_error_cells = 64;     ///< edge_max_error, cells (recast::max_edge_error_cells)
  int min_tile_size = 3;                ///< a tiled class's tile_size, voxels (recast::min_tile_size)
  int max_tile_size = 4096;             ///< (recast::max_tile_size)
};
inline constexpr BakeLimits bake_limits{};

/// What a class was built with: Recast's parameters (recast::RecastParams, the one
/// RecastBuildParams) and its tile size, stored in the file so a bake says which agents it is
/// for. Lengths in world units. The loader checks each is finite and within bake_limits, as
/// recast::bake does.
struct NavBuildParams : RecastBuildParams {
  /// Tile width in cells (Recast's tileSize, as recast::TiledParams::tile_size); 0: one solo
  /// mesh. [0, or min_tile_size to max_tile_size]
  int tile_size = 0;

  friend bool operator==(const NavBuildParams&, const NavBuildParams&) = default;
};

/// One agent class of a bake: its name (what a query or an agent names), the parameters it
/// was built with, its tiles, and its navmesh (its one tile, or its tiles stitched).
struct BakedClass {
  std::string name;  ///< [1 to max_class_name_bytes bytes, unique in its bake]
  NavBuildParams params;
  /// The class's tiles, in world coordinates, each with the class's agent_max_climb as its
  /// climb. A solo build: one tile, coord (0, 0), bounds the plan bounds of its vertices. A
  /// tiled build (params.tile_size > 0): tiles at coords from (0, 0), (x + 1) × (z + 1) at most
  /// max_class_tiles (the grid recast::build_tiles cuts), each tile_size × cell_size wide
  /// and deep and at its place on one grid (to a quarter cell).
  std::vector<NavTile> tiles;
  /// The class's navmesh, ready to query: built from its tile when it has one, its tiles
  /// stitched (stitch_tiles, as TiledNavMesh does) when it has several. A game that streams
  /// the tiles builds a TiledNavMesh from `tiles` instead.
  std::optional<NavMesh> mesh;
};

/// A bake: the geometry's fingerprint and one navmesh per agent class. Immutable once built
/// or loaded; queries refer to a class's `mesh`, so keep the bake alive (and unmoved) while
/// they run. A temporary bake's classes do not compile (`*recast::bake(…).find_class("x")->mesh`
/// or `….classes()[0].mesh` would dangle at the end of the statement): keep the bake first.
struct NavBake {
  /// geometry_fingerprint() of the model the bake was built from.
  std::uint64_t geometry_fingerprint = 0;

  /// The agent classes, in the order they were baked or stored.
  [[nodiscard]] const std::vector<BakedClass>& classes() const& { return classes_; }
  /// The same to fill or change, before the bake is saved or queried.
  [[nodiscard]] std::vector<BakedClass>& classes() & { return classes_; }
  const std::vector<BakedClass>& classes() const&& = delete;  // a temporary bake's: would dangle
  /// The class called `name`, or null.
  [[nodiscard]] const BakedClass* find_class(std::string_view name) const&;
  const BakedClass* find_class(std::string_view name) const&& = delete;  // a temporary bake's: would dangle

  /// Writes the `.wmnav` file: the fingerprint and each class's name, parameters and tiles
  /// (`mesh` is made from the tiles again on load). Throws SaveError (file, reason) when it
  /// cannot be written, and BuildError when the bake breaks a limit above or a tile's arrays
  /// disagree in size (nothing is written then).
  void save(const std::string& path) const;
  void save(std::ostream& out) const;
  /// Reads a `.wmnav` file and builds each class's navmesh (a tiled class's tiles stitched, as
  /// stitch_tiles does; a LoadError naming the class when they do not stitch). Throws LoadError (file,
  /// reason) for a file that cannot be read, is not a `.wmnav` file of this version, is
  /// truncated, has trailing data or a wrong checksum, breaks a limit, or holds a value out of
  /// range or a polygon structure NavMesh refuses (the reason names the class and tile).
  [[nodiscard]] static NavBake load(const std::string& path);
  [[nodiscard]] static NavBake load(std::istream& in, const std::string& name);

 private:
  std::vector<BakedClass> classes_;
};

/// The fingerprint of a model as read (its vertices' coordinates, bit for bit, and its
/// triangles' indices, in order): a bake records it, so a tool can tell the bake of another
/// or an edited level. Any change to a coordinate or an index changes it (but for 64-bit hash
/// collisions).
[[nodiscard]] std::uint64_t geometry_fingerprint(const TriangleMesh& model);

/// Why `name` cannot name an agent class, or empty when it can: 1 to max_class_name_bytes
/// printable ASCII characters, none of them a space, ',' or '=' (the CLI spells a class
/// NAME=radius,height,climb,slope).
[[nodiscard]] std::string class_name_problem(std::string_view name);

/// A solo navmesh as a tile: coord (0, 0), bounds its vertices' plan bounds.
[[nodiscard]] NavTile solo_tile(const NavMesh& mesh);

}  // namespace waymark::navmesh
