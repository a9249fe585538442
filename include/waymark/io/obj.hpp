#pragma once
/// @file Wavefront OBJ models: the vertices and faces of a level, as modelling tools and
/// RecastDemo's meshes write them; and RecastDemo's path-query lists for them. Loaders throw LoadError (file, line, reason) on malformed
/// input; CRLF is accepted.

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/core/triangle_mesh.hpp"

namespace waymark::io {

/// The default most vertices an OBJ file may hold: 2^24 (16.7 million, about 400 MB as
/// doubles). Counted as lines are read, so a file over it is refused before the next grows.
inline constexpr std::size_t max_obj_vertices = std::size_t{1} << 24;
/// The default most triangles an OBJ file's faces may make (a face of n corners makes n - 2).
inline constexpr std::size_t max_obj_triangles = std::size_t{1} << 24;

/// Limits the OBJ loader checks while it reads; a file over them is refused with a LoadError
/// that names the limit.
struct ObjLoadOptions {
  std::size_t max_vertices = max_obj_vertices;
  std::size_t max_triangles = max_obj_triangles;
};

/// Reads `v X Y Z [W]` vertices (finite numbers; a trailing W or R G B colour is ignored) and
/// `f A B C …` faces of three or more corners, fan-triangulated (A B C, A C D, …). A corner is
/// `V`, `V/T`, `V//N` or `V/T/N`; only V is used. V counts from 1 over the vertices read so far, or
/// back from the last one when negative (-1: the last). `vt`, `vn`, `vp`, `o`, `g`, `s`,
/// `usemtl`, `mtllib`, `l` and `p` records and `#` comments are accepted and ignored; any other
/// record is refused, as is a file without faces. `name` is used in error messages.
[[nodiscard]] TriangleMesh parse_obj(std::istream& in, const std::string& name, const ObjLoadOptions& options = {});
[[nodiscard]] TriangleMesh load_obj(const std::string& path, const ObjLoadOptions& options = {});

/// One path query of a RecastDemo test-case file.
struct NavQueryLine {
  Vec3 from;
  Vec3 to;
  std::uint16_t include = 0xffff;  ///< polygon flags the path may use
  std::uint16_t exclude = 0;       ///< polygon flags it may not
  std::size_t line = 0;
};

/// RecastDemo's TestCases files: `pf SX SY SZ EX EY EZ INCLUDE EXCLUDE` lines (flags in hex
/// with 0x, or decimal, at most 0xffff; coordinates finite) are path queries; every other line
/// (`s`, `f`, `rc`, `#` comments, blank) is skipped. LoadError (file, line, reason) on a
/// malformed `pf` line.
[[nodiscard]] std::vector<NavQueryLine> parse_nav_queries(std::istream& in, const std::string& name);
[[nodiscard]] std::vector<NavQueryLine> load_nav_queries(const std::string& path);

}  // namespace waymark::io
