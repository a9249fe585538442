// JPS and JPS+ against an independent reference Dijkstra and the published Moving AI optima.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <cstring>
#include <iterator>
#include <random>

#include "support/forge.hpp"
#include "support/random_grid.hpp"
#include "support/sanitized.hpp"
#include "waymark/core/binary_io.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/scenario/runner.hpp"

namespace waymark::grid_jump_point_test {
using namespace search;
using namespace grid;
using namespace io;
using namespace scenario;
namespace {

constexpr double relative_eps = 1e-9;

using test::reference_distances;

TEST(JumpPoint, DirectionTables) {
  for (int d = 0; d < direction_count; ++d) {
    EXPECT_EQ(direction_of(direction_dx[static_cast<std::size_t>(d)], direction_dy[static_cast<std::size_t>(d)]), d);
    EXPECT_EQ(is_diagonal(d), direction_dx[static_cast<std::size_t>(d)] != 0 && direction_dy[static_cast<std::size_t>(d)] != 0);
  }
  EXPECT_EQ(direction_of(0, 0), -1);
}

TEST(JumpPoint, RunsBetweenCells) {
  EXPECT_EQ(run_between({2, 2}, {5, 2}).direction, direction_of(1, 0));
  EXPECT_EQ(run_between({2, 2}, {5, 2}).steps, 3);
  EXPECT_EQ(run_between({4, 4}, {1, 7}).direction, direction_of(-1, 1));
  EXPECT_EQ(run_between({4, 4}, {1, 7}).steps, 3);
  EXPECT_EQ(run_between({4, 4}, {4, 4}).direction, -1);
  EXPECT_EQ(turn(0, -1), 7);
  EXPECT_EQ(turn(6, 2), 0);
}

TEST(JumpPoint, NoGoalMeansOnlyRealJumpPoints) {
  // An open map has no forced neighbours, so without a goal no jump stops anywhere.
  const GridMap open(9, 9);
  const JumpPointSpace space(open);
  int successors = 0;
  space.for_each_successor(open.cell(4, 4), [&](CellId, Cost) { ++successors; });
  EXPECT_EQ(successors, 0);
}

TEST(JumpPoint, RandomGridsMatchReferenceDijkstra) {
  const test::RandomGridSpec specs[] = {
      {1, 1, 0.0, false},   {1, 15, 0.1, false},  {15, 1, 0.1, false},  {8, 8, 0.2, false},
      {16, 16, 0.1, false}, {16, 16, 0.3, false}, {32, 32, 0.2, false}, {32, 32, 0.35, false},
      {48, 20, 0.25, false}, {64, 64, 0.1, false}, {64, 64, 0.3, false}, {100, 40, 0.4, false},
      // Long open runs across several 64-bit words of the block jumps, in both orientations.
      {300, 12, 0.05, false}, {12, 300, 0.05, false}, {140, 140, 0.02, false},
  };
  // 600 grids; under ASan 12 per spec, 180 (every spec: support/sanitized.hpp).
  constexpr int grids_per_spec = test::full_or_sanitized(40, 12);
  constexpr int queries_per_grid = 4;
  std::mt19937 rng(2027);
  int grids = 0, unreachable = 0;
  for (const auto& spec : specs) {
    for (int k = 0; k < grids_per_spec; ++k, ++grids) {
      const GridMap map = test::random_grid(spec, rng);
      if (map.passable_count() == 0) continue;
      const GridSpace space(map, DiagonalRule::no_corner_cutting);
      GridPlanner jps(map, GridPlannerOptions{.algorithm = Algorithm::jps});
      GridPlanner jps_plus(map, GridPlannerOptions{.algorithm = Algorithm::jps_plus});
      for (int q = 0; q < queries_per_grid; ++q) {
        const CellId start = test::random_passable(map, rng), goal = test::random_passable(map, rng);
        const Cost expected = reference_distances(space, start)[goal.value];
        unreachable += expected == infinite_cost ? 1 : 0;
        for (GridPlanner* p : {&jps, &jps_plus}) {
          SCOPED_TRACE(::testing::Message() << to_string(p->options().algorithm) << " " << map.width() << "x"
                                            << map.height() << " grid " << k << " query " << q);
          const search::SearchResult<CellId> result = p->plan(start, goal);
          const Status st = result.status;
          if (expected == infinite_cost) {
            ASSERT_TRUE(st.failed());
            continue;
          }
          ASSERT_TRUE(st.succeeded());
          ASSERT_NEAR(result.path.cost, expected, relative_eps * std::max(1.0, expected));
          ASSERT_TRUE(test::is_valid_path(space, result.path, start, goal));
        }
      }
    }
  }
  EXPECT_GE(grids, test::full_or_sanitized(500, 150));
  EXPECT_GT(unreachable, 0);
}

TEST(JumpPoint, EveryBundledScenarioOptimal) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(test::data_dir + "/maps")) {
    if (e.path().string().ends_with(".map.scen")) files.push_back(e.path().string());
  }
  ASSERT_FALSE(files.empty());
  for (Algorithm a : {Algorithm::jps, Algorithm::jps_plus}) {
    ScenarioRunOptions options;
    options.planner.algorithm = a;
    const ScenarioReport r = run_scenarios(files, options);
    EXPECT_EQ(r.optimal, r.queries) << to_string(a);
    for (const auto& m : r.mismatches) ADD_FAILURE() << to_string(a) << " " << m.file << ":" << m.line;
  }
}

