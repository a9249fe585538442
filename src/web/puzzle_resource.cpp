// The puzzle resource: optimal sliding-tile solutions (POST /api/puzzle).
#include <string>
#include <vector>

#include "waymark/puzzle/solver.hpp"
#include "web/request.hpp"

namespace waymark::web {

Response Api::puzzle(std::string_view body) const {
  return guarded([&] {
    const json request = request_object(body, limits_);
    const json& tiles_json = field(request, "tiles");
    if (!tiles_json.is_array()) throw ApiError(http_bad_request, "\"tiles\" must be an array of numbers");
    const std::size_t n = tiles_json.size();
    int width = 0;
    for (int w = puzzle::min_puzzle_width; w <= puzzle::max_puzzle_width; ++w) width = n == static_cast<std::size_t>(w * w) ? w : width;
    if (width == 0) throw ApiError(http_bad_request, "\"tiles\" must hold 4, 9 or 16 numbers (a 2x2, 3x3 or 4x4 board)");
    std::vector<int> tiles;
    for (std::size_t i = 0; i < n; ++i)
      tiles.push_back(whole_number(tiles_json[i], 0, static_cast<int>(n) - 1, "\"tiles\"[" + std::to_string(i) + "]"));
    const puzzle::SlidingPuzzle board(width);
    if (const puzzle::PuzzleCheck check = board.check(tiles); check != puzzle::PuzzleCheck::ok)
      throw ApiError(http_bad_request, puzzle::describe(check, tiles, width));
    const std::string algorithm = text_field(request, "algorithm", "astar");
    const auto alg = puzzle::parse_algorithm(algorithm);
    if (!alg) throw ApiError(http_bad_request, "unknown puzzle algorithm \"" + algorithm + "\" (astar, ida)");
    const std::string heuristic = text_field(request, "heuristic", "manhattan");
    const auto h = puzzle::parse_heuristic(heuristic);
    if (!h || *h == puzzle::HeuristicKind::pdb_663 || *h == puzzle::HeuristicKind::pdb_78)
      throw ApiError(http_bad_request, "unknown puzzle heuristic \"" + heuristic + "\" (manhattan, linear-conflict)");

    puzzle::PuzzleSolverOptions options;
    options.limit = time_budget(limits_.max_query_seconds);
    options.max_nodes = limits_.max_puzzle_states;
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
