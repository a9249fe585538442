// Fuzz target: pattern databases read back (AdditivePatternDatabase::load). A database the
// loader accepts for the 8-puzzle must give solutions that replay to the goal. (Its values
// are not re-derived on load: a forged database with a matching checksum can make solutions
// longer than optimal; docs/robustness.md.)
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/puzzle/solver.hpp"
#include "worlds.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  using namespace waymark::puzzle;
  std::optional<AdditivePatternDatabase> db;
  try {
    std::istringstream file = fuzz::file_of(data, size);
    db.emplace(AdditivePatternDatabase::load(file, "fuzz.pdb"));
  } catch (const LoadError&) {
    return 0;
  }
  const SlidingPuzzle& puzzle = fuzz::table_puzzle();
  if (db->width() != puzzle.width()) return 0;
  // IDA* with an expansion limit: bounded whatever the heuristic says.
  static constexpr std::uint64_t max_expansions = 2'000;
  PuzzleSolverOptions options;
  options.limit.expansions = max_expansions;
  PuzzleSolver solver(puzzle, HeuristicKind::pdb_663, &*db, options);
  // Boards a few moves from the goal (a blank-first goal): cheap to solve, and each reads
  // entries of both tables.
  for (const auto& tiles : {std::vector<int>{1, 2, 0, 3, 4, 5, 6, 7, 8}, std::vector<int>{3, 1, 2, 6, 4, 5, 0, 7, 8},
                            std::vector<int>{1, 4, 2, 3, 0, 5, 6, 7, 8}}) {
    if (puzzle.check(tiles) != PuzzleCheck::ok) continue;
    const PuzzleState start = puzzle.make_state(tiles);
    const PuzzleSolution s = solver.solve(Algorithm::ida, start);
    if (s.status.succeeded() && puzzle.replay(start, s.moves) != puzzle.goal()) fuzz::finding();
  }
  return 0;
}
