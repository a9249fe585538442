// After warm-up a query through a puzzle solver's IDA* search handle allocates nothing: its
// frames and its path keep their capacity (support/allocation_counter.hpp counts every heap
// allocation).
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "support/allocation_counter.hpp"
#include "support/puzzle_support.hpp"
#include "waymark/puzzle/solver.hpp"
#include "waymark/search/events.hpp"

namespace waymark::puzzle_allocation_test {
using namespace search;
using namespace puzzle;
namespace {
using puzzle_test::scrambles;

TEST(Allocation, PuzzleIdaHandleAllocatesNothingAfterWarmUp) {
  const SlidingPuzzle p(4);
  // Random walks of 40 moves: solutions of up to 40 moves, found in milliseconds.
  const std::vector<PuzzleState> boards = scrambles(p, 40, 8, 1985);
  EventRecorder<PuzzleState> recorder(std::size_t{1} << 16);  // reserved up front; later events are dropped
  for (const HeuristicKind h : {HeuristicKind::manhattan, HeuristicKind::linear_conflict}) {
    SCOPED_TRACE(to_string(h));
    const PuzzleSolver solver(p, h);
    SearchHandle<PuzzleState> quiet = solver.make_search(Algorithm::ida, {});
    SearchHandle<PuzzleState> traced = solver.make_search(Algorithm::ida, QueryOptions<PuzzleState>{.events = &recorder});
    const auto query_all = [&] {
      std::size_t solved = 0;
      for (const PuzzleState& s : boards) {
        solved += quiet.run(s, p.goal()).succeeded() ? 1 : 0;
        quiet.begin(s, p.goal());  // stepped, with budgets
        while (quiet.step(Budget::of_expansions(100)).running()) {
        }
        solved += quiet.status().succeeded() ? 1 : 0;
        recorder.clear();
        solved += traced.run(s, p.goal()).succeeded() ? 1 : 0;
      }
      return solved;
    };
    EXPECT_EQ(test::expect_no_allocation_after_warm_up(query_all), 3 * boards.size());
  }
}

}  // namespace
}  // namespace waymark::puzzle_allocation_test
