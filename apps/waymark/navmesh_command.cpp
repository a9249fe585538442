#include "navmesh_command.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "waymark/core/stopwatch.hpp"
#include "waymark/io/nav_links.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/render/navmesh_png.hpp"

namespace waymark::cli {

using navmesh::NavMesh;
using navmesh::NavMeshQuery;
namespace {

/// "x,y,z" as a point, or UsageError naming the option.
Vec3 space_point_arg(const std::string& text, const char* option) {
  const auto c = finite_numbers<3>(text, option, "x,y,z");
  return {c[0], c[1], c[2]};
}

const char* status_name(Status s) {
  if (s.succeeded()) return "success";
  return s.has(StatusDetail::partial_result) ? "partial" : "failure";
}

/// `built` with the links of --links FILE (unchanged without one): a link NavMesh refuses is a
/// LoadError naming the file.
NavMesh with_links(NavMesh built, const std::string& file) {
  if (file.empty()) return built;
  navmesh::NavMeshData d = built.data();
  d.links = io::load_nav_links(file);
  try {
    return NavMesh(std::move(d));
  } catch (const BuildError& e) {
    throw LoadError(file, 0, e.what());
  }
}

/// The links a path takes, for --json.
nlohmann::ordered_json links_json(const navmesh::NavPath& p) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const navmesh::LinkUse& u : p.links) out.push_back({{"corner", u.corner}, {"link", u.link}, {"user_id", u.user_id}});
  return out;
}

}  // namespace

NavMesh build_nav_mesh(const NavmeshArgs& a, const TriangleMesh& model, const std::string& obj) {
  if (a.build != "recast" && a.build != "triangles")
    throw UsageError("--build must be recast or triangles, got " + waymark::quoted(a.build));
  try {
    if (a.build == "recast") return recast::build_nav_mesh(model, a.recast);
    return navmesh::build_from_triangles(model, {.max_slope_degrees = a.recast.agent_max_slope, .weld_distance = a.weld});
  } catch (const BuildError& e) {  // the model is at fault: say which file
    throw LoadError(obj, 0, e.what());
  }
}

CLI::App* add_navmesh_command(CLI::App& app, NavmeshArgs& a) {
  CLI::App* cmd = app.add_subcommand("navmesh", "paths on a navigation mesh built from a Wavefront OBJ model");
  cmd->add_option("--obj", a.obj, "the level's geometry (Wavefront OBJ, Y up)")->required();
  cmd->add_option("--build", a.build,
                  "recast: Recast's navmesh of the agent below; triangles: the model's walkable triangles, welded")
      ->capture_default_str();
  cmd->add_option("--mode", a.mode,
                  "shortest: the shortest path on the mesh (Polyanya); funnel: A* over portals, then the funnel "
                  "(Detour's paths); centroids: A* over polygon centroids, unsmoothed")
      ->capture_default_str();
  cmd->add_option("--from", a.from, "start point x,y,z");
  cmd->add_option("--to", a.to, "goal point x,y,z");
  cmd->add_option("--queries", a.queries, "RecastDemo TestCases file: its 'pf' lines are the queries");
  cmd->add_option("--links", a.links, "off-mesh links: a RecastDemo .gset file, its 'c' lines (jumps, drops, ladders)");
  recast::RecastParams& r = a.recast;
  cmd->add_option("--cell-size", r.cell_size, "recast: voxel width, world units")->capture_default_str();
  cmd->add_option("--cell-height", r.cell_height, "recast: voxel height")->capture_default_str();
  cmd->add_option("--agent-height", r.agent_height, "recast: clearance the agent needs")->capture_default_str();
  cmd->add_option("--agent-radius", r.agent_radius, "recast: distance kept from walls")->capture_default_str();
  cmd->add_option("--agent-climb", r.agent_max_climb, "recast: highest step")->capture_default_str();
  cmd->add_option("--agent-slope", r.agent_max_slope, "steepest walkable slope, degrees (both builds)")->capture_default_str();
  cmd->add_option("--region-min-size", r.region_min_size, "recast: smallest region kept, cells")->capture_default_str();
  cmd->add_option("--region-merge-size", r.region_merge_size, "recast: regions below this are merged, cells")
      ->capture_default_str();
  cmd->add_option("--edge-max-len", r.edge_max_len, "recast: longest contour edge")->capture_default_str();
  cmd->add_option("--edge-max-error", r.edge_max_error, "recast: contour simplification error, cells")
      ->capture_default_str();
  cmd->add_option("--verts-per-poly", r.verts_per_poly, "recast: most corners of a polygon (3-6)")->capture_default_str();
  cmd->add_option("--detail-sample-dist", r.detail_sample_dist, "recast: detail sample spacing, cells")
      ->capture_default_str();
  cmd->add_option("--detail-max-error", r.detail_sample_max_error, "recast: detail height error, cell heights")
      ->capture_default_str();
  cmd->add_option("--weld", a.weld, "triangles: vertices closer than this become one")->capture_default_str();
  cmd->add_option("--png", a.png,
                  "draw the mesh from above and every path found to this PNG (one query with --mode shortest: "
                  "the funnel path too, in blue), with a legend");
  cmd->add_option("--svg", a.svg, "write the --png picture as SVG to this file");
  cmd->add_flag("--json", a.json,
                "one JSON object per query (status, length, corners, polys; with --links, the links taken: corner, link, "
                "user_id), then {queries, mean_us, build_ms}");
  return cmd;
}

