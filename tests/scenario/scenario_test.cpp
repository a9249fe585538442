// Truth from outside: every bundled Moving AI scenario solved to its published optimum.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/random_grid.hpp"
#include "waymark/scenario/runner.hpp"

namespace waymark::scenario_test {
using namespace grid;
using namespace io;
using namespace scenario;
namespace {

std::vector<std::string> bundled_scenarios() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(test::data_dir + "/maps")) {
    if (e.path().string().ends_with(".map.scen")) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void expect_all_optimal(const std::vector<std::string>& files, Algorithm a) {
  ScenarioRunOptions options;
  options.planner.algorithm = a;
  const ScenarioReport r = run_scenarios(files, options);
  EXPECT_GT(r.queries, 0u);
  EXPECT_EQ(r.solved, r.queries) << to_string(a);
  EXPECT_EQ(r.optimal, r.queries) << to_string(a);
  for (const auto& m : r.mismatches) {
    ADD_FAILURE() << m.file << ":" << m.line << " optimal " << m.expected << " found " << m.found;
  }
}

TEST(Scenarios, BundledFilesAreThere) { EXPECT_GE(bundled_scenarios().size(), 3u); }

TEST(Scenarios, AStarSolvesEveryBundledQueryOptimally) { expect_all_optimal(bundled_scenarios(), Algorithm::astar); }

TEST(Scenarios, DijkstraSolvesEveryBundledQueryOptimally) {
  expect_all_optimal(bundled_scenarios(), Algorithm::dijkstra);
}

TEST(Scenarios, IdaStarSolvesTheSmallMapOptimally) {
  expect_all_optimal({test::data_dir + "/maps/arena.map.scen"}, Algorithm::ida);
}

TEST(Scenarios, WrongAnswersAreCaught) {
  // Greedy best-first is not optimal: the runner must notice on a real scenario file.
  ScenarioRunOptions options;
  options.planner.algorithm = Algorithm::greedy;
  const ScenarioReport r = run_scenarios({test::data_dir + "/maps/arena.map.scen"}, options);
  EXPECT_EQ(r.solved, r.queries);
  EXPECT_LT(r.optimal, r.queries);
  EXPECT_FALSE(r.mismatches.empty());
  EXPECT_LE(r.mismatches.size(), options.max_mismatches);
}

TEST(Scenarios, MapsAreFoundBesideTheFileOrInMapsDir) {
  EXPECT_EQ(resolve_map_path("a/b/x.map.scen", "maps/dao/x.map", ""), "a/b/x.map");
  EXPECT_EQ(resolve_map_path("a/b/x.map.scen", "x.map", "m"), "m/x.map");
  const std::string dir = ::testing::TempDir() + "/waymark_missing_map";
  std::filesystem::create_directories(dir);
  const std::string scen = dir + "/lost.map.scen";
  {
    std::ofstream(scen) << "version 1\n0\tlost.map\t4\t4\t0\t0\t1\t1\t1.41421356\n";
  }
  try {
    (void)run_scenarios({scen}, {});
    FAIL();
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 2u);
    EXPECT_NE(e.reason().find("not found"), std::string::npos);
  }
}

}  // namespace
}  // namespace waymark::scenario_test
