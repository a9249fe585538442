#include "navmesh_command.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <vector>

#include "waymark/core/stopwatch.hpp"
#include "waymark/core/text.hpp"
#include "waymark/io/nav_links.hpp"
#include "waymark/io/nav_obstacles.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_file.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"
#include "waymark/recast/carving.hpp"
#include "waymark/recast/tiled_build.hpp"
#include "waymark/render/navmesh_png.hpp"

namespace waymark::cli {

using navmesh::NavMesh;
using navmesh::NavMeshQuery;
namespace {

/// A corner's coordinate in the text output: ten significant digits, so a level far from the
/// origin keeps its decimals (10000001.25, not the stream's 1e+07).
std::string corner_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

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
NavMesh with_links(const NavMesh& built, const std::string& file) {
  if (file.empty()) return built;
  navmesh::NavMeshData d = built.data();
  for (navmesh::OffMeshLink& l : io::load_nav_links(file)) d.links.push_back(l);
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

namespace {

/// The plan squares of a tiled world's tiles.
std::vector<Aabb2> tile_squares(const navmesh::TiledNavMesh& world, const recast::TileLayout& layout) {
  std::vector<Aabb2> out;
  for (std::size_t i = 0; i < layout.tile_count(); ++i) {
    if (const navmesh::NavTile* t = world.tile(layout.coord(i))) out.push_back(Aabb2::around(t->min, t->max));
  }
  return out;
}

}  // namespace

NavMesh build_nav_mesh(const NavmeshArgs& a, const TriangleMesh& model, const std::string& obj, const search::Deadline& deadline,
                       NavmeshOverlayData* overlays) {
  if (a.build != "recast" && a.build != "triangles")
    throw UsageError("--build must be recast or triangles, got " + waymark::quoted(a.build));
  if (a.tile_size < 0 || (a.tile_size > 0 && a.build != "recast")) throw UsageError("--tile-size must be >= 0, with --build recast");
  if (!a.obstacles.empty() && a.build != "recast") throw UsageError("--obstacles needs --build recast");
  try {
    if (!a.obstacles.empty()) {  // carved out of a tiled mesh (32 voxels a tile unless told)
      recast::CarvedNavMesh carved(
          model, {.recast = a.recast, .tile_size = a.tile_size > 0 ? a.tile_size : 32, .deadline = deadline.end()});
      for (const io::NavObstacleLine& o : io::load_nav_obstacles(a.obstacles)) {
        if (!carved.add_obstacle(o.obstacle)) throw LoadError(a.obstacles, o.line, "more obstacles than a mesh holds");
        if (overlays != nullptr) overlays->obstacles.push_back(o.obstacle);
      }
      const std::size_t waiting = carved.pending_tiles();
      const recast::CarveUpdate done = carved.update({.max_seconds = deadline.seconds_left()});
      if (done.failed > 0) throw BuildError("Recast could not rebuild a tile under the obstacles");
      if (!done.up_to_date()) {
        throw BuildError("the carving passed its deadline (a time limit) with " + number_text(waiting - done.pending) + " of " +
                         number_text(waiting) + " tiles under the obstacles rebuilt: give it more time, or fewer obstacles");
      }
      if (overlays != nullptr) overlays->tiles = tile_squares(carved.world(), carved.input().layout());
      const auto snapshot = carved.world().snapshot();
      return snapshot->mesh;
    }
    if (a.build == "recast" && a.tile_size > 0) {  // Recast's tiled pipeline on all cores, stitched
      const recast::TiledInput input(model, {.recast = a.recast, .tile_size = a.tile_size, .deadline = deadline.end()});
      const navmesh::TiledNavMesh world(recast::build_tiles(input));
      if (overlays != nullptr) overlays->tiles = tile_squares(world, input.layout());
      const auto snapshot = world.snapshot();
      return snapshot->mesh;
    }
    if (a.build == "recast") return recast::build_nav_mesh(model, a.recast, deadline.end());
    return navmesh::build_from_triangles(model, {.max_slope_degrees = a.recast.agent_max_slope, .weld_distance = a.weld});
  } catch (const BuildError& e) {  // the model is at fault: say which file
    throw LoadError(obj, 0, e.what());
  }
}

std::vector<CLI::Option*> add_recast_options(CLI::App* cmd, recast::RecastParams& r) {
  return {
      cmd->add_option("--cell-size", r.cell_size, "recast: voxel width, world units")->capture_default_str(),
      cmd->add_option("--cell-height", r.cell_height, "recast: voxel height")->capture_default_str(),
      cmd->add_option("--agent-height", r.agent_height, "recast: clearance the agent needs")->capture_default_str(),
      cmd->add_option("--agent-radius", r.agent_radius, "recast: distance kept from walls")->capture_default_str(),
      cmd->add_option("--agent-climb", r.agent_max_climb, "recast: highest step")->capture_default_str(),
      cmd->add_option("--agent-slope", r.agent_max_slope, "steepest walkable slope, degrees (both builds)")
          ->capture_default_str(),
      cmd->add_option("--region-min-size", r.region_min_size, "recast: smallest region kept, cells")->capture_default_str(),
      cmd->add_option("--region-merge-size", r.region_merge_size, "recast: regions below this are merged, cells")
          ->capture_default_str(),
      cmd->add_option("--edge-max-len", r.edge_max_len, "recast: longest contour edge")->capture_default_str(),
      cmd->add_option("--edge-max-error", r.edge_max_error, "recast: contour simplification error, cells")
          ->capture_default_str(),
      cmd->add_option("--verts-per-poly", r.verts_per_poly, "recast: most corners of a polygon (3-6)")->capture_default_str(),
      cmd->add_option("--detail-sample-dist", r.detail_sample_dist, "recast: detail sample spacing, cells")
          ->capture_default_str(),
      cmd->add_option("--detail-max-error", r.detail_sample_max_error, "recast: detail height error, cell heights")
          ->capture_default_str(),
  };
}

CLI::App* add_navmesh_command(CLI::App& app, NavmeshArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "navmesh", "paths on a navigation mesh built from a Wavefront OBJ model, or loaded from a bake (waymark bake)");
  CLI::Option* obj = cmd->add_option("--obj", a.obj, "the level's geometry (Wavefront OBJ, Y up)");
  CLI::Option* baked = cmd->add_option("--navmesh", a.navmesh, "a baked navmesh (.wmnav, from waymark bake), instead of --obj");
  baked->excludes(obj);
  cmd->add_option("--class", a.agent_class, "--navmesh: the agent class to query (needed when the bake has several)")
      ->needs(baked);
  CLI::Option* build = cmd->add_option("--build", a.build,
                  "recast: Recast's navmesh of the agent below; triangles: the model's walkable triangles, welded")
      ->capture_default_str();
  cmd->add_option("--mode", a.mode,
                  "shortest: the shortest path on the mesh (Polyanya); funnel: A* over portals, then the funnel "
                  "(Detour's paths); centroids: A* over polygon centroids, unsmoothed")
      ->capture_default_str();
  cmd->add_option("--from", a.from, "start point x,y,z");
  cmd->add_option("--to", a.to, "goal point x,y,z");
  cmd->add_option("--queries", a.queries, "RecastDemo TestCases file: its 'pf' lines are the queries (at least one)");
  cmd->add_option("--links", a.links,
                  "off-mesh links: a RecastDemo .gset file, its 'c' lines (jumps, drops, ladders), added to the mesh's own");
  for (CLI::Option* o : add_recast_options(cmd, a.recast)) baked->excludes(o);
  baked->excludes(build);
  baked->excludes(cmd->add_option("--obstacles", a.obstacles,
                                  "obstacles carved out of the mesh (cylinder/box/prism lines, docs/carving.md); builds in "
                                  "tiles (--tile-size, 32 when not given)"));
  baked->excludes(cmd->add_option("--tile-size", a.tile_size,
                                  "recast: build in square tiles of this many voxels (Recast's tileSize), stitched; 0: one "
                                  "solo mesh")
                      ->capture_default_str());
  baked->excludes(cmd->add_option("--time-limit", a.time_limit_s, recast_time_limit_help));
  baked->excludes(cmd->add_option("--weld", a.weld, "triangles: vertices closer than this become one")->capture_default_str());
  cmd->add_option("--png", a.png,
                  "draw the mesh from above and every path found to this PNG (one query with --mode shortest: "
                  "the funnel path too, in blue), with a legend");
  cmd->add_option("--svg", a.svg, "write the --png picture as SVG to this file");
  cmd->add_flag("--json", a.json,
                "one JSON object per query (status, length, corners, polys, path; on a mesh with links, the links "
                "taken: corner, link, user_id), then {queries, succeeded, partial, failed, mean_us, build_ms or load_ms}");
  return cmd;
}

namespace {

/// The bake's class `name` (or its only class when `name` is empty) with its navmesh, or a
/// UsageError naming the classes there are.
const navmesh::BakedClass& chosen_class(const navmesh::NavBake& bake, const std::string& name, const std::string& file) {
  std::string names;
  for (const navmesh::BakedClass& c : bake.classes()) names += (names.empty() ? "" : ", ") + c.name;
  const navmesh::BakedClass* c = nullptr;
  if (name.empty()) {
    if (bake.classes().size() != 1) throw UsageError(file + " has several agent classes: give --class (one of " + names + ")");
    c = &bake.classes().front();
  } else {
    c = bake.find_class(name);
    if (c == nullptr) throw UsageError("--class " + waymark::quoted(name) + " is not in " + file + " (its classes: " + names + ")");
  }
  return *c;
}

}  // namespace

int run_navmesh(const NavmeshArgs& a) {
  return guarded([&] {
    const auto mode = value_of(navmesh::nav_mode_names, a.mode);
    if (!mode) throw UsageError("--mode must be shortest, funnel or centroids, got " + waymark::quoted(a.mode));
    if (a.obj.empty() == a.navmesh.empty()) throw UsageError("give either --obj FILE or --navmesh FILE.wmnav");
    const bool single = !a.from.empty() || !a.to.empty();
    if (single == !a.queries.empty()) throw UsageError("give either --from x,y,z --to x,y,z or --queries FILE");
    if (single && (a.from.empty() || a.to.empty())) throw UsageError("--from and --to go together");
    const search::Budget limit = time_limit(a.time_limit_s);  // checked before the model is read
    std::vector<io::NavQueryLine> queries;
    if (single) {
      queries.push_back({space_point_arg(a.from, "--from"), space_point_arg(a.to, "--to"), 0xffff, 0, 0});
    } else {
      queries = io::load_nav_queries(a.queries);
      if (queries.empty()) throw LoadError(a.queries, 0, "no queries: a RecastDemo TestCases file has 'pf' lines");
    }
    std::optional<NavMesh> built;
    NavmeshOverlayData overlay;  // --png: tiles and obstacles
    navmesh::NavBake bake;
    const navmesh::BakedClass* baked = nullptr;
    double make_ms = 0;  // building from the model read from --obj (and reading --links), or loading --navmesh
    if (a.navmesh.empty()) {
      const TriangleMesh model = io::load_obj(a.obj);
      const Stopwatch t;
      const search::Deadline deadline(limit);  // never without one
      built.emplace(with_links(build_nav_mesh(a, model, a.obj, deadline, &overlay), a.links));
      make_ms = t.seconds() * milliseconds_per_second;
    } else {
      const Stopwatch t;
      bake = navmesh::NavBake::load(a.navmesh);
      baked = &chosen_class(bake, a.agent_class, a.navmesh);
      if (baked->tiles.size() > 1) {
        for (const navmesh::NavTile& tile : baked->tiles) overlay.tiles.push_back(Aabb2::around(tile.min, tile.max));
      }
      if (!a.links.empty()) built.emplace(with_links(*baked->mesh, a.links));
      make_ms = t.seconds() * milliseconds_per_second;
    }
    const NavMesh& nav = built ? *built : *baked->mesh;

    NavMeshQuery query(nav, {.mode = *mode, .query = {.partial_result = true}});  // prints "partial"
    double total_s = 0;
    std::size_t found = 0, partial = 0;
    std::vector<std::vector<Vec3>> drawn;  // --png: the paths
    for (const io::NavQueryLine& q : queries) {
      const Stopwatch t;
      const Status st = query.find_path(q.from, q.to, navmesh::QueryFilter{.include = q.include, .exclude = q.exclude});
      total_s += t.seconds();
      found += st.succeeded() ? 1 : 0;
      partial += !st.succeeded() && st.has(StatusDetail::partial_result) ? 1 : 0;
      const navmesh::NavPath& p = query.path();
      if ((!a.png.empty() || !a.svg.empty()) && !p.corners.empty()) drawn.push_back(p.corners);
      if (a.json) {
        nlohmann::ordered_json path = nlohmann::ordered_json::array();
        for (const Vec3& c : p.corners) path.push_back({c.x, c.y, c.z});
        nlohmann::ordered_json line{{"status", status_name(st)},
                                    {"length", p.length},
                                    {"corners", p.corners.size()},
                                    {"polys", p.polys.size()},
                                    {"path", std::move(path)}};
        if (nav.link_count() > 0) line["links"] = links_json(p);  // where the path takes a link
        std::cout << line.dump() << "\n";
      } else {
        std::cout << status_name(st) << ": length " << p.length << ", " << p.corners.size() << " corners, "
                  << p.polys.size() << " polygons";
        if (st.has(StatusDetail::invalid_query)) std::cout << " (start or goal not within 2,4,2 of a polygon)";
        if (single) {
          std::cout << "\ncorners:";
          for (const Vec3& c : p.corners) std::cout << " " << corner_text(c.x) << "," << corner_text(c.y) << "," << corner_text(c.z);
          for (const navmesh::LinkUse& u : p.links) std::cout << "\nlink " << u.link << " (user id " << u.user_id << ") from corner " << u.corner;
        }
        std::cout << "\n";
      }
    }
    const double mean_us = total_s * microseconds_per_second / static_cast<double>(queries.size());
    if (!a.png.empty() || !a.svg.empty()) {
      if (single && *mode == navmesh::NavMode::shortest) {  // what the shortest path saves, in sight
        NavMeshQuery funnel(nav, {.mode = navmesh::NavMode::funnel});
        funnel.find_path(queries[0].from, queries[0].to);
        if (!funnel.path().corners.empty()) drawn.push_back(funnel.path().corners);
      }
      write_pictures(a.png, a.svg, [&](const std::string& file, render::PictureFormat format) {
        const render::NavMeshOverlays overlays{.tiles = overlay.tiles, .links = true, .obstacles = overlay.obstacles};
        return render::write_navmesh_picture(nav, drawn, overlays, file, {}, format);
      }, render::picture_shapes(nav));
    }
    const std::size_t failed = queries.size() - found - partial;
    if (a.json) {
      nlohmann::ordered_json summary{{"queries", queries.size()}, {"succeeded", found}, {"partial", partial},
                                     {"failed", failed},          {"mean_us", mean_us}};
      if (baked != nullptr) {
        summary["class"] = baked->name;
        summary["load_ms"] = make_ms;
      } else {
        summary["build_ms"] = make_ms;
      }
      std::cout << summary.dump() << "\n";
    } else {
      std::cout << queries.size() << " queries: " << found << " succeeded, " << partial << " partial, " << failed
                << " failed; mean " << mean_us << " us/query; " << nav.poly_count() << " polygons ";
      if (baked != nullptr) {
        std::cout << "(class '" << baked->name << "') loaded in " << make_ms << " ms\n";
      } else {
        std::cout << "built (" << a.build << ") in " << make_ms << " ms\n";
      }
    }
    return found == queries.size() ? exit_ok : exit_not_found;
  });
}

}  // namespace waymark::cli