TEST(JumpPoint, ExpandsFewerNodesThanAStar) {
  const GridMap map = load_movingai_map(test::data_dir + "/maps/den520d.map");
  GridPlanner astar(map, GridPlannerOptions{});
  search::SearchHandle<CellId> astar_search = astar.make_search();
  GridPlanner jps(map, GridPlannerOptions{.algorithm = Algorithm::jps});
  search::SearchHandle<CellId> jps_search = jps.make_search();
  const Scenario scen = load_movingai_scenario(test::data_dir + "/maps/den520d.map.scen");
  const ScenarioQuery& longest = scen.queries.back();  // files are sorted by length bucket
  const CellId s = map.cell(longest.start.x, longest.start.y), g = map.cell(longest.goal.x, longest.goal.y);
  ASSERT_TRUE(astar_search.run(s, g).succeeded());
  ASSERT_TRUE(jps_search.run(s, g).succeeded());
  EXPECT_NEAR(jps_search.path().cost, astar_search.path().cost, 1e-9);
  EXPECT_LT(jps_search.stats().expanded * 4, astar_search.stats().expanded);
}

TEST(JumpPoint, RefusesRulesAndCostsItCannotHandle) {
  GridMap map(8, 8);
  for (DiagonalRule r : {DiagonalRule::never, DiagonalRule::always, DiagonalRule::at_most_one_obstacle}) {
    GridPlanner p(map, GridPlannerOptions{.algorithm = Algorithm::jps, .diagonal = r});
    search::SearchHandle<CellId> p_search = p.make_search();
    ASSERT_TRUE(p.unsupported().has_value());
    EXPECT_NE(p.unsupported()->find("no-corner-cutting"), std::string::npos);
    EXPECT_TRUE(p_search.run(map.cell(0, 0), map.cell(7, 7)).failed());
    EXPECT_TRUE(p_search.path().empty());
  }
  map.set_cost_multiplier(3, 3, 2.0);
  GridPlanner p(map, GridPlannerOptions{.algorithm = Algorithm::jps_plus});
  ASSERT_TRUE(p.unsupported().has_value());
  EXPECT_NE(p.unsupported()->find("uniform"), std::string::npos);
  EXPECT_FALSE(planner_unsupported(GridMap(4, 4), GridPlannerOptions{.algorithm = Algorithm::jps}).has_value());
}

