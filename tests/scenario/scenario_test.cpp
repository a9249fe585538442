// Truth from outside: every bundled Moving AI scenario solved to its published optimum.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/random_grid.hpp"
#include "support/sanitized.hpp"
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

void expect_all_optimal(const std::vector<std::string>& files, Algorithm a, std::size_t sample_every = 1) {
  ScenarioRunOptions options;
  options.planner.algorithm = a;
  options.sample_every = sample_every;
  const ScenarioReport r = run_scenarios(files, options);
  EXPECT_GT(r.queries, 0u);
  EXPECT_EQ(r.solved, r.queries) << to_string(a);
  EXPECT_EQ(r.optimal, r.queries) << to_string(a);
  for (const auto& m : r.mismatches) {
    ADD_FAILURE() << m.file << ":" << m.line << " optimal " << m.expected << " found " << m.found;
  }
}

TEST(Scenarios, BundledFilesAreThere) { EXPECT_GE(bundled_scenarios().size(), 3u); }

TEST(Scenarios, ProgressCountsEverySampledQuery) {
  const std::vector<std::string> files = bundled_scenarios();
  ScenarioRunOptions options;
  options.sample_every = 7;
  std::vector<ScenarioProgress> reports;
  options.progress = [&](const ScenarioProgress& p) { reports.push_back(p); };
  const ScenarioReport r = run_scenarios(files, options);
  ASSERT_FALSE(reports.empty());
  std::size_t expected_total = 0;
  for (const std::string& f : files) {
    const std::size_t n = load_movingai_scenario(f).queries.size();
    for (std::size_t i = 0; i < n; i += 7) ++expected_total;
  }
  EXPECT_EQ(r.queries, expected_total);
  EXPECT_EQ(reports.front().queries_done, 0u);
  EXPECT_EQ(reports.front().queries_total, expected_total) << "the total is known before the first search";
  EXPECT_EQ(reports.back().files_done, files.size());
  EXPECT_EQ(reports.back().queries_done, expected_total);
  EXPECT_EQ(reports.size(), 1 + expected_total + files.size()) << "one report first, one per query, one per file";
  for (std::size_t i = 1; i < reports.size(); ++i) {
    EXPECT_GE(reports[i].queries_done, reports[i - 1].queries_done);
    EXPECT_EQ(reports[i].queries_total, expected_total);
    EXPECT_EQ(reports[i].files_total, files.size());
  }
}

TEST(Scenarios, AMalformedFileIsRefusedBeforeAnySearch) {
  const std::string bad = ::testing::TempDir() + "/waymark_scenario_bad.map.scen";
  std::ofstream(bad) << "version 1\n0\tarena.map\t49\t49\t1\t1\t2\t2\tnot-a-number\n";
  ScenarioRunOptions options;
  std::size_t searched = 0;
  options.progress = [&](const ScenarioProgress& p) { searched = p.queries_done; };
  EXPECT_THROW((void)run_scenarios({test::data_dir + "/maps/arena.map.scen", bad}, options), LoadError);
  EXPECT_EQ(searched, 0u) << "arena's queries ran before the second file was read";
  std::filesystem::remove(bad);
}

TEST(Scenarios, AStarSolvesEveryBundledQueryOptimally) { expect_all_optimal(bundled_scenarios(), Algorithm::astar); }

// Every query in release; under ASan every fourth (490 of the 1,950, on every map: 13.5 s there
// for all of them), A* above running them all (support/sanitized.hpp).
TEST(Scenarios, DijkstraSolvesEveryBundledQueryOptimally) {
  expect_all_optimal(bundled_scenarios(), Algorithm::dijkstra, test::full_or_sanitized<std::size_t>(1, 4));
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
