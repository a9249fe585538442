#pragma once
/// @file Simulation scene files (JSON, docs/steering.md "Scene files"): the map, the time step,
/// the agents and the static obstacles of a steering simulation, read into a steer::SceneSpec.
/// Readers throw LoadError (file, line, reason): syntax errors at their line, problems with a
/// value at the line of that value, naming its JSON path ("agents[3].radius: ...").

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "waymark/core/errors.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/steer/scene.hpp"

namespace waymark::io {

/// The largest scene text accepted, bytes: the parsed document takes about ten times the text
/// while it is read, so this bounds the memory a file can ask for (100 000 agents with every
/// field written take about 25 MB).
inline constexpr std::size_t max_scene_file_bytes = std::size_t{64} << 20;

/// Parses scene JSON text. `source` names it in errors; a relative "map" is resolved against
/// `base_dir` (kept as written when `base_dir` is empty). Every count is checked against
/// steer::SceneLimits before anything is reserved. Throws LoadError, and nothing else but
/// std::bad_alloc.
[[nodiscard]] steer::SceneSpec parse_scene(std::string_view text, const std::string& source,
                                           const std::filesystem::path& base_dir);

/// Reads the scene file at `path` (LoadError if it cannot be read or exceeds
/// max_scene_file_bytes) and parses it with base_dir = the file's folder.
[[nodiscard]] steer::SceneSpec load_scene(const std::string& path);

/// Checks a scene against the map it names, once that is loaded: every agent's start, goal
/// and waypoints lie inside the map in passable cells; each start disc (the agent's radius)
/// overlaps no blocked cell and stays inside the map; no two start discs overlap (touching is
/// allowed). Throws LoadError(source, 0, reason) naming the agent index and the problem, for
/// the lowest agent index with one. Against the scene's obstacles: no start disc overlaps one,
/// no goal or waypoint lies inside one. Then the events, in order ("events[2].block: ..."): a
/// block or open rectangle lies inside the map; an order names an agent of the scene; a goal or
/// warp point lies inside the map in a cell passable on the map as loaded (a goal in a cell that
/// an earlier event blocked is allowed: the agent then reports unreachable); remove_obstacle
/// names an obstacle that exists by then.
/// Cost: the cells under each start disc, plus a sort of the agents (agents of similar size).
void check_scene_against_map(const steer::SceneSpec& scene, const grid::GridMap& map, const std::string& source);

}  // namespace waymark::io
