// `waymark puzzle`: sliding-tile instances solved optimally (8-puzzles against a breadth-first
// search written here, Korf's 15-puzzles), limits, pattern database files, and bad input.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "apps/cli_support.hpp"

namespace waymark::apps_cli_puzzle_test {
namespace {

using test::CliRun;
using test::data;
using test::json_lines;
using test::run;
using test::temp_file;

/// Distances to the 8-puzzle goal (blank first) of every reachable board, by a breadth-first
/// search written here, independent of the library. Boards are strings of 9 digits.
const std::unordered_map<std::string, int>& eight_puzzle_distances() {
  static const std::unordered_map<std::string, int> dist = [] {
    std::unordered_map<std::string, int> d;
    std::vector<std::string> queue{"012345678"};
    d[queue[0]] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::string s = queue[head];
      const int blank = static_cast<int>(s.find('0'));
      const int r = blank / 3, c = blank % 3;
      for (const auto& [dr, dc] : std::array<std::pair<int, int>, 4>{{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}}) {
        if (r + dr < 0 || r + dr > 2 || c + dc < 0 || c + dc > 2) continue;
        std::string t = s;
        std::swap(t[static_cast<std::size_t>(blank)], t[static_cast<std::size_t>((r + dr) * 3 + c + dc)]);
        if (d.emplace(t, d[s] + 1).second) queue.push_back(t);
      }
    }
    return d;
  }();
  return dist;
}

/// `count` random reachable 8-puzzle boards as instance lines `index length tiles`.
std::string eight_puzzle_instances(int count, int length_offset = 0) {
  std::vector<std::pair<std::string, int>> boards(eight_puzzle_distances().begin(), eight_puzzle_distances().end());
  std::sort(boards.begin(), boards.end());
  std::mt19937 rng(17);
  std::ostringstream text;
  text << "# random 8-puzzles, lengths from a breadth-first search\n";
  for (int i = 1; i <= count; ++i) {
    const auto& [board, length] = boards[rng() % boards.size()];
    text << i << " " << length + (i == count ? length_offset : 0);
    for (const char ch : board) text << " " << ch;
    text << "\n";
  }
  return text.str();
}

TEST(Cli, PuzzleEightPuzzlesMatchBreadthFirstSearch) {
  const int count = 25;
  const std::string file = temp_file("eight.txt", eight_puzzle_instances(count));
  for (const char* algorithm : {"ida", "astar"}) {
    for (const char* heuristic : {"manhattan", "linear-conflict"}) {
      const CliRun r = run("puzzle --instances " + file + " -a " + algorithm + " --heuristic " + heuristic + " --json");
      ASSERT_EQ(r.exit_code, 0) << algorithm << " " << heuristic << "\n" << r.out;
      const auto lines = json_lines(r.out);
      ASSERT_EQ(lines.size(), static_cast<std::size_t>(count + 1));
      for (int i = 0; i < count; ++i) {
        const auto& j = lines[static_cast<std::size_t>(i)];
        EXPECT_EQ(j["index"], i + 1);
        EXPECT_EQ(j["length"], j["optimal_length"]);
        EXPECT_EQ(j["moves"].get<std::string>().size(), j["length"].get<std::size_t>());
        EXPECT_TRUE(j["expanded"].is_number());
        EXPECT_TRUE(j["time_s"].is_number());
      }
      const auto& summary = lines.back()["summary"];
      EXPECT_EQ(summary["solved"], count);
      EXPECT_EQ(summary["not_optimal"], 0);
      EXPECT_EQ(summary["heuristic"], heuristic);
    }
  }
}

TEST(Cli, PuzzleWrongPublishedLengthExitsOne) {
  const std::string file = temp_file("eight_wrong.txt", eight_puzzle_instances(5, 2));
  const CliRun r = run("puzzle --instances " + file);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("NOT the published"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 NOT optimal"), std::string::npos) << r.out;
}

TEST(Cli, PuzzleSearchesEndAtTheirNodeOrTimeLimit) {
  // Korf's instance 1 (57 moves) takes IDA* with Manhattan distance far longer than these limits.
  const std::string korf = data + "/puzzles/korf100_1-50.txt";
  std::ifstream in(korf);
  std::string first;
  std::getline(in, first);
  while (first.empty() || first[0] == '#') std::getline(in, first);
  const std::string file = temp_file("korf_first.txt", first + "\n");
  CliRun r = run("puzzle --instances " + file + " --heuristic manhattan --max-nodes 100000");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("not solved: out of nodes (--max-nodes), 1000"), std::string::npos) << r.out;
  r = run("puzzle --instances " + file + " --heuristic manhattan --time-limit 0.2 --json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("\"status\":\"time-limit\""), std::string::npos) << r.out;
  r = run("puzzle --instances " + file + " -a astar --heuristic manhattan --max-nodes 1000");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("not solved: out of nodes (--max-nodes)"), std::string::npos) << r.out;
}