TEST(JumpTable, SaveLoadRoundTripAndMismatches) {
  const GridMap map = load_movingai_map(test::data_dir + "/maps/arena.map");
  const JumpTable built(map);
  EXPECT_GT(built.memory_bytes(), map.cell_count());
  const std::string file = ::testing::TempDir() + "/waymark_arena.jps";
  built.save(file);
  const JumpTable loaded = JumpTable::load(file, map);
  for (std::uint32_t c = 0; c < map.cell_count(); ++c) {
    const std::uint32_t p = built.grid().index(CellId{c});
    for (int d = 0; d < direction_count; ++d) ASSERT_EQ(built.distance(p, d), loaded.distance(p, d));
  }
  GridPlanner shared(map, GridPlannerOptions{.algorithm = Algorithm::jps_plus, .jump_table = &loaded});
  search::SearchHandle<CellId> shared_search = shared.make_search();
  ASSERT_TRUE(shared_search.run(map.cell(3, 1), map.cell(35, 7)).succeeded());

  GridMap other = map;
  other.set_passable(3, 1, !other.passable(3, 1));
  EXPECT_THROW((void)JumpTable::load(file, other), LoadError);
  const GridMap small(10, 10);
  EXPECT_THROW((void)JumpTable::load(file, small), LoadError);
  EXPECT_THROW((void)JumpTable::load("/nonexistent.jps", map), LoadError);
  const std::string junk = ::testing::TempDir() + "/waymark_junk.jps";
  std::ofstream(junk) << "not a table";
  EXPECT_THROW((void)JumpTable::load(junk, map), LoadError);
  std::filesystem::resize_file(file, std::filesystem::file_size(file) - 2);
  EXPECT_THROW((void)JumpTable::load(file, map), LoadError);
}

/// A table file as bytes: header, entries, checksum.
std::vector<char> read_bytes(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Writes `bytes` with a checksum that matches them again: what a forger who knows the format
/// writes.
void write_with_valid_checksum(const std::string& file, std::vector<char> bytes) {
  test::reseal(bytes);
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string load_error(const std::string& file, const GridMap& map) {
  try {
    (void)JumpTable::load(file, map);
  } catch (const LoadError& e) {
    return e.reason();
  }
  return "no error";
}

TEST(JumpTable, DamagedOrForgedFilesAreRefusedNeverTrusted) {
  const GridMap map = load_movingai_map(test::data_dir + "/maps/arena.map");
  const JumpTable built(map);
  const std::string file = ::testing::TempDir() + "/waymark_arena_forged.jps";
  built.save(file);
  const std::vector<char> good = read_bytes(file);
  constexpr std::size_t header_bytes = 24;
  const auto entry_offset = [&](CellCoord c, int d) {
    const std::uint32_t p = built.grid().index(map.cell(c.x, c.y));
    return header_bytes + (std::size_t{p} * direction_count + static_cast<std::size_t>(d)) * sizeof(std::int16_t);
  };
  const auto set_entry = [](std::vector<char>& bytes, std::size_t at, std::int16_t v) {
    std::memcpy(bytes.data() + at, &v, sizeof v);
  };

  // Damage: one byte flipped, the checksum left as it was.
  std::vector<char> damaged = good;
  damaged[entry_offset({3, 1}, 2)] ^= 0x40;
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(damaged.data(), static_cast<std::streamsize>(damaged.size()));
  EXPECT_EQ(load_error(file, map), "corrupt file: checksum mismatch");

  // Forgeries with valid checksums: a jump far off the map (the crash of issue 11), a jump one
  // cell too long, and a wall or border cell given a jump.
  ASSERT_TRUE(map.passable(3, 1));
  for (const auto& [at, value] : std::vector<std::pair<std::size_t, std::int16_t>>{
           {entry_offset({3, 1}, 2), std::int16_t{30000}},
           {entry_offset({3, 1}, 2), static_cast<std::int16_t>(built.distance(built.grid().index(map.cell(3, 1)), 2) + 1)},
           {header_bytes + 2 * sizeof(std::int16_t), std::int16_t{5}},  // padded cell 0: the border
       }) {
    std::vector<char> forged = good;
    set_entry(forged, at, value);
    write_with_valid_checksum(file, forged);
    const std::string why = load_error(file, map);
    EXPECT_TRUE(why.find("does not match the map") != std::string::npos || why.find("border") != std::string::npos)
        << why;
  }
  // The untouched bytes, rewritten the same way, still load: the check is not over-eager.
  write_with_valid_checksum(file, good);
  EXPECT_EQ(load_error(file, map), "no error");
}

}  // namespace
}  // namespace waymark::grid_jump_point_test
