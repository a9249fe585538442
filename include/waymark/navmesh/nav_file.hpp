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

/// What a class was built with: Recast's parameters (recast::RecastParams, the same names and
/// defaults), stored in the file so a bake says which agents it is for. Lengths in world
/// units. The loader checks each is finite and in its range.
struct NavBuildParams {
  double cell_size = 0.3;          ///< voxel width and depth (x, z). [> 0]
  double cell_height = 0.2;        ///< voxel height (y). [> 0]
  double agent_height = 2.0;       ///< clearance an agent needs above the floor. [>= 0]
  double agent_radius = 0.6;       ///< floors are eroded this far from walls. [>= 0]
  double agent_max_climb = 0.9;    ///< highest ledge an agent steps up. [>= 0]
  double agent_max_slope = 45;     ///< steepest walkable slope, degrees. [0, 90)
  double region_min_size = 8;      ///< regions smaller than this squared (in cells) are dropped. [>= 0]
  double region_merge_size = 20;   ///< regions smaller than this squared (in cells) are merged. [>= 0]
  double edge_max_len = 12;        ///< longest contour edge. [>= 0]
  double edge_max_error = 1.3;     ///< how far a simplified contour may stray, in cells. [>= 0]
  int verts_per_poly = 6;          ///< most corners of a polygon. [3, 6]
  double detail_sample_dist = 6;   ///< detail mesh sample spacing, in cells. [>= 0]
  double detail_sample_max_error = 1;  ///< detail mesh height error, in cell heights. [>= 0]
  /// Tile width in cells (Recast's tileSize); 0: one solo mesh. [>= 0, whole]
  double tile_size = 0;

  friend bool operator==(const NavBuildParams&, const NavBuildParams&) = default;
};

/// One agent class of a bake: its name (what a query or an agent names), the parameters it
/// was built with, its tiles, and, when it is one tile, its navmesh.
struct BakedClass {
  std::string name;  ///< [1 to max_class_name_bytes bytes, unique in its bake]
  NavBuildParams params;
  /// The class's tiles, in world coordinates. A solo build: one tile, coord (0, 0), bounds the
  /// plan bounds of its vertices.
  std::vector<NavTile> tiles;
  /// The class's navmesh, ready to query: built from its tile when it has one, its tiles
  /// stitched (stitch_tiles, as TiledNavMesh does) when it has several. A game that streams
  /// the tiles builds a TiledNavMesh from `tiles` instead.
  std::optional<NavMesh> mesh;
};

/// A bake: the geometry's fingerprint and one navmesh per agent class. Immutable once built
/// or loaded; queries refer to a class's `mesh`, so keep the bake alive (and unmoved) while
/// they run.
struct NavBake {
  /// geometry_fingerprint() of the model the bake was built from.
  std::uint64_t geometry_fingerprint = 0;
  std::vector<BakedClass> classes;

  /// The class called `name`, or null.
  [[nodiscard]] const BakedClass* find_class(std::string_view name) const;

  /// Writes the `.wmnav` file: the fingerprint and each class's name, parameters and tiles
  /// (`mesh` is made from the tiles again on load). Throws SaveError (file, reason) when it
  /// cannot be written, and BuildError when the bake breaks a limit above or a tile's arrays
  /// disagree in size (nothing is written then).
  void save(const std::string& path) const;
  void save(std::ostream& out) const;
  /// Reads a `.wmnav` file and builds each one-tile class's navmesh. Throws LoadError (file,
  /// reason) for a file that cannot be read, is not a `.wmnav` file of this version, is
  /// truncated, has trailing data or a wrong checksum, breaks a limit, or holds a value out of
  /// range or a polygon structure NavMesh refuses (the reason names the class and tile).
  [[nodiscard]] static NavBake load(const std::string& path);
  [[nodiscard]] static NavBake load(std::istream& in, const std::string& name);
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
