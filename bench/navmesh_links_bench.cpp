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
//   waymark_bench_navmesh_links [--links N,N,...] [--modes shortest,funnel,centroids] [--cost C]
//   (default: 1000,2000,5000,10000,20000,50000,100000,200000,1048576; shortest and funnel; each
//   link costing its length, or C > 0 each: teleporters for C below the 1 between the squares)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "support/link_levels.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/navmesh/nav_query.hpp"

namespace {

using namespace waymark;
using namespace waymark::navmesh;

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
  double cost = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--links") == 0) counts = split(argv[i + 1]);
    if (std::strcmp(argv[i], "--modes") == 0) modes = split(argv[i + 1]);
    if (std::strcmp(argv[i], "--cost") == 0) cost = std::strtod(argv[i + 1], nullptr);
  }
  for (const std::string& count : counts) {
    const auto n = static_cast<std::size_t>(std::strtoull(count.c_str(), nullptr, 10));
    const Stopwatch build;
    const NavMesh mesh(test::two_squares_with_links(n, cost));
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
        char text[32] = "null";  // no path: JSON has no infinity
        if (std::isfinite(q.path().length)) std::snprintf(text, sizeof text, "%.9g", q.path().length);
        const std::string length = text;
        std::printf("{\"links\":%zu,\"cost\":%g,\"case\":\"%s\",\"mode\":\"%s\",\"build_s\":%.3f,\"query_s\":%.6f,\"expanded\":%llu,"
                    "\"generated\":%llu,\"scanned\":%llu,\"succeeded\":%s,\"path_length\":%s,\"links_taken\":%zu}\n",
                    n, cost, c.name, mode_name.c_str(), build_s, seconds, static_cast<unsigned long long>(q.stats().expanded),
                    static_cast<unsigned long long>(q.stats().generated),
                    static_cast<unsigned long long>(q.stats().scanned), s.succeeded() ? "true" : "false",
                    length.c_str(), q.path().links.size());
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
