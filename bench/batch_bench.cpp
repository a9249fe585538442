// Batch throughput (issue 13): the queries of Moving AI scenario files run with grid::run_batch
// on 1 and on 2 threads, side by side, map by map. Prints one JSON object: queries per second
// for each thread count (best and median of the repetitions), the ratio 2 threads / 1 thread,
// and whether every answer (status, cost) on 2 threads equals 1 thread's.
//
//   waymark_bench_batch [--algorithm NAME] [--sample-every N] [--repetitions R] [--name TEXT] FILE.map.scen...
//
// Each map's planner is built once, outside the timing; the timing covers run_batch, so it
// includes each thread making its search handle (O(cells), once per map and call). The thread
// counts alternate which runs first from one repetition to the next, so drift in the machine's
// load falls on both.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "waymark/core/stopwatch.hpp"
#include "waymark/grid/batch.hpp"
#include "waymark/io/batch_queries.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/scenario/runner.hpp"

namespace {

using namespace waymark;

constexpr std::array<std::size_t, 2> thread_counts{1, 2};

struct Args {
  std::string algorithm = "astar";
  std::size_t sample_every = 1;
  std::size_t repetitions = 3;
  std::string name = "scenarios";
  std::vector<std::string> files;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "waymark_bench_batch: " << why
            << "\nusage: waymark_bench_batch [--algorithm NAME] [--sample-every N] [--repetitions R] [--name TEXT] "
               "FILE.map.scen...\n";
  std::exit(2);
}

std::size_t positive(const char* text, const std::string& option) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < 1) usage(option + " must be a positive integer");
  return static_cast<std::size_t>(v);
}

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> const char* {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--algorithm") a.algorithm = value();
    else if (arg == "--sample-every") a.sample_every = positive(value(), arg);
    else if (arg == "--repetitions") a.repetitions = positive(value(), arg);
    else if (arg == "--name") a.name = value();
    else a.files.push_back(arg);
  }
  if (a.files.empty()) usage("no scenario files");
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  const auto algorithm = grid::parse_algorithm(args.algorithm);
  if (!algorithm) usage("unknown algorithm '" + args.algorithm + "'");
  // time[t][r]: the seconds of every map's batch on thread_counts[t] threads in repetition r.
  std::array<std::vector<double>, thread_counts.size()> time;
  for (auto& t : time) t.assign(args.repetitions, 0.0);
  std::size_t queries_total = 0, solved = 0, differing = 0;
  try {
    for (const std::string& file : args.files) {
      const io::Scenario scen = io::load_movingai_scenario(file);
      if (scen.queries.empty()) continue;
      const grid::GridMap map = io::load_movingai_map(scenario::resolve_map_path(file, scen.queries.front().map, ""));
      const io::BatchQueryList list = io::load_batch_queries(file, map);
      std::vector<grid::BatchQuery> queries;
      const std::vector<grid::BatchQuery> all = list.cells(map);
      for (std::size_t i = 0; i < all.size(); i += args.sample_every) queries.push_back(all[i]);
      const grid::GridPlanner planner(map, {.algorithm = *algorithm});
      std::array<std::vector<grid::BatchResult>, thread_counts.size()> results;
      for (auto& r : results) r.resize(queries.size());
      for (std::size_t rep = 0; rep < args.repetitions; ++rep) {
        for (std::size_t k = 0; k < thread_counts.size(); ++k) {
          const std::size_t t = rep % 2 == 0 ? k : thread_counts.size() - 1 - k;
          const Stopwatch clock;
          grid::run_batch(planner, queries, results[t], {.threads = thread_counts[t]});
          time[t][rep] += clock.seconds();
        }
      }
      queries_total += queries.size();
      for (std::size_t i = 0; i < queries.size(); ++i) {
        solved += results[0][i].status.succeeded() ? 1 : 0;
        for (std::size_t t = 1; t < thread_counts.size(); ++t) {
          if (results[t][i].status != results[0][i].status || results[t][i].cost != results[0][i].cost) ++differing;
        }
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "waymark_bench_batch: " << e.what() << "\n";
    return 2;
  }
  nlohmann::ordered_json out;
  out["name"] = args.name;
  out["algorithm"] = args.algorithm;
  out["files"] = args.files.size();
  out["sample_every"] = args.sample_every;
  out["repetitions"] = args.repetitions;
  out["queries"] = queries_total;
  out["solved"] = solved;
  out["answers_differing"] = differing;
  std::array<double, thread_counts.size()> best{}, mid{};
  for (std::size_t t = 0; t < thread_counts.size(); ++t) {
    best[t] = *std::min_element(time[t].begin(), time[t].end());
    mid[t] = median(time[t]);
    const std::string key = "threads_" + std::to_string(thread_counts[t]);
    out[key] = {{"best_s", best[t]},
                {"median_s", mid[t]},
                {"best_queries_per_s", static_cast<double>(queries_total) / best[t]},
                {"median_queries_per_s", static_cast<double>(queries_total) / mid[t]}};
  }
  out["speedup_best"] = best[0] / best[1];
  out["speedup_median"] = mid[0] / mid[1];
  std::cout << out.dump() << "\n";
  return differing == 0 ? 0 : 1;
}
