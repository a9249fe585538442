// Batch queries on threads answer exactly as one thread: status, cost, path and expansions,
// query by query, on the Moving AI scenarios (whose optima they also match).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/random_grid.hpp"
#include "waymark/grid/batch.hpp"
#include "waymark/io/batch_queries.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::grid_batch_concurrency_test {
namespace {

TEST(Concurrency, BatchOnThreadsAnswersAsOneThread) {
  struct Case {
    std::string map;
    std::size_t sample_every;  ///< den520d's every 6th query keeps the ThreadSanitizer run short
  };
  for (const Case& c : {Case{"arena", 1}, Case{"den520d", 6}}) {
    const std::string scen_path = test::data_dir + "/maps/" + c.map + ".map.scen";
    const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/" + c.map + ".map");
    const io::Scenario scen = io::load_movingai_scenario(scen_path);
    const io::BatchQueryList list = io::load_batch_queries(scen_path, map);
    std::vector<grid::BatchQuery> queries;
    std::vector<const io::ScenarioQuery*> scenario_queries;
    for (std::size_t i = 0; i < list.queries.size(); i += c.sample_every) {
      const io::BatchQueryEntry& q = list.queries[i];
      queries.push_back({map.cell(q.start.x, q.start.y), map.cell(q.goal.x, q.goal.y)});
      scenario_queries.push_back(&scen.queries[i]);
    }
    for (const grid::Algorithm a : {grid::Algorithm::astar, grid::Algorithm::jps}) {
      SCOPED_TRACE(c.map + " " + std::string(to_string(a)));
      const grid::GridPlanner planner(map, {.algorithm = a});
      const std::vector<grid::BatchResult> one = run_batch(planner, queries, {.threads = 1, .keep_paths = true});
      // Chunks of one query interleave the threads the most; 3 threads on 2 cores as well.
      for (const grid::BatchOptions& o : {grid::BatchOptions{.threads = 2, .keep_paths = true},
                                          grid::BatchOptions{.threads = 3, .chunk = 1, .keep_paths = true}}) {
        const std::vector<grid::BatchResult> many = run_batch(planner, queries, o);
        ASSERT_EQ(many.size(), one.size());
        std::size_t solved = 0;
        for (std::size_t i = 0; i < one.size(); ++i) {
          EXPECT_EQ(many[i].status, one[i].status) << "query " << i;
          EXPECT_EQ(many[i].cost, one[i].cost) << "query " << i;
          EXPECT_EQ(many[i].path, one[i].path) << "query " << i;
          EXPECT_EQ(many[i].stats.expanded, one[i].stats.expanded) << "query " << i;
          if (!many[i].status.succeeded()) continue;
          ++solved;
          EXPECT_TRUE(scenario_queries[i]->matches_optimal(many[i].cost)) << "line " << scenario_queries[i]->line;
        }
        EXPECT_EQ(solved, queries.size());
      }
    }
  }
}

}  // namespace
}  // namespace waymark::grid_batch_concurrency_test
