// Every public header in one translation unit: each module has its namespace, so names that
// several modules use (EuclideanHeuristic, ManhattanHeuristic, Algorithm, to_string, …) do
// not collide. A second test keeps the list complete: a new header must be added here.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "waymark/core/assert.hpp"
#include "waymark/core/binary_io.hpp"
#include "waymark/core/broad_phase.hpp"
#include "waymark/core/change_log.hpp"
#include "waymark/core/clip.hpp"
#include "waymark/core/cost.hpp"
#include "waymark/core/divider.hpp"
#include "waymark/core/enum_names.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/core/grid_walk.hpp"
#include "waymark/core/hash.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/core/keep_ptr.hpp"
#include "waymark/core/parallel.hpp"
#include "waymark/core/path.hpp"
#include "waymark/core/polygon_edge_grid.hpp"
#include "waymark/core/polyline.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/core/text.hpp"
#include "waymark/core/triangle_mesh.hpp"
#include "waymark/core/version.hpp"
#include "waymark/graph/ch_query.hpp"
#include "waymark/graph/contraction.hpp"
#include "waymark/graph/generate.hpp"
#include "waymark/graph/graph.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "waymark/graph/heuristics.hpp"
#include "waymark/graph/landmarks.hpp"
#include "waymark/graph/shortest_paths.hpp"
#include "waymark/graph/vertex_index.hpp"
#include "waymark/grid/algorithm.hpp"
#include "waymark/grid/any_angle.hpp"
#include "waymark/grid/batch.hpp"
#include "waymark/grid/clearance.hpp"
#include "waymark/grid/dstar_lite.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/grid/grid_space.hpp"
#include "waymark/grid/heuristics.hpp"
#include "waymark/grid/jump_point.hpp"
#include "waymark/grid/jump_table.hpp"
#include "waymark/grid/line_of_sight.hpp"
#include "waymark/grid/moves.hpp"
#include "waymark/grid/padded_grid.hpp"
#include "waymark/grid/path_smoothing.hpp"
#include "waymark/grid/replanner.hpp"
#include "waymark/io/batch_queries.hpp"
#include "waymark/io/event_json.hpp"
#include "waymark/io/graph_loaders.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/io/nav_links.hpp"
#include "waymark/io/nav_obstacles.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/io/path_query.hpp"
#include "waymark/io/polygons.hpp"
#include "waymark/io/puzzle_instances.hpp"
#include "waymark/io/scene.hpp"
#include "waymark/io/seeds.hpp"
#include "waymark/navmesh/build_params.hpp"
#include "waymark/navmesh/drop_downs.hpp"
#include "waymark/navmesh/funnel.hpp"
#include "waymark/navmesh/nav_file.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_obstacle.hpp"
#include "waymark/navmesh/nav_planner.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/navmesh/nav_tile.hpp"
#include "waymark/navmesh/query_filter.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"
#include "waymark/navmesh/tiled_nav_planner.hpp"
#include "waymark/puzzle/heuristics.hpp"
#include "waymark/puzzle/pattern_database.hpp"
#include "waymark/puzzle/sliding_puzzle.hpp"
#include "waymark/puzzle/solver.hpp"
#include "waymark/recast/bake.hpp"
#include "waymark/recast/carving.hpp"
#include "waymark/recast/recast_build.hpp"
#include "waymark/recast/tiled_build.hpp"
#include "waymark/regions/coarse_fine.hpp"
#include "waymark/regions/labeling.hpp"
#include "waymark/regions/regions.hpp"
#include "waymark/regions/seed_index.hpp"
#include "waymark/regions/tracker.hpp"
#include "waymark/render/grid_png.hpp"
#include "waymark/render/navmesh_png.hpp"
#include "waymark/render/picture.hpp"
#include "waymark/render/visibility_png.hpp"
#include "waymark/scenario/runner.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/search/concepts.hpp"
#include "waymark/search/events.hpp"
#include "waymark/search/generation_array.hpp"
#include "waymark/search/goal.hpp"
#include "waymark/search/handle.hpp"
#include "waymark/search/ida_star.hpp"
#include "waymark/search/indexed_heap.hpp"
#include "waymark/search/node_table.hpp"
#include "waymark/search/observer.hpp"
#include "waymark/search/paged_node_table.hpp"
#include "waymark/search/position_search.hpp"
#include "waymark/search/planner.hpp"
#include "waymark/search/priorities.hpp"
#include "waymark/search/request_queue.hpp"
#include "waymark/search/search_core.hpp"
#include "waymark/search/search_source.hpp"
#include "waymark/search/shortest_path_tree.hpp"
#include "waymark/search/traversal.hpp"
#include "waymark/steer/agent.hpp"
#include "waymark/steer/behaviours.hpp"
#include "waymark/steer/flow_field.hpp"
#include "waymark/steer/obstacle_lines.hpp"
#include "waymark/steer/obstacle_world.hpp"
#include "waymark/steer/orca.hpp"
#include "waymark/steer/path_service.hpp"
#include "waymark/steer/scene.hpp"
#include "waymark/steer/scene_events.hpp"
#include "waymark/steer/simulation.hpp"
#include "waymark/steer/spatial_hash.hpp"
#include "waymark/visibility/visibility_planner.hpp"
#include "waymark/visibility/visibility_graph.hpp"
#include "waymark/visibility/visibility_query.hpp"
#include "waymark/version.h"
#include "waymark/waymark.h"  // the C API: valid C++ too

