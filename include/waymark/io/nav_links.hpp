#pragma once
/// @file Off-mesh link files: RecastDemo's `.gset` geometry sets, of which the `c` lines are
/// off-mesh connections (jumps, drops, ladders, teleporters) for a navmesh
/// (navmesh::NavMeshData::links). The loader throws LoadError (file, line, reason) on a
/// malformed link; CRLF is accepted.

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/navmesh/nav_mesh.hpp"

namespace waymark::io {

/// Limits the link loader checks while it reads; a file over them is refused with a LoadError
/// that names the limit, before the list grows past it.
struct NavLinksLoadOptions {
  /// [Limit: navmesh::max_links, 2^20, what a NavMesh accepts]
  std::size_t max_links = navmesh::max_links;
};

/// Reads `c X0 Y0 Z0 X1 Y1 Z1 RADIUS BIDIR AREA FLAGS` lines, as RecastDemo writes them in a
/// `.gset` file: start and end (finite; y up, as OBJ), radius (finite, > 0), BIDIR 0 (one way,
/// start to end) or 1 (both ways), AREA an area type below navmesh::max_areas, FLAGS decimal
/// or 0x-prefixed hexadecimal, at most 0xffff. Each link's cost is 0 (its length) and its
/// user_id its position among the file's links (0 for the first). Every other line (`f`, `s`,
/// `v` records, `#` comments, blank lines) is skipped. `name` is used in error messages.
[[nodiscard]] std::vector<navmesh::OffMeshLink> parse_nav_links(std::istream& in, const std::string& name,
                                                                const NavLinksLoadOptions& options = {});
[[nodiscard]] std::vector<navmesh::OffMeshLink> load_nav_links(const std::string& path,
                                                               const NavLinksLoadOptions& options = {});

}  // namespace waymark::io
