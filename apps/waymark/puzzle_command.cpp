#include "puzzle_command.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>
#include <vector>

#include "progress.hpp"
#include "waymark/core/parallel.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/core/text.hpp"
#include "waymark/io/puzzle_instances.hpp"
#include "waymark/puzzle/solver.hpp"

namespace waymark::cli {

using namespace io;  // NOLINT: this file is the puzzle command
using namespace puzzle;
namespace {

/// A* on the 15-puzzle runs out of memory long before it runs out of time: about 60 bytes
/// per state, so 50 million states is 3 GB.
constexpr std::size_t default_astar_max_nodes = 50'000'000;
/// IDA* needs no memory per node: its default bound is time, ten billion expansions (minutes at
/// the PDB solver's speed; Korf's 50 boards need well under a billion each).
constexpr std::uint64_t default_ida_max_expansions = 10'000'000'000;

HeuristicKind heuristic_arg(const PuzzleArgs& a, int width) {
  if (a.heuristic == "auto") return width == max_puzzle_width ? HeuristicKind::pdb_663 : HeuristicKind::linear_conflict;
  const auto h = parse_heuristic(a.heuristic);
  if (!h) throw UsageError("unknown heuristic '" + a.heuristic + "' (auto|" + choices(heuristic_names) + ")");
  if (uses_pattern_database(*h) && width != max_puzzle_width) {
    throw UsageError(a.heuristic + " is for the 15-puzzle (4x4 boards); these boards are " + number_text(width) +
                     "x" + number_text(width));
  }
  return *h;
}

/// Reads the database from `a.pdb` when that file exists, else builds it (and writes it
/// there when a path was given). Prints what it did on stderr.
AdditivePatternDatabase pattern_database(const PuzzleArgs& a, const SlidingPuzzle& puzzle, HeuristicKind h,
                                         double& build_s, double& load_s) {
  const PdbPartition partition = h == HeuristicKind::pdb_663 ? partition_663() : partition_78();
  if (!a.pdb.empty() && std::filesystem::exists(a.pdb)) {
    const Stopwatch watch;
    AdditivePatternDatabase db = AdditivePatternDatabase::load(a.pdb);
    load_s = watch.seconds();
    if (db.width() != puzzle.width() || !db.covers(partition)) {
      throw LoadError(a.pdb, 0, "holds another pattern database than " + std::string(to_string(h)));
    }
    return db;
  }
  const Stopwatch watch;
  ProgressBar bar("building " + std::string(to_string(h)));
  AdditivePatternDatabase db = AdditivePatternDatabase::build(puzzle, partition, [&](double f) { bar.update(f); });
  bar.clear();
  build_s = watch.seconds();
  if (!a.pdb.empty()) db.save(a.pdb);
  return db;
}

struct Outcome {
  PuzzleSolution solution;
  bool done = false;
};

nlohmann::ordered_json instance_json(const PuzzleInstance& in, std::size_t ordinal, const PuzzleSolution& s) {
  nlohmann::ordered_json j;
  j["index"] = in.index ? *in.index : static_cast<long>(ordinal + 1);
  j["status"] = s.status.has(StatusDetail::out_of_nodes) ? "out-of-nodes"
                : s.status.has(StatusDetail::time_limit)  ? "time-limit"
                                                          : std::string(to_string(s.status.state));
  j["length"] = s.status.succeeded() ? nlohmann::ordered_json(s.moves.size()) : nlohmann::ordered_json(nullptr);
  j["optimal_length"] = in.optimal_length ? nlohmann::ordered_json(*in.optimal_length) : nlohmann::ordered_json(nullptr);
  j["expanded"] = s.stats.expanded;
  j["generated"] = s.stats.generated;
  j["time_s"] = s.stats.time_s;
  j["moves"] = describe(s.moves);
  return j;
}

}  // namespace

CLI::App* add_puzzle_command(CLI::App& app, PuzzleArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "puzzle", "optimal solutions of sliding-tile puzzles; goal: blank first, then 1 2 3 ... (Korf's convention)");
  cmd->add_option("--instances", a.instances,
                  "file of boards, one per line: 9 or 16 tiles (0 = blank), optionally after 'index' or "
                  "'index length'; '#' starts a comment")
      ->required();
  cmd->add_option("--algorithm,-a", a.algorithm, choices(algorithm_names))->capture_default_str();
  cmd->add_option("--heuristic", a.heuristic,
                  "auto|" + choices(heuristic_names) + " (auto: pdb-663 on 4x4, linear-conflict below)")
      ->capture_default_str();
  cmd->add_option("--pdb", a.pdb, "pattern database file: loaded when it exists, else built and saved there");
  cmd->add_option("--threads", a.threads, "instances solved in parallel (one solver per thread)")->capture_default_str();
  cmd->add_option("--max-nodes", a.max_nodes,
                  "astar: most states held (default 50,000,000, about 3 GB); ida: most expansions per board "
                  "(default 10,000,000,000)");
  cmd->add_option("--time-limit", a.time_limit_s, "stop each board's search after this many seconds (default: none)");
  cmd->add_flag("--moves", a.moves, "print each solution's moves (the blank's: U D L R)");
  cmd->add_flag("--json", a.json, "one JSON object per instance, then a summary object");
  return cmd;
}