int run_navmesh(const NavmeshArgs& a) {
  return guarded([&] {
    const auto mode = value_of(navmesh::nav_mode_names, a.mode);
    if (!mode) throw UsageError("--mode must be shortest, funnel or centroids, got " + waymark::quoted(a.mode));
    const bool single = !a.from.empty() || !a.to.empty();
    if (single == !a.queries.empty()) throw UsageError("give either --from x,y,z --to x,y,z or --queries FILE");
    if (single && (a.from.empty() || a.to.empty())) throw UsageError("--from and --to go together");
    std::vector<io::NavQueryLine> queries;
    if (single) {
      queries.push_back({space_point_arg(a.from, "--from"), space_point_arg(a.to, "--to"), 0xffff, 0, 0});
    } else {
      queries = io::load_nav_queries(a.queries);
    }
    const TriangleMesh model = io::load_obj(a.obj);
    const Stopwatch build_time;
    const NavMesh nav = with_links(build_nav_mesh(a, model, a.obj), a.links);
    const double build_ms = build_time.seconds() * milliseconds_per_second;

    NavMeshQuery query(nav, {.mode = *mode, .query = {.partial_result = true}});  // prints "partial"
    double total_s = 0;
    std::size_t found = 0;
    std::vector<std::vector<Vec3>> drawn;  // --png: the paths
    for (const io::NavQueryLine& q : queries) {
      const Stopwatch t;
      const Status st = query.find_path(q.from, q.to, navmesh::QueryFilter{.include = q.include, .exclude = q.exclude});
      total_s += t.seconds();
      found += st.succeeded() ? 1 : 0;
      const navmesh::NavPath& p = query.path();
      if ((!a.png.empty() || !a.svg.empty()) && !p.corners.empty()) drawn.push_back(p.corners);
      if (a.json) {
        nlohmann::ordered_json line{{"status", status_name(st)},
                                    {"length", p.length},
                                    {"corners", p.corners.size()},
                                    {"polys", p.polys.size()}};
        if (nav.link_count() > 0) line["links"] = links_json(p);  // where the path takes a link
        std::cout << line.dump() << "\n";
      } else {
        std::cout << status_name(st) << ": length " << p.length << ", " << p.corners.size() << " corners, "
                  << p.polys.size() << " polygons";
        if (st.has(StatusDetail::invalid_query)) std::cout << " (start or goal not within 2,4,2 of a polygon)";
        if (single) {
          std::cout << "\ncorners:";
          for (const Vec3& c : p.corners) std::cout << " " << c.x << "," << c.y << "," << c.z;
          for (const navmesh::LinkUse& u : p.links) std::cout << "\nlink " << u.link << " (user id " << u.user_id << ") from corner " << u.corner;
        }
        std::cout << "\n";
      }
    }
    const double mean_us = queries.empty() ? 0.0 : total_s * microseconds_per_second / static_cast<double>(queries.size());
    if (!a.png.empty() || !a.svg.empty()) {
      if (single && *mode == navmesh::NavMode::shortest) {  // what the shortest path saves, in sight
        NavMeshQuery funnel(nav, {.mode = navmesh::NavMode::funnel});
        funnel.find_path(queries[0].from, queries[0].to);
        if (!funnel.path().corners.empty()) drawn.push_back(funnel.path().corners);
      }
      write_pictures(a.png, a.svg, [&](const std::string& file, render::PictureFormat format) {
        return render::write_navmesh_picture(nav, drawn, file, {}, format);
      });
    }
    if (a.json) {
      std::cout << nlohmann::ordered_json{{"queries", queries.size()}, {"mean_us", mean_us}, {"build_ms", build_ms}}.dump()
                << "\n";
    } else {
      std::cout << queries.size() << " queries, " << found << " found, mean " << mean_us << " us/query; "
                << nav.poly_count() << " polygons built (" << a.build << ") in " << build_ms << " ms\n";
    }
    return !single || found == 1 ? exit_ok : exit_not_found;
  });
}

}  // namespace waymark::cli
