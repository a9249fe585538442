#pragma once
/// @file Generated drop-down links (Unity's "generated off-mesh links"): one-way off-mesh links
/// from the ledges of a navmesh down to the floor below them.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "waymark/navmesh/nav_mesh.hpp"

namespace waymark::navmesh {

/// The most points one wall edge is sampled at, whatever the spacing. [Limit]
inline constexpr std::size_t max_drop_down_samples = 4096;

struct DropDownParams {
  /// One link per this much of a ledge (world units); a ledge shorter than it gets one, at its
  /// middle; an edge is sampled at most max_drop_down_samples times. [> 0, finite]
  double spacing = 1.0;
  /// How far beyond the ledge, in plan, the landing is sought. [> 0, finite]
  double reach = 1.0;
  /// Drops of at most this are steps, not ledges; the mesh's climb when that is larger. [>= 0]
  double min_drop = 0.0;
  /// The deepest drop linked. [> min_drop, finite]
  double max_drop = 5.0;
  /// Each link's radius, area, flags and cost (0: its 3D length); user_id counts the links made.
  double radius = 0.5;
  std::uint8_t area = 0;
  std::uint16_t flags = walk_flag;
  double cost = 0;
  /// The most links made; more is a BuildError. [Limit: navmesh::max_links]
  std::size_t max_links = navmesh::max_links;
};

/// For each wall edge of `mesh` (an edge without a neighbour), at points `spacing` apart along
/// it: the point `reach` beyond it (in plan, straight out from the edge), and there the highest
/// polygon whose surface lies more than max(min_drop, climb) and at most max_drop below the
/// edge point; a one-way link from the edge point down to that surface point when there is one.
/// Add them to the mesh's data (NavMeshData::links) and build the mesh again to use them.
/// Throws BuildError when `params` break their limits or more than max_links would be made.
/// O(wall edges × samples × polygons near each landing).
[[nodiscard]] std::vector<OffMeshLink> generate_drop_downs(const NavMesh& mesh, const DropDownParams& params = {});

}  // namespace waymark::navmesh
