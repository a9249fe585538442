#include "bake_command.hpp"

#include <filesystem>
#include <iostream>

#include "navmesh_command.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/core/text.hpp"
#include "waymark/io/nav_links.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/recast/bake.hpp"

namespace waymark::cli {

namespace {

/// One --agent-class value, "[NAME=]radius,height,climb,slope", over the shared Recast
/// options `base`; an unnamed class is called by its place among the classes ("0", "1", …).
recast::AgentClass agent_class_arg(const std::string& text, std::size_t index, const recast::RecastParams& base) {
  recast::AgentClass c{number_text(index), base};
  std::string numbers = text;
  if (const std::size_t eq = text.find('='); eq != std::string::npos) {
    c.name = text.substr(0, eq);
    numbers = text.substr(eq + 1);
    if (const std::string why = navmesh::class_name_problem(c.name); !why.empty())
      throw UsageError("--agent-class: " + why + ", got " + waymark::quoted(c.name));
  }
  const auto v = finite_numbers<4>(numbers, "--agent-class", "[NAME=]radius,height,climb,slope");
  c.params.agent_radius = v[0];
  c.params.agent_height = v[1];
  c.params.agent_max_climb = v[2];
  c.params.agent_max_slope = v[3];
  return c;
}

}  // namespace

CLI::App* add_bake_command(CLI::App& app, BakeArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "bake", "build an OBJ model's navmesh once per agent class and write it to a .wmnav file (read by "
              "`waymark navmesh --navmesh` without Recast)");
  cmd->add_option("--obj", a.obj, "the level's geometry (Wavefront OBJ, Y up)")->required();
  cmd->add_option("--out", a.out, "the bake to write (.wmnav)")->required();
  CLI::Option* classes = cmd->add_option(
      "--agent-class", a.classes,
      "an agent class, repeatable: [NAME=]radius,height,climb,slope (slope in degrees; unnamed classes are called "
      "0, 1, ... by their place); the other Recast options are shared. None: one class '0' from --agent-*");
  cmd->add_option("--threads,-t", a.threads, "classes (and tiles) built at once (0: one per core, up to 256)")
      ->capture_default_str();
  cmd->add_option("--links", a.links,
                  "off-mesh links baked into every class: a RecastDemo .gset file, its 'c' lines (jumps, drops, ladders)");
  cmd->add_option("--tile-size", a.tile_size,
                  "build every class in square tiles of this many voxels (Recast's tileSize), stored as tiles and "
                  "stitched on load; 0: one solo mesh per class")
      ->capture_default_str();
  cmd->add_option("--time-limit", a.time_limit_s, recast_time_limit_help);
  for (CLI::Option* o : add_recast_options(cmd, a.recast)) {
    const std::string name = o->get_name();
    if (name == "--agent-radius" || name == "--agent-height" || name == "--agent-climb" || name == "--agent-slope")
      classes->excludes(o);
  }
  return cmd;
}

int run_bake(const BakeArgs& a) {
  return guarded([&] {
    const std::size_t threads = checked_count(a.threads, 0, 256, "--threads");
    const search::Budget limit = time_limit(a.time_limit_s);  // checked before the model is read
    std::vector<recast::AgentClass> classes;
    for (std::size_t i = 0; i < a.classes.size(); ++i) classes.push_back(agent_class_arg(a.classes[i], i, a.recast));
    if (classes.empty()) classes.push_back({"0", a.recast});
    if (a.tile_size < 0) throw UsageError("--tile-size must be >= 0, got " + number_text(a.tile_size));
    for (recast::AgentClass& c : classes) c.tile_size = a.tile_size;
    const TriangleMesh model = io::load_obj(a.obj);
    const std::vector<navmesh::OffMeshLink> links = a.links.empty() ? std::vector<navmesh::OffMeshLink>{} : io::load_nav_links(a.links);
    const Stopwatch build_time;
    const search::Deadline deadline(limit);  // never without one
    navmesh::NavBake bake;
    try {
      bake = recast::bake(model, classes, threads, links, deadline.end());
    } catch (const BuildError& e) {  // the model or a class is at fault: say which file
      throw LoadError(a.obj, 0, e.what());
    }
    const double build_ms = build_time.seconds() * milliseconds_per_second;
    const Stopwatch save_time;
    bake.save(a.out);
    const double save_ms = save_time.seconds() * milliseconds_per_second;
    for (const navmesh::BakedClass& c : bake.classes()) {
      std::cout << "class '" << c.name << "': radius " << number_text(c.params.agent_radius) << ", height "
                << number_text(c.params.agent_height) << ", climb " << number_text(c.params.agent_max_climb) << ", slope "
                << number_text(c.params.agent_max_slope) << ": "
                << c.mesh->poly_count() << " polygons in " << c.tiles.size() << " tile(s)\n";
    }
    std::cout << "baked " << bake.classes().size() << " class(es) of " << a.obj << " in " << build_ms << " ms; wrote "
              << a.out << " (" << std::filesystem::file_size(a.out) << " bytes) in " << save_ms << " ms\n";
    return exit_ok;
  });
}

}  // namespace waymark::cli