namespace core_all_headers_test {
namespace {

using namespace waymark;

TEST(AllHeaders, NamesSeveralModulesShareLiveInTheirModules) {
  static_assert(!std::is_same_v<grid::EuclideanHeuristic, graph::EuclideanHeuristic>);
  static_assert(!std::is_same_v<grid::ManhattanHeuristic, puzzle::ManhattanHeuristic>);
  static_assert(!std::is_same_v<grid::Algorithm, graph::Algorithm>);
  static_assert(!std::is_same_v<graph::Algorithm, puzzle::Algorithm>);
  static_assert(!std::is_same_v<grid::HeuristicKind, puzzle::HeuristicKind>);
  // The run-time names of each module, side by side, through argument-dependent lookup.
  EXPECT_EQ(to_string(grid::Algorithm::jps_plus), "jps-plus");
  EXPECT_EQ(to_string(graph::Algorithm::ch), "ch");
  EXPECT_EQ(to_string(puzzle::Algorithm::ida), "ida");
  EXPECT_EQ(puzzle::parse_algorithm("astar"), puzzle::Algorithm::astar);
  EXPECT_EQ(to_string(grid::HeuristicKind::octile), "octile");
  EXPECT_EQ(to_string(puzzle::HeuristicKind::pdb_663), "pdb-663");
  EXPECT_EQ(to_string(search::EventKind::slice_end), "slice-end");
  EXPECT_EQ(to_string(SearchState::not_started), "not-started");
  EXPECT_EQ(grid::parse_algorithm("astar"), grid::Algorithm::astar);
  EXPECT_EQ(graph::parse_algorithm("astar"), graph::Algorithm::astar);
}

TEST(AllHeaders, TheCHeaderIsValidCpp) {
  static_assert(WM_OK == 0 && WM_ERROR_INVALID_HANDLE < 0 && WM_NO_PATH > 0);
  EXPECT_EQ(waymark::version(), WAYMARK_VERSION_STRING);
}

TEST(AllHeaders, ThisFileIncludesEveryPublicHeader) {
  namespace fs = std::filesystem;
  const fs::path include_dir = fs::path(WAYMARK_DATA_DIR).parent_path() / "include";
  std::ifstream self(__FILE__);
  ASSERT_TRUE(self) << __FILE__;
  std::stringstream text;
  text << self.rdbuf();
  std::vector<std::string> missing;
  std::size_t headers = 0;
  for (const auto& entry : fs::recursive_directory_iterator(include_dir)) {
    if (entry.path().extension() != ".hpp") continue;
    ++headers;
    const std::string name = fs::relative(entry.path(), include_dir).generic_string();
    if (text.str().find("#include \"" + name + "\"") == std::string::npos) missing.push_back(name);
  }
  EXPECT_GT(headers, 40u);
  EXPECT_TRUE(missing.empty()) << "add to " << __FILE__ << ": " << ::testing::PrintToString(missing);
}

}  // namespace
}  // namespace core_all_headers_test
