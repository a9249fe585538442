// Off-mesh links in bulk (issue 41): N links between two polygons, and what one query costs in
// each mode as N grows: wall time, nodes expanded and successors generated (edges relaxed).
// Prints one JSON line per (N, case, mode).
//
// The mesh: two 10 × 10 squares side by side on the ground, 1 apart (P at x in [0, 10], Q at
// [11, 21]), no walkable surface between them; then N two-way links, each from a seeded random
// point of P to one of Q, costed at their length. Two cases:
//   reached: from (1, 0, 1) in P to (20, 0, 9) in Q;
//   searched: the goal stands in a third polygon behind a door (flag 0x02) that the query's
//   filter excludes, so every search goes through every node it can reach before it fails
//   (what a hostile or unlucky query costs).
//
//   waymark_bench_navmesh_links [--links N,N,...] [--modes shortest,funnel,centroids]
//   (default: 1000,2000,5000,10000,20000,50000,100000,200000,1048576; shortest and funnel)
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "waymark/core/stopwatch.hpp"
#include "waymark/navmesh/nav_query.hpp"

namespace {

using namespace waymark;
using namespace waymark::navmesh;

/// Appends an axis-aligned square [x0, x0 + size] × [z0, z0 + size] at y = 0, counter-clockwise
/// in plan, with the given neighbours (bottom, right, top, left) and flags.
void add_square(NavMeshData& d, double x0, double z0, double size, std::uint16_t flags, std::array<PolyId, 4> next) {
  const auto base = static_cast<std::uint32_t>(d.vertices.size());
  d.vertices.insert(d.vertices.end(), {{x0, 0, z0}, {x0 + size, 0, z0}, {x0 + size, 0, z0 + size}, {x0, 0, z0 + size}});
  d.corners.insert(d.corners.end(), {base, base + 1, base + 2, base + 3});
  d.neighbors.insert(d.neighbors.end(), next.begin(), next.end());
  d.poly_begin.push_back(static_cast<std::uint32_t>(d.corners.size()));
  d.areas.push_back(0);
  d.flags.push_back(flags);
}

/// P (0), Q (1); Q's right edge opens onto a door D (2, flag 0x02), and D onto the goal's room
/// G (3). N two-way links from P to Q.
NavMeshData two_polygons(std::size_t links) {
  NavMeshData d;
  add_square(d, 0, 0, 10, walk_flag, {});
  add_square(d, 11, 0, 10, walk_flag, {PolyId{}, PolyId{2}, PolyId{}, PolyId{}});
  // The door shares Q's right edge (21, 0)–(21, 10): a polygon [21, 22] × [0, 10].
  const auto base = static_cast<std::uint32_t>(d.vertices.size());
  d.vertices.insert(d.vertices.end(), {{22, 0, 0}, {22, 0, 10}, {32, 0, 0}, {32, 0, 10}});
  const std::uint32_t q1 = 5, q2 = 6;  // Q's corners (21, 0, 0) and (21, 0, 10)
  d.corners.insert(d.corners.end(), {q1, base, base + 1, q2});
  d.neighbors.insert(d.neighbors.end(), {PolyId{}, PolyId{3}, PolyId{}, PolyId{1}});
  d.poly_begin.push_back(static_cast<std::uint32_t>(d.corners.size()));
  d.areas.push_back(0);
  d.flags.push_back(0x02);
  d.corners.insert(d.corners.end(), {base, base + 2, base + 3, base + 1});
  d.neighbors.insert(d.neighbors.end(), {PolyId{}, PolyId{}, PolyId{}, PolyId{2}});
  d.poly_begin.push_back(static_cast<std::uint32_t>(d.corners.size()));
  d.areas.push_back(0);
  d.flags.push_back(walk_flag);
  std::mt19937_64 rng(41);
  std::uniform_real_distribution<double> u(0.5, 9.5);
  d.links.reserve(links);
  for (std::size_t i = 0; i < links; ++i) {
    d.links.push_back({.start = {u(rng), 0, u(rng)}, .end = {11 + u(rng), 0, u(rng)}, .radius = 0.1,
                       .bidirectional = true, .user_id = static_cast<std::uint32_t>(i)});
  }
  return d;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> counts = split("1000,2000,5000,10000,20000,50000,100000,200000,1048576");
  std::vector<std::string> modes = split("shortest,funnel");
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--links") == 0) counts = split(argv[i + 1]);
    if (std::strcmp(argv[i], "--modes") == 0) modes = split(argv[i + 1]);
  }
  for (const std::string& count : counts) {
    const auto n = static_cast<std::size_t>(std::strtoull(count.c_str(), nullptr, 10));
    const Stopwatch build;
    const NavMesh mesh(two_polygons(n));
    const double build_s = build.seconds();
    for (const std::string& mode_name : modes) {
      const auto mode = value_of(nav_mode_names, mode_name);
      if (!mode) {
        std::fprintf(stderr, "unknown mode %s\n", mode_name.c_str());
        return 2;
      }
      NavMeshQuery q(mesh, {.mode = *mode});
      QueryFilter no_doors;
      no_doors.exclude = 0x02;
      struct Case {
        const char* name;
        Vec3 to;
        QueryFilter filter;
      };
      for (const Case& c : {Case{"reached", {20, 0, 9}, {}}, Case{"searched", {30, 0, 5}, no_doors}}) {
        const Stopwatch t;
        const Status s = q.find_path({1, 0, 1}, c.to, c.filter);
        const double seconds = t.seconds();
        std::printf("{\"links\":%zu,\"case\":\"%s\",\"mode\":\"%s\",\"build_s\":%.3f,\"query_s\":%.6f,\"expanded\":%llu,"
                    "\"generated\":%llu,\"scanned\":%llu,\"succeeded\":%s,\"path_length\":%.9g,\"links_taken\":%zu}\n",
                    n, c.name, mode_name.c_str(), build_s, seconds, static_cast<unsigned long long>(q.stats().expanded),
                    static_cast<unsigned long long>(q.stats().generated),
                    static_cast<unsigned long long>(q.stats().scanned), s.succeeded() ? "true" : "false",
                    q.path().length, q.path().links.size());
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