TEST(Cli, PuzzleKorfInstancesTextAndThreads) {
  // Korf's instances 31 and 50 (50 and 53 moves) are among the easiest of the 100.
  std::ifstream korf(data + "/puzzles/korf100_1-50.txt");
  std::string line, picked;
  while (std::getline(korf, line)) {
    if (line.rfind("31 ", 0) == 0 || line.rfind("50 ", 0) == 0) picked += line + "\n";
  }
  const std::string file = temp_file("korf_easy.txt", picked);
  const CliRun r = run("puzzle --instances " + file + " --heuristic linear-conflict --threads 2 --moves");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("#31: 50 moves (optimal)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("#50: 53 moves (optimal)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2/2 solved"), std::string::npos) << r.out;
}

TEST(Cli, PuzzlePatternDatabaseIsBuiltSavedAndLoaded) {
  std::ifstream korf(data + "/puzzles/korf100_1-50.txt");
  std::string line, picked;
  while (std::getline(korf, line)) {
    if (line.rfind("25 ", 0) == 0 || line.rfind("28 ", 0) == 0 || line.rfind("31 ", 0) == 0) picked += line + "\n";
  }
  const std::string file = temp_file("korf_pdb.txt", picked);
  const std::string pdb = ::testing::TempDir() + "/waymark_cli_663.pdb";
  std::filesystem::remove(pdb);
  const CliRun built = run("puzzle --instances " + file + " --pdb " + pdb + " --json");
  ASSERT_EQ(built.exit_code, 0) << built.out;
  ASSERT_TRUE(std::filesystem::exists(pdb));
  const auto first = json_lines(built.out);
  ASSERT_EQ(first.size(), 4u);
  EXPECT_EQ(first.back()["summary"]["heuristic"], "pdb-663");  // the default on 4x4 boards
  EXPECT_GT(first.back()["summary"]["pdb_build_s"].get<double>(), 0.0);
  const CliRun loaded = run("puzzle --instances " + file + " --pdb " + pdb + " --json");
  ASSERT_EQ(loaded.exit_code, 0) << loaded.out;
  const auto second = json_lines(loaded.out);
  ASSERT_EQ(second.size(), 4u);
  EXPECT_EQ(second.back()["summary"]["pdb_build_s"].get<double>(), 0.0);
  EXPECT_GT(second.back()["summary"]["pdb_load_s"].get<double>(), 0.0);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(first[i]["length"], first[i]["optimal_length"]);
    EXPECT_EQ(second[i]["expanded"], first[i]["expanded"]);  // the same table, the same search
  }
  // The file holds pdb-663: asking for pdb-78 with it is refused, not silently used.
  const CliRun other = run("puzzle --instances " + file + " --pdb " + pdb + " --heuristic pdb-78");
  EXPECT_EQ(other.exit_code, 2) << other.out;
  EXPECT_NE(other.out.find("holds another pattern database"), std::string::npos) << other.out;
  std::filesystem::remove(pdb);
}

TEST(Cli, PuzzleBadInputExitsTwoWithAReason) {
  const std::string unsolvable = temp_file("unsolvable.txt", "# goal with tiles 1 and 2 swapped\n0 2 1 3 4 5 6 7 8\n");
  const std::string short_line = temp_file("short.txt", "1 2 3 4 5 6 7 8 0\n1 2 3\n");
  const std::string not_pdb = temp_file("not.pdb", "this is not a pattern database");
  const std::string korf = data + "/puzzles/korf100_1-50.txt";
  struct Case {
    std::string args, reason;
  };
  for (const Case& c : std::vector<Case>{
           {"puzzle --instances " + unsolvable, "unsolvable.txt:2: unsolvable"},
           {"puzzle --instances " + short_line, "short.txt:2: expected 4, 9 or 16 tiles"},
           {"puzzle --instances /no/such/file", "cannot open file"},
           {"puzzle --instances " + unsolvable + " --heuristic pdb-663", "unsolvable"},
           {"puzzle --instances " + temp_file("ok3.txt", "1 0 2 3 4 5 6 7 8\n") + " --heuristic pdb-663",
            "pdb-663 is for the 15-puzzle"},
           {"puzzle --instances " + korf + " --heuristic nope", "unknown heuristic 'nope'"},
           {"puzzle --instances " + korf + " -a bfs", "unknown algorithm 'bfs'"},
           {"puzzle --instances " + korf + " --pdb " + not_pdb, "not a waymark pattern database file"},
           {"puzzle --instances " + korf + " --threads 0", "--threads must be an integer from 1 to 256, got 0"},
           {"puzzle --instances " + korf + " --threads -1", "--threads must be an integer from 1 to 256, got -1"},
           {"puzzle --instances " + korf + " -a astar --max-nodes -5", "--max-nodes must be an integer from 1"},
           {"puzzle --instances " + korf + " --time-limit -2", "--time-limit must be a number of seconds from 0"},
           {"puzzle --instances " + korf + " --time-limit nan", "--time-limit must be a number of seconds from 0"},
       }) {
    const CliRun r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.reason), std::string::npos) << c.args << "\n" << r.out;
  }
}

}  // namespace
}  // namespace waymark::apps_cli_puzzle_test
