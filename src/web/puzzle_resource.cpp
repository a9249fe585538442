// The puzzle resource: optimal sliding-tile solutions (POST /api/puzzle).
#include <string>
#include <vector>

#include "waymark/puzzle/solver.hpp"
#include "web/request.hpp"

namespace waymark::web {

Response Api::puzzle(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const Field tiles_field = request.field("tiles");
    if (tiles_field.kind() != io::json::Kind::array) tiles_field.fail("must be an array of numbers");
    const std::size_t n = tiles_field.size();
    int width = 0;
    for (int w = puzzle::min_puzzle_width; w <= puzzle::max_puzzle_width; ++w) width = n == static_cast<std::size_t>(w * w) ? w : width;
    if (width == 0) tiles_field.fail("must hold 4, 9 or 16 numbers (a 2x2, 3x3 or 4x4 board)");
    std::vector<int> tiles;
    tiles_field.for_each_item([&](const Field& tile) { tiles.push_back(tile.whole(0, static_cast<int>(n) - 1)); });
    const puzzle::SlidingPuzzle board(width);
    if (const puzzle::PuzzleCheck check = board.check(tiles); check != puzzle::PuzzleCheck::ok)
      tiles_field.fail(puzzle::describe(check, tiles, width));
    const std::string algorithm = request.text("algorithm", "astar");
    const auto alg = puzzle::parse_algorithm(algorithm);
    if (!alg) request.fail_at("algorithm", "unknown puzzle algorithm \"" + algorithm + "\" (astar, ida)");
    const std::string heuristic = request.text("heuristic", "manhattan");
    const auto h = puzzle::parse_heuristic(heuristic);
    if (!h || *h == puzzle::HeuristicKind::pdb_663 || *h == puzzle::HeuristicKind::pdb_78)
      request.fail_at("heuristic", "unknown puzzle heuristic \"" + heuristic + "\" (manhattan, linear-conflict)");

    puzzle::PuzzleSolverOptions options;
    options.limit = time_budget(limits_.max_query_seconds);
    options.query.max_nodes = limits_.max_puzzle_states;
    puzzle::PuzzleSolver solver(board, *h, nullptr, options);
    const puzzle::PuzzleState start = board.make_state(tiles);
    const puzzle::PuzzleSolution solution = solver.solve(*alg, start);
    json boards = json::array();
    if (solution.status.succeeded()) {
      puzzle::PuzzleState at = start;
      boards.push_back(board.tiles(at));
      for (const puzzle::BlankMove m : solution.moves) {
        at = *board.apply(at, m);
        boards.push_back(board.tiles(at));
      }
    }
    json reply = {{"algorithm", puzzle::to_string(*alg)},
                  {"heuristic", puzzle::to_string(*h)},
                  {"moves", solution.status.succeeded() ? json(solution.moves.size()) : json(nullptr)},
                  {"solution", solution.status.succeeded() ? json(puzzle::describe(solution.moves)) : json(nullptr)},
                  {"boards", boards},
                  {"estimate", solver.estimate(start)},
                  {"stats",
                   {{"expanded", solution.stats.expanded},
                    {"generated", solution.stats.generated},
                    {"iterations", solution.stats.iterations},
                    {"time_us", solution.stats.time_s * microseconds_per_second}}}};
    put_status(reply, solution.status);
    return Response{http_ok, text_of(reply)};
  });
}

}  // namespace waymark::web
