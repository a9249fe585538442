// waymark in one page: load a Moving AI map, plan a path, spread a search over frames, watch
// its events, edit the map, and hand the path to movement code in world units.
//
//   quickstart [MAP]      (default: data/maps/arena.map, bundled with waymark: run it from
//                          waymark's source directory, or name a map)
//
// Exits 1 with a message when a step does not do what the comments say.
#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "waymark/core/polyline.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/events.hpp"

int main(int argc, char** argv) try {
  using namespace waymark;
  const char* path = argc > 1 ? argv[1] : "data/maps/arena.map";
  grid::GridMap map = io::load_movingai_map(path);  // throws LoadError (file:line: reason)

  // A planner holds what searches share (move masks); one per map, shared by every agent.
  // Coordinates from outside (a file, a click) go through try_cell: nullopt past the map.
  grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
  const std::optional<CellId> start = map.try_cell(3, 1), goal = map.try_cell(35, 7);
  if (!start || !goal) throw std::runtime_error("the map is smaller than 36x8");

  // One query: status, path (cost infinite when there is none) and stats. The planner lends
  // plan() a search it keeps, so repeated one-shot calls cost what a kept handle's do.
  const search::SearchResult<CellId> found = planner.plan(*start, *goal);
  if (!found.status.succeeded()) throw std::runtime_error("no path: " + describe(found.status));
  std::printf("A*: cost %.3f, %zu steps, %llu expanded\n", found.path.cost, found.path.steps(),
              static_cast<unsigned long long>(found.stats.expanded));

  // A search of its own (one per agent or thread), spread over frames: at most 20 expansions
  // or 200 µs per frame, its events recorded for a debugger.
  search::EventRecorder<CellId> events;
  search::SearchHandle<CellId> search = planner.make_search({.events = &events});
  search.begin(*start, *goal);
  int frames = 1;
  const search::Budget per_frame{.expansions = 20, .time = std::chrono::microseconds(200)};
  while (search.step(per_frame).running()) ++frames;
  std::printf("stepped: %s in %d frames, %zu events\n", describe(search.status()).c_str(), frames,
              events.events().size());
  if (search.path().cost != found.path.cost) throw std::runtime_error("stepped path differs");

  // The world changes: a wall across the path. Searches refuse the stale map until synced.
  for (int y = 0; y < map.height(); ++y) map.set_passable(20, y, y == 40);
  if (!search.begin(*start, *goal).has(StatusDetail::stale_world)) throw std::runtime_error("stale map used");
  planner.sync();
  search.run(*start, *goal);
  std::printf("after the edit: %s, cost %.3f\n", describe(search.status()).c_str(), search.path().cost);

  // Movement code gets the path in world units.
  std::vector<Vec3> points;
  to_polyline(map, search.path().nodes, points);
  std::printf("polyline: %zu points, %.3f world units long\n", points.size(), polyline_length(points));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "quickstart: %s\n", e.what());
  return 1;
}
