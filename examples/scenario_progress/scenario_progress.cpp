// Runs Moving AI scenario files through waymark's scenario runner, reports its progress as it
// goes and checks every found length against the file's published optimum.
//   waymark_example_scenario_progress FILE.map.scen...
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/scenario/runner.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: waymark_example_scenario_progress FILE.map.scen...\n");
    return 2;
  }
  const std::vector<std::string> files(argv + 1, argv + argc);

  waymark::scenario::ScenarioRunOptions options;
  options.sample_every = 4;  // queries 0, 4, 8, ... of each file
  std::size_t reports = 0;
  std::size_t last_done = 0;
  bool consistent = true;
  options.progress = [&](const waymark::scenario::ScenarioProgress& p) {
    // Every file is read before the first search, so both totals are known from the first report.
    consistent = consistent && p.queries_done >= last_done && p.queries_done <= p.queries_total &&
                 p.files_done <= p.files_total;
    last_done = p.queries_done;
    if (++reports % 100 == 1 || p.files_done == p.files_total)
      std::printf("%zu/%zu files, %zu/%zu queries\n", p.files_done, p.files_total, p.queries_done, p.queries_total);
  };

  try {
    const waymark::scenario::ScenarioReport report = waymark::scenario::run_scenarios(files, options);
    std::printf("%zu queries, %zu optimal, mean %.1f us\n", report.queries, report.optimal, report.mean_us());
    return consistent && last_done == report.queries && report.all_optimal() ? 0 : 1;
  } catch (const waymark::LoadError& e) {  // an unreadable or malformed file, a missing map
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
