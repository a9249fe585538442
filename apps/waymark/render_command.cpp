#include "render_command.hpp"

#include <cmath>
#include <iostream>

#include "waymark/io/obj.hpp"
#include "waymark/io/polygons.hpp"
#include "waymark/render/grid_png.hpp"
#include "waymark/render/navmesh_png.hpp"
#include "waymark/render/visibility_png.hpp"

namespace waymark::cli {

using render::PictureFormat;

CLI::App* add_render_command(CLI::App& app, RenderArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "render", "draw a world from its file to a PNG and/or an SVG, with a legend: a Moving AI map (walls, terrain), "
                "an OBJ model's navmesh (polygons, portals), or polygon obstacles (their visibility graph)");
  cmd->add_option("--map,-m", a.map, "Moving AI .map file");
  cmd->add_option("--obj", a.obj, "Wavefront OBJ model (Y up): draws its navmesh, built as `waymark navmesh` does");
  cmd->add_option("--polygons", a.polygons, "polygon obstacle file (JSON, as `waymark visibility` reads)");
  cmd->add_flag("--terrain", a.terrain, "--map: S (swamp, cost 3) and W (water, cost 5) as passable terrain");
  cmd->add_option("--build", a.nav.build, "--obj: recast or triangles (see `waymark navmesh --help`)")
      ->capture_default_str();
  cmd->add_option("--tile-size", a.nav.tile_size,
                  "--obj, --build recast: build in square tiles of this many voxels (Recast's tileSize), stitched; 0: one "
                  "solo mesh")
      ->capture_default_str();
  cmd->add_option("--time-limit", a.nav.time_limit_s, std::string("--obj: ") + recast_time_limit_help);
  cmd->add_option("--radius", a.radius, "--polygons: agent radius (the inflated obstacles are drawn too)")
      ->capture_default_str();
  cmd->add_option("--png", a.png, "write the picture to this PNG");
  cmd->add_option("--svg", a.svg, "write the picture to this SVG");
  cmd->add_option("--max-cells", a.max_cells, "--map: refuse maps with more cells than this (width x height)")
      ->capture_default_str();
  return cmd;
}

int run_render(const RenderArgs& a) {
  return guarded([&] {
    const int worlds = (a.map.empty() ? 0 : 1) + (a.obj.empty() ? 0 : 1) + (a.polygons.empty() ? 0 : 1);
    if (worlds != 1) throw UsageError("give one of --map FILE, --obj FILE or --polygons FILE");
    if (a.png.empty() && a.svg.empty()) throw UsageError("give --png FILE and/or --svg FILE");
    if (a.terrain && a.map.empty()) throw UsageError("--terrain goes with --map");
    const search::Budget limit = time_limit(a.nav.time_limit_s);  // checked before the model is read
    if (!a.map.empty()) {
      io::MapLoadOptions load;
      load.max_cells = checked_positive(a.max_cells, "--max-cells");
      if (a.terrain) load.terrain = io::TerrainCosts{};
      const grid::GridMap map = io::load_movingai_map(a.map, load);
      write_pictures(a.png, a.svg, [&](const std::string& file, PictureFormat format) {
        return render::write_grid_picture(map, {}, file, {}, format);
      });
      std::cout << "drew " << a.map << " (" << map.width() << "x" << map.height() << ")\n";
    } else if (!a.obj.empty()) {
      const TriangleMesh model = io::load_obj(a.obj);
      const navmesh::NavMesh nav = build_nav_mesh(a.nav, model, a.obj, search::Deadline(limit));
      write_pictures(a.png, a.svg, [&](const std::string& file, PictureFormat format) {
        return render::write_navmesh_picture(nav, {}, file, {}, format);
      }, render::picture_shapes(nav));
      std::cout << "drew the navmesh of " << a.obj << " (" << nav.poly_count() << " polygons, " << a.nav.build
                << ")\n";
    } else {
      if (!(std::isfinite(a.radius) && a.radius >= 0 && a.radius <= visibility::max_abs_coordinate))
        throw UsageError("--radius must be a finite number from 0 to 1e6");
      const io::PolygonFile file = io::load_polygons(a.polygons);
      const visibility::VisibilityGraph graph = [&] {
        try {
          return visibility::VisibilityGraph(file.obstacles, {.radius = a.radius});
        } catch (const visibility::InputError& e) {
          throw file.error(e);
        }
      }();
      write_pictures(a.png, a.svg, [&](const std::string& out, PictureFormat format) {
        return render::write_visibility_picture(graph, {}, out, {}, format);
      }, render::picture_shapes(graph));
      std::cout << "drew " << a.polygons << " (" << graph.obstacle_count() << " obstacles, " << graph.point_count()
                << " points, " << graph.edge_count() << " edges)\n";
    }
    return exit_ok;
  });
}

}  // namespace waymark::cli
