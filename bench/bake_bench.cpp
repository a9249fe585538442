// Baking (issue 31): what a game pays at start-up for a navmesh, built by Recast from the OBJ
// against loaded from its bake (.wmnav): the bake's time (one class, and two classes), its
// file size (two classes on one thread and on two), the time to write it, and the time to load it (read, checks, NavMesh index),
// each the fastest of several rounds, on RecastDemo's dungeon.obj and nav_test.obj with
// RecastDemo's default parameters. Prints one JSON object.
//
//   waymark_bench_bake [--rounds N]
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "waymark/core/stopwatch.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_file.hpp"
#include "waymark/recast/bake.hpp"

namespace {

using namespace waymark;

/// The fastest of `rounds` runs of f, in ms.
template <class F>
double best_ms(int rounds, F&& f) {
  double best = 1e300;
  for (int r = 0; r < rounds; ++r) {
    const Stopwatch t;
    f();
    best = std::min(best, t.seconds() * 1e3);
  }
  return best;
}

nlohmann::ordered_json bench_level(const std::string& name, int rounds) {
  const std::string obj = std::string(WAYMARK_DATA_DIR "/meshes/") + name;
  const std::string file = (std::filesystem::temp_directory_path() / ("waymark_bench_" + name + ".wmnav")).string();
  std::size_t polygons = 0, loaded_polygons = 0;
  const double obj_ms = best_ms(rounds, [&] { (void)io::load_obj(obj); });
  const TriangleMesh model = io::load_obj(obj);
  const double build_ms = best_ms(rounds, [&] { polygons = recast::build_nav_mesh(model).poly_count(); });
  const recast::AgentClass one{"agent", {}};
  std::vector<recast::AgentClass> two{{"small", {}}, {"large", {}}};
  two[0].params.agent_radius = 0.3;
  two[1].params.agent_radius = 1.2;
  navmesh::NavBake bake;
  const double bake_ms = best_ms(rounds, [&] { bake = recast::bake(model, {&one, 1}); });
  const double bake_two_ms = best_ms(rounds, [&] { (void)recast::bake(model, two, 1); });
  const double bake_two_threads_ms = best_ms(rounds, [&] { (void)recast::bake(model, two, 2); });
  const double save_ms = best_ms(rounds, [&] { bake.save(file); });
  const double load_ms = best_ms(rounds, [&] { 
    const navmesh::NavBake loaded = navmesh::NavBake::load(file);
    loaded_polygons = loaded.classes()[0].mesh->poly_count();
  });
  const auto bytes = std::filesystem::file_size(file);
  std::filesystem::remove(file);
  if (loaded_polygons != polygons) throw std::runtime_error("the bake of " + name + " did not load as built");
  return {{"level", name},
          {"polygons", polygons},
          {"obj_read_ms", obj_ms},
          {"build_ms", build_ms},
          {"bake_ms", bake_ms},
          {"bake_two_classes_ms", bake_two_ms},
          {"bake_two_classes_two_threads_ms", bake_two_threads_ms},
          {"save_ms", save_ms},
          {"file_bytes", bytes},
          {"load_ms", load_ms},
          {"build_over_load", build_ms / load_ms}};
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 10;
  if (argc == 3 && std::strcmp(argv[1], "--rounds") == 0) rounds = std::max(1, std::atoi(argv[2]));
  nlohmann::ordered_json out;
  out["rounds"] = rounds;
  for (const char* level : {"dungeon.obj", "nav_test.obj"}) out["levels"].push_back(bench_level(level, rounds));
  std::cout << out.dump(2) << "\n";
  return 0;
}