int run_puzzle(const PuzzleArgs& a) {
  return guarded([&] {
    const auto algorithm = parse_algorithm(a.algorithm);
    if (!algorithm) throw UsageError("unknown algorithm '" + a.algorithm + "' (" + choices(algorithm_names) + ")");
    constexpr std::int64_t max_threads = 256;
    const std::size_t threads = checked_count(a.threads, 1, max_threads, "--threads");
    const std::optional<std::size_t> max_nodes =
        a.max_nodes ? std::optional(checked_positive(*a.max_nodes, "--max-nodes")) : std::nullopt;
    PuzzleSolverOptions options;
    options.query.max_nodes = max_nodes.value_or(default_astar_max_nodes);
    options.limit = time_limit(a.time_limit_s);
    if (*algorithm == Algorithm::ida) options.limit.expansions = max_nodes.value_or(default_ida_max_expansions);
    const PuzzleInstanceList list = load_puzzle_instances(a.instances);
    const SlidingPuzzle puzzle(list.width);
    const HeuristicKind heuristic = heuristic_arg(a, list.width);
    double build_s = 0, load_s = 0;
    std::optional<AdditivePatternDatabase> pdb;
    if (uses_pattern_database(heuristic)) pdb = pattern_database(a, puzzle, heuristic, build_s, load_s);

    const std::size_t n = list.instances.size();
    std::vector<Outcome> outcomes(n);
    std::mutex lock;  // guards outcomes, printing, the progress bar and the counters
    std::size_t printed = 0, solved = 0, mismatched = 0, failed = 0;
    std::uint64_t expanded = 0, generated = 0;
    double search_s = 0;
    ProgressBar bar("solving");
    const Stopwatch wall;

    // Prints every finished instance that is next in file order (under the lock).
    const auto print_ready = [&] {
      for (; printed < n && outcomes[printed].done; ++printed) {
        const PuzzleInstance& in = list.instances[printed];
        const PuzzleSolution& s = outcomes[printed].solution;
        bar.clear();
        if (a.json) {
          std::cout << instance_json(in, printed, s).dump() << "\n";
        } else {
          const long index = in.index ? *in.index : static_cast<long>(printed + 1);
          std::cout << "#" << index << ": ";
          if (s.status.succeeded()) {
            std::cout << s.moves.size() << " moves";
            if (in.optimal_length) std::cout << (static_cast<int>(s.moves.size()) == *in.optimal_length ? " (optimal)" : " (NOT the published " + number_text(*in.optimal_length) + ")");
          } else {
            std::cout << "not solved: " << failure_reason(s.status);
          }
          std::cout << ", " << s.stats.expanded << " expanded, " << s.stats.time_s << " s\n";
          if (a.moves && s.status.succeeded()) std::cout << "  " << describe(s.moves) << "\n";
        }
      }
      std::cout.flush();
    };

    // One solver per thread, sharing the puzzle and the pattern database.
    share_indices(n, threads, [&, options](const auto& next) mutable {
      std::size_t current = 0;
      options.on_iteration = [&](int bound, std::uint64_t nodes) {
        const std::lock_guard<std::mutex> hold(lock);
        bar.update(static_cast<double>(solved + failed) / static_cast<double>(n),
                   number_text(solved + failed) + "/" + number_text(n) + " solved; #" +
                       number_text(current + 1) + " bound " + number_text(bound) + ", " +
                       number_text(nodes) + " nodes");
      };
      PuzzleSolver solver(puzzle, heuristic, pdb ? &*pdb : nullptr, options);
      for (std::size_t i = next(); i < n; i = next()) {
        current = i;
        const PuzzleInstance& in = list.instances[i];
        PuzzleSolution s = solver.solve(*algorithm, in.state);
        // Trust nothing: replay the moves.
        const std::optional<PuzzleState> end = puzzle.replay(in.state, s.moves);
        const bool valid = s.status.succeeded() && end && *end == puzzle.goal();
        const std::lock_guard<std::mutex> hold(lock);
        if (s.status.succeeded() && !valid) s.status = Status{SearchState::failure, StatusDetail::none};
        if (!valid) {
          ++failed;
        } else {
          ++solved;
          if (in.optimal_length && static_cast<int>(s.moves.size()) != *in.optimal_length) ++mismatched;
        }
        expanded += s.stats.expanded;
        generated += s.stats.generated;
        search_s += s.stats.time_s;
        outcomes[i] = Outcome{std::move(s), true};
        print_ready();
      }
    });
    bar.clear();
    const double wall_s = wall.seconds();

    const double nodes_per_s = search_s > 0 ? static_cast<double>(expanded) / search_s : 0;
    if (a.json) {
      nlohmann::ordered_json summary;
      summary["instances"] = n;
      summary["solved"] = solved;
      summary["not_optimal"] = mismatched;
      summary["algorithm"] = a.algorithm;
      summary["heuristic"] = std::string(to_string(heuristic));
      summary["threads"] = std::min(threads, n);
      summary["expanded"] = expanded;
      summary["generated"] = generated;
      summary["search_s"] = search_s;
      summary["wall_s"] = wall_s;
      summary["expanded_per_s"] = nodes_per_s;
      summary["pdb_build_s"] = build_s;
      summary["pdb_load_s"] = load_s;
      std::cout << nlohmann::ordered_json{{"summary", summary}}.dump() << "\n";
    } else {
      std::cout << solved << "/" << n << " solved";
      if (mismatched != 0) std::cout << ", " << mismatched << " NOT optimal";
      std::cout << "; " << expanded << " expanded in " << search_s << " s of search (" << nodes_per_s / 1e6
                << " M/s), " << wall_s << " s wall";
      if (build_s > 0) std::cout << "; pattern database built in " << build_s << " s";
      if (load_s > 0) std::cout << "; pattern database loaded in " << load_s << " s";
      std::cout << "\n";
    }
    return failed == 0 && mismatched == 0 ? exit_ok : exit_not_found;
  });
}

}  // namespace waymark::cli
