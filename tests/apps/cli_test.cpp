// The `waymark` binary end to end: output shapes and exit codes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "progress.hpp"  // apps/waymark
#include "support/picture_check.hpp"
#include "support/random_graph.hpp"
#include "waymark/io/movingai.hpp"

namespace {

const std::string cli = WAYMARK_CLI;
const std::string data = WAYMARK_DATA_DIR;

struct CliRun {
  int exit_code;
  std::string out;  ///< stdout and stderr together
};

CliRun run(const std::string& args) {
  const std::string cmd = cli + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) out += buf.data();
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

/// A run with stderr on a pseudo-terminal, as in a shell, and stdout on a pipe.
struct TerminalRun {
  int exit_code;
  std::string out;       ///< stdout
  std::string terminal;  ///< what reached the terminal (stderr)
};

TerminalRun run_on_terminal(const std::string& args) {
  int terminal = -1;
  int terminal_end = -1;
  if (openpty(&terminal, &terminal_end, nullptr, nullptr, nullptr) != 0) return {-1, "", "openpty failed"};
  int out[2];
  if (pipe(out) != 0) {
    close(terminal);
    close(terminal_end);
    return {-1, "", "pipe failed"};
  }
  const std::string cmd = cli + " " + args;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(terminal_end, STDERR_FILENO);
    dup2(out[1], STDOUT_FILENO);
    close(terminal);
    close(terminal_end);
    close(out[0]);
    close(out[1]);
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(terminal_end);
  close(out[1]);
  TerminalRun r{-1, "", ""};
  std::array<pollfd, 2> fds{pollfd{out[0], POLLIN, 0}, pollfd{terminal, POLLIN, 0}};
  if (pid < 0) {
    for (const pollfd& f : fds) close(f.fd);
    r.terminal = "fork failed";
    return r;
  }
  std::array<std::string*, 2> into{&r.out, &r.terminal};
  std::array<char, 4096> buf{};
  constexpr int wait_ms = 60000;  // a wedged child fails the test instead of hanging it
  for (int open_fds = 2; open_fds > 0;) {
    const int ready = poll(fds.data(), fds.size(), wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      kill(pid, SIGKILL);
      break;
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = read(fds[i].fd, buf.data(), buf.size());
      if (n > 0) {
        into[i]->append(buf.data(), static_cast<std::size_t>(n));
      } else {  // end of file, or EIO once the terminal's last writer has closed it
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (const pollfd& f : fds)
    if (f.fd >= 0) close(f.fd);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/waymark_cli_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(Cli, PathJsonHasTheDocumentedShape) {
  // arena.map.scen line 2: (19,26) -> (19,29), optimal 3.
  const CliRun r = run("path --map " + data + "/maps/arena.map --from 19,26 --to 19,29 --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "success");
  EXPECT_DOUBLE_EQ(j["cost"].get<double>(), 3.0);
  ASSERT_EQ(j["path"].size(), 4u);
  EXPECT_EQ(j["path"][0], nlohmann::json::array({19, 26}));
  EXPECT_EQ(j["path"][3], nlohmann::json::array({19, 29}));
  EXPECT_GT(j["stats"]["expanded"].get<int>(), 0);
  EXPECT_TRUE(j["stats"]["time_us"].is_number());
  EXPECT_EQ(j["algorithm"], "astar");
  EXPECT_EQ(j["partial"], false);
  EXPECT_TRUE(j["smoothed"].is_null());
  EXPECT_EQ(j["stats"]["steps"], 3);
  EXPECT_TRUE(j["warnings"].empty());
}

/// The lines of a --trace file, parsed.
std::vector<nlohmann::json> read_trace(const std::string& path) {
  std::vector<nlohmann::json> events;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) events.push_back(nlohmann::json::parse(line));
  return events;
}

std::size_t count_events(const std::vector<nlohmann::json>& events, const std::string& kind) {
  return static_cast<std::size_t>(
      std::count_if(events.begin(), events.end(), [&](const nlohmann::json& e) { return e["event"] == kind; }));
}

TEST(Cli, PathTraceWritesEveryEventAsJsonLines) {
  for (const std::string algorithm : {"astar", "jps", "bfs", "ida"}) {
    SCOPED_TRACE(algorithm);
    const std::string trace = ::testing::TempDir() + "/waymark_trace_" + algorithm + ".jsonl";
    const CliRun r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --json -a " + algorithm +
                         " --trace " + trace);
    ASSERT_EQ(r.exit_code, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    const std::vector<nlohmann::json> events = read_trace(trace);
    ASSERT_GE(events.size(), 4u);
    EXPECT_EQ(events.front()["event"], "begin");
    EXPECT_EQ(events.front()["goal"], nlohmann::json::array({35, 7}));
    EXPECT_EQ(events.back()["event"], "end");
    EXPECT_EQ(events.back()["status"], "success");
    EXPECT_EQ(count_events(events, "expand"), j["stats"]["expanded"].get<std::size_t>());
    EXPECT_EQ(count_events(events, "goal"), 1u);
    const auto goal = std::find_if(events.begin(), events.end(), [](const nlohmann::json& e) { return e["event"] == "goal"; });
    EXPECT_EQ((*goal)["node"], nlohmann::json::array({35, 7}));
    EXPECT_DOUBLE_EQ((*goal)["g"].get<double>(), j["cost"].get<double>());
    for (const auto& e : events) {
      if (e["event"] != "open") continue;
      EXPECT_TRUE(e.contains("g") && e.contains("h") && e.contains("improved"));
      EXPECT_EQ(e.contains("parent"), e["node"] != nlohmann::json::array({3, 1}));  // only the start has none
    }
  }
  EXPECT_EQ(run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --trace /nonexistent/dir/t.jsonl").exit_code, 2);
}

TEST(Cli, GraphTraceMarksTheBackwardSide) {
  const std::string trace = ::testing::TempDir() + "/waymark_graph_trace.jsonl";
  const CliRun r = run("graph --gr " + data + "/roads/rome99.gr --from 1 --to 3000 -a bidijkstra --json --trace " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  const std::vector<nlohmann::json> events = read_trace(trace);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front()["goal"], 3000);
  EXPECT_EQ(events.back()["status"], "success");
  EXPECT_EQ(count_events(events, "expand"), j["expanded"].get<std::size_t>());
  const auto backward = std::count_if(events.begin(), events.end(), [](const nlohmann::json& e) {
    return e.contains("direction") && e["direction"] == "backward";
  });
  EXPECT_GT(backward, 0);
  EXPECT_LT(static_cast<std::size_t>(backward), events.size());
  EXPECT_EQ(run("graph --gr " + data + "/roads/rome99.gr --queries " + temp_file("q.txt", "1 2\n") +
                " --trace " + trace).exit_code, 2);
}

TEST(Cli, PathTextAndEveryAlgorithm) {
  for (const char* a : {"astar", "wastar", "dijkstra", "greedy", "bfs", "dfs", "ida"}) {
    const CliRun r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 -a " + a);
    EXPECT_EQ(r.exit_code, 0) << a << ": " << r.out;
    EXPECT_NE(r.out.find("status:   success"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("path:"), std::string::npos);
  }
}

TEST(Cli, NoPathExitsOne) {
  const std::string map = temp_file("split.map", "type octile\nheight 3\nwidth 3\nmap\n.@.\n.@.\n.@.\n");
  const CliRun r = run("path --map " + map + " --from 0,0 --to 2,2 --json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "failure");
  EXPECT_TRUE(j["cost"].is_null());
  EXPECT_TRUE(j["path"].empty());
}

TEST(Cli, BadInputExitsTwoWithAReason) {
  const std::string arena = data + "/maps/arena.map";
  const std::string bad = temp_file("bad.map", "type octile\nheight 2\nwidth 2\nmap\n.x\n..\n");
  struct Case {
    std::string args;
    std::string expect;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"path --map /nonexistent.map --from 0,0 --to 1,1", "cannot open file"},
           {"path --map " + bad + " --from 0,0 --to 1,1", "bad.map:5: bad cell character 'x'"},
           {"path --map " + arena + " --from 99,0 --to 1,1", "outside"},
           {"path --map " + arena + " --from 0,0 --to 19,29", "from (0,0) is blocked"},
           {"path --map " + arena + " --from 19,26 --to 0,0", "to (0,0) is blocked"},
           {"path --map " + arena + " --from '1;2' --to 19,29", "must be X,Y"},
           {"path --map " + arena + " --from 19,26 --to 19,29 -a quantum", "unknown algorithm"},
           {"path --map " + arena + " --from 19,26 --to 19,29 --diagonal sometimes", "unknown diagonal rule"},
           {"path --map " + arena + " --from 19,26 --to 19,29 -a wastar -w 0.5", "weight must be a number from 1 to 1000000, got '0.5'"},
           {"path --map " + arena + " --from 19,26 --to 19,29 -a astar -w 2", "astar takes no weight (it is for wastar)"},
           {"path --map " + arena + " --from 19,26", "--to is required"},
           {"scen /nonexistent.map.scen", "cannot open file"},
           {"nonsense", ""},
       }) {
    const CliRun r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.expect), std::string::npos) << c.args << "\n" << r.out;
  }
}

/// A 64x64 open map whose goal (60,60) is walled in.
std::string sealed_map() {
  std::string rows;
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 64; ++x) {
      const bool ring = x >= 59 && x <= 61 && y >= 59 && y <= 61 && !(x == 60 && y == 60);
      rows += ring ? '@' : '.';
    }
    rows += '\n';
  }
  return temp_file("sealed.map", "type octile\nheight 64\nwidth 64\nmap\n" + rows);
}

TEST(Cli, PathPartialPrintsThePathToTheCellNearestTheGoalAndWhyItStopped) {
  const std::string sealed = sealed_map();
  const std::string query = "path --map " + sealed + " --from 1,1 --to 60,60 --json ";
  CliRun r = run(query);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["reason"], "unreachable");
  EXPECT_EQ(j["partial"], false);
  EXPECT_TRUE(j["cost"].is_null());
  EXPECT_TRUE(j["path"].empty());
  // The goal is walled in: the nearest cells reached (h = 2) are (58,60) and (60,58), both
  // 57 diagonal steps and 2 straight ones from (1,1).
  r = run(query + "--partial");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "failure");
  EXPECT_EQ(j["reason"], "unreachable");
  EXPECT_EQ(j["partial"], true);
  ASSERT_FALSE(j["path"].empty());
  EXPECT_EQ(j["path"].front(), nlohmann::json::parse("[1,1]"));
  const auto end = j["path"].back();
  EXPECT_TRUE(end == nlohmann::json::parse("[58,60]") || end == nlohmann::json::parse("[60,58]")) << end;
  EXPECT_NEAR(j["cost"].get<double>(), 57 * std::sqrt(2.0) + 2, 1e-9);
  EXPECT_EQ(j["stats"]["steps"].get<std::size_t>() + 1, j["path"].size());
  // Budgets: the reason names the limit; the partial path still starts at the start.
  for (const auto& [limit, reason] : {std::pair<std::string, std::string>{"--max-nodes 50", "out-of-nodes"},
                                      {"--time-limit 0.000001", "time-limit"}}) {
    r = run(query + "--partial " + limit);
    EXPECT_EQ(r.exit_code, 1) << limit << r.out;
    j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["reason"], reason) << limit;
    EXPECT_EQ(j["partial"], true) << limit;
    ASSERT_FALSE(j["path"].empty()) << limit;
    EXPECT_EQ(j["path"].front(), nlohmann::json::parse("[1,1]")) << limit;
  }
  r = run("path --map " + sealed + " --from 1,1 --to 60,60 --partial");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("status:   failure: no path\npartial:  cost 82.6"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("path:     (1,1) (2,2)"), std::string::npos) << r.out;
  // A blocked or outside start is still bad input, refused before searching.
  EXPECT_EQ(run("path --map " + sealed + " --from 59,59 --to 60,60 --partial").exit_code, 2);
  EXPECT_EQ(run("path --map " + sealed + " --from 1,1 --to 99,1 --partial").exit_code, 2);
}

TEST(Cli, HostileOptionsAndFilesGetOneLineAndExitTwo) {
  const std::string arena = data + "/maps/arena.map";
  const std::string scen = data + "/maps/arena.map.scen";
  const std::string rome = data + "/roads/rome99.gr";
  const std::string path = "path --map " + arena + " --from 19,26 --to 19,29 ";
  struct Case {
    std::string args, expect;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"nosuch", "waymark: unknown command 'nosuch' (expected path, batch, scen, jps-table, graph, puzzle, navmesh, regions, visibility, simulate, render or serve)"},
           {"", "waymark: a command is required"},
           {"scen " + scen + " --sample-every 0", "waymark: --sample-every must be an integer from 1 to"},
           {path + "--max-nodes -5", "waymark: max_nodes must be a whole number from 1 to"},
           {path + "--max-nodes 0", "waymark: max_nodes must be a whole number from 1 to"},
           {path + "--max-cells 0", "waymark: --max-cells must be an integer from 1 to"},
           {path + "--time-limit -1", "waymark: time_limit must be a number of seconds"},
           {"path --map " + arena + " --from 19,26 --to 19,29 --max-cells 100", "more than the limit of 100"},
           {"graph --gr " + rome + " -a alt --landmarks 0 --from 1 --to 2", "waymark: --landmarks must be an integer from 1"},
           {"graph --gr " + temp_file("huge.gr", "p sp 4000000000 0\n") + " --from 1 --to 2",
            "huge.gr:1: vertex count must be an integer from 0 to 67108864"},
           {"path --map /dev/zero --from 0,0 --to 1,1", "/dev/zero:1: line longer than 65536 bytes"},
           {"path --map " + data + " --from 0,0 --to 1,1", data + ": is a directory, not a file"},
           {path + "-a jps-plus --jump-table " + data, data + ": is a directory, not a file"},
           {"graph --gr " + data + " --from 1 --to 2", data + ": is a directory, not a file"},
           {"path --map " + temp_file("ctl.map", "type\x1b[31m octile\n") + " --from 0,0 --to 1,1",
            "got 'type\\x1b[31m octile'"},
           {"jps-table --map " + arena + " --out /nonexistent/dir/t.jps", "/nonexistent/dir/t.jps: cannot open for writing"},
           {"graph --gr " + rome + " -a ch --from 1 --to 2 --save /nonexistent/dir/ch.bin",
            "/nonexistent/dir/ch.bin: cannot open for writing"},
       }) {
    const CliRun r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.expect), std::string::npos) << c.args << "\n" << r.out;
    // One line, no raw control bytes.
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << c.args << "\n" << r.out;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << c.args;
  }
}

TEST(Cli, EverySearchIsBoundedByNodesAndTime) {
  const std::string sealed = sealed_map();
  const std::string query = "path --map " + sealed + " --from 1,1 --to 60,60 ";
  // IDA* into a walled-in goal never ends on its own: the node budget ends it, exit 1.
  CliRun r = run(query + "-a ida --max-nodes 200000");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("status:   failure: out of nodes (--max-nodes)"), std::string::npos) << r.out;
  r = run(query + "-a ida --max-nodes 4000000000000 --time-limit 0.2 --json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("\"reason\":\"time-limit\""), std::string::npos) << r.out;
  // Road graphs: every algorithm counts expansions against --max-nodes.
  const std::string rome = "graph --gr " + data + "/roads/rome99.gr --from 1 --to 3000 --max-nodes 5 -a ";
  for (const char* a : {"dijkstra", "bidijkstra", "alt", "ch"}) {
    r = run(rome + a + " --json");
    EXPECT_EQ(r.exit_code, 1) << a << r.out;
    EXPECT_NE(r.out.find("\"reason\":\"out of nodes (--max-nodes)\""), std::string::npos) << a << r.out;
  }
  EXPECT_EQ(run(rome + "dijkstra --time-limit -3").exit_code, 2);
  // DFS and A* exhaust the reachable cells: a plain "no path".
  for (const char* a : {"dfs", "astar", "bfs"}) {
    r = run(query + "-a " + a);
    EXPECT_EQ(r.exit_code, 1) << a << r.out;
    EXPECT_NE(r.out.find("failure: no path"), std::string::npos) << a << r.out;
  }
}

TEST(Cli, HelpOnEverySubcommand) {
  for (const char* sub : {"", "path ", "scen ", "jps-table ", "graph ", "puzzle ", "navmesh ", "render "}) {
    const CliRun r = run(std::string(sub) + "--help");
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_NE(r.out.find("--"), std::string::npos);
  }
}

TEST(Cli, ScenJsonReportsAllOptimal) {
  const CliRun r = run("scen " + data + "/maps/arena.map.scen --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["queries"], 130);
  EXPECT_EQ(j["solved"], 130);
  EXPECT_EQ(j["optimal"], 130);
  EXPECT_TRUE(j["mismatches"].empty());
  EXPECT_GT(j["expanded_total"].get<long>(), 0);
  EXPECT_GT(j["mean_us"].get<double>(), 0.0);
  EXPECT_TRUE(j["time_total_s"].is_number());
}

TEST(Cli, ScenSampleEveryRunsQueriesWhoseIndexIsAMultiple) {
  // 130 queries, indices 0, 10, …, 120 run.
  const CliRun r = run("scen " + data + "/maps/arena.map.scen --sample-every 10 --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["queries"], 13);
  EXPECT_EQ(j["optimal"], 13);
  EXPECT_EQ(j["sample_every"], 10);
  ASSERT_TRUE(j.contains("path_steps_total")) << r.out;
  EXPECT_GT(j["path_steps_total"].get<long>(), 0);
  EXPECT_EQ(run("scen " + data + "/maps/arena.map.scen --sample-every 0").exit_code, 2);
}

TEST(Cli, ScenWithSuboptimalAlgorithmExitsOneAndListsMismatches) {
  const CliRun r = run("scen " + data + "/maps/arena.map.scen --json -a greedy");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_LT(j["optimal"].get<int>(), 130);
  EXPECT_FALSE(j["mismatches"].empty());
  EXPECT_LE(j["mismatches"].size(), 20u);
  EXPECT_TRUE(j["mismatches"][0].contains("line"));
}

TEST(Cli, ScenTextAndMapsDir) {
  const std::string dir = ::testing::TempDir() + "/waymark_cli_scen";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(data + "/maps/arena.map.scen", dir + "/arena.map.scen",
                             std::filesystem::copy_options::overwrite_existing);
  EXPECT_EQ(run("scen " + dir + "/arena.map.scen").exit_code, 2);  // map not beside it
  const CliRun r = run("scen " + dir + "/arena.map.scen --maps " + data + "/maps");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("total: 130 queries, all optimal: yes"), std::string::npos) << r.out;
}

TEST(Cli, ScenMalformedLineExitsTwo) {
  const std::string scen = temp_file("bad.map.scen", "version 1\n0\tarena.map\t49\t49\t1\t1\t2\t2\tNaN\n");
  const CliRun r = run("scen " + scen + " --maps " + data + "/maps");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("bad.map.scen:2:"), std::string::npos) << r.out;
}

/// `file` is a PNG (its signature) of some substance.
void expect_png(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::array<char, 8> magic{};
  in.read(magic.data(), magic.size());
  EXPECT_EQ(std::string(magic.data() + 1, 3), "PNG") << file;
  EXPECT_GT(std::filesystem::file_size(file), 1000u) << file;
}

TEST(Cli, PngIsWritten) {
  const std::string png = ::testing::TempDir() + "/waymark_cli_path.png";
  std::filesystem::remove(png);
  const CliRun r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --png " + png);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  expect_png(png);
}

TEST(Cli, RegionsJsonHasTheDocumentedShapeAndPngIsWritten) {
  const std::string png = ::testing::TempDir() + "/waymark_cli_regions.png";
  std::filesystem::remove(png);
  const std::string arena = data + "/maps/arena.map";
  for (const char* metric : {"", " --geodesic"}) {
    const CliRun r = run("regions --map " + arena + " --seeds '8,8;40,8;24,24;8,40;40,40' --json --png " + png + metric);
    ASSERT_EQ(r.exit_code, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["regions"], 5);
    EXPECT_EQ(j["metric"], *metric == '\0' ? "euclidean" : "geodesic");
    ASSERT_EQ(j["cells"].size(), 5u);
    int cells = 0;
    for (const auto& c : j["cells"]) cells += c.get<int>();
    EXPECT_EQ(cells, 2054);  // arena.map's passable cells: every one in a region
    EXPECT_EQ(j["unreached"], 0);
    ASSERT_FALSE(j["adjacency"].empty());
    for (const auto& pair : j["adjacency"]) EXPECT_LT(pair[0].get<int>(), pair[1].get<int>());
    EXPECT_TRUE(j["ms"].is_number());
    expect_png(png);
  }
}

TEST(Cli, RegionsSeedsFileTextScenAndUnreachedCellsExitOne) {
  const std::string seeds = temp_file("arena.seeds", "# two seeds\n8 8\n40,40\n");
  const CliRun text = run("regions --map " + data + "/maps/arena.map --seeds-file " + seeds + " --geodesic");
  EXPECT_EQ(text.exit_code, 0) << text.out;
  EXPECT_NE(text.out.find("2 geodesic regions"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("region 1 seed (40,40)"), std::string::npos) << text.out;
  // Coarse-then-fine against A* on the scenario: every query solved, never below the optimum.
  const CliRun scen = run("regions --map " + data + "/maps/arena.map --seeds-file " + seeds +
                          " --geodesic --json --scen " + data + "/maps/arena.map.scen");
  ASSERT_EQ(scen.exit_code, 0) << scen.out;
  const auto plan = nlohmann::json::parse(scen.out)["plan"];
  EXPECT_GT(plan["queries"].get<int>(), 100);
  EXPECT_EQ(plan["both_solved"], plan["solved"]);
  EXPECT_EQ(plan["missed"], 0);
  EXPECT_EQ(plan["cheaper_than_astar"], 0);
  EXPECT_GE(plan["cost_ratio_mean"].get<double>(), 1.0);
  // A wall cuts the right half off the only seed: geodesic regions leave it unreached (exit 1).
  const std::string split = temp_file("regions_split.map", "type octile\nheight 3\nwidth 3\nmap\n.@.\n.@.\n.@.\n");
  const CliRun cut = run("regions --map " + split + " --seeds 0,0 --geodesic --json");
  EXPECT_EQ(cut.exit_code, 1) << cut.out;
  EXPECT_EQ(nlohmann::json::parse(cut.out)["unreached"], 3);
  EXPECT_EQ(run("regions --map " + split + " --seeds 0,0 --json").exit_code, 0);  // euclidean: no walls
}

TEST(Cli, RegionsBadInputExitsTwoWithAReason) {
  const std::string map = data + "/maps/den520d.map";
  const std::string bad_seeds = temp_file("bad.seeds", "10 10\n\n20 x\n");
  const std::string far_seeds = temp_file("far.seeds", "# far\n49 42\n400 2\n");
  struct Case {
    std::string args, expect;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"regions --map " + map + " --seeds '49,42;96,33;400,2'",
            "waymark: --seeds: seed 3: (400,2) is outside the 256x257 map\n"},
           {"regions --map " + map + " --seeds '49,42;0,0'", "waymark: --seeds: seed 2: (0,0) is a blocked cell\n"},
           {"regions --map " + map + " --seeds '49,42;49,42'", "waymark: --seeds: seed 2: (49,42) repeats seed 1\n"},
           {"regions --map " + map + " --seeds '49,42;x'", "waymark: --seeds: seed 2: expected X,Y (integers), got 'x'\n"},
           {"regions --map " + map + " --seeds-file " + bad_seeds,
            "waymark: " + bad_seeds + ":3: expected a seed 'X Y' or 'X,Y' (integers), got '20 x'\n"},
           {"regions --map " + map + " --seeds-file " + far_seeds,
            "waymark: " + far_seeds + ":3: (400,2) is outside the 256x257 map\n"},
           {"regions --map " + map, "waymark: give either --seeds \"X,Y;X,Y;...\" or --seeds-file FILE\n"},
           {"regions --map " + map + " --seeds 49,42 --seeds-file " + far_seeds,
            "waymark: give either --seeds \"X,Y;X,Y;...\" or --seeds-file FILE\n"},
           {"regions --map /nonexistent.map --seeds 1,1", "waymark: /nonexistent.map: cannot open file\n"},
           {"regions --map " + map + " --seeds 49,42 --diagonal sometimes", "waymark: unknown diagonal rule 'sometimes'\n"},
           {"regions --map " + map + " --seeds 49,42 --corridor-margin 99",
            "waymark: --corridor-margin must be an integer from 0 to 16, got 99\n"},
       }) {
    const CliRun r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.out;
    EXPECT_EQ(r.out, c.expect) << c.args;
  }
}

}  // namespace

namespace {

TEST(Cli, JumpSearchesOnPathAndScen) {
  for (const char* a : {"jps", "jps-plus", "jps+"}) {
    const CliRun r = run("path --map " + data + "/maps/arena.map --from 19,26 --to 19,29 --json -a " + a);
    ASSERT_EQ(r.exit_code, 0) << a << ": " << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_DOUBLE_EQ(j["cost"].get<double>(), 3.0);
    EXPECT_EQ(j["path"].size(), 4u) << "jump paths come back cell by cell";
  }
  const CliRun scen = run("scen " + data + "/maps/arena.map.scen --json -a jps-plus");
  ASSERT_EQ(scen.exit_code, 0) << scen.out;
  const auto j = nlohmann::json::parse(scen.out);
  EXPECT_EQ(j["optimal"], 130);
  EXPECT_GT(j["preprocess_bytes_max"].get<long>(), 0);
  EXPECT_TRUE(j["preprocess_total_s"].is_number());
}

TEST(Cli, JpsTableSaveAndReuse) {
  const std::string table = ::testing::TempDir() + "/waymark_cli_arena.jps";
  const CliRun built = run("jps-table --map " + data + "/maps/arena.map --out " + table + " --json");
  ASSERT_EQ(built.exit_code, 0) << built.out;
  const auto j = nlohmann::json::parse(built.out);
  EXPECT_GT(j["memory_bytes"].get<long>(), 0);
  EXPECT_TRUE(j["build_ms"].is_number());
  const CliRun used = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 -a jps-plus --jump-table " + table);
  EXPECT_EQ(used.exit_code, 0) << used.out;
  const CliRun wrong_map =
      run("path --map " + data + "/maps/den520d.map --from 3,1 --to 35,7 -a jps-plus --jump-table " + table);
  EXPECT_EQ(wrong_map.exit_code, 2) << wrong_map.out;
}

TEST(Cli, JumpSearchRefusesWhatItCannotDo) {
  const std::string arena = data + "/maps/arena.map";
  const CliRun rule = run("path --map " + arena + " --from 3,1 --to 35,7 -a jps --diagonal always");
  EXPECT_EQ(rule.exit_code, 2);
  EXPECT_NE(rule.out.find("no-corner-cutting"), std::string::npos) << rule.out;
  const std::string swamp = temp_file("swamp.map", "type octile\nheight 1\nwidth 4\nmap\n.SS.\n");
  const CliRun terrain = run("path --map " + swamp + " --from 0,0 --to 3,0 -a jps-plus --terrain");
  EXPECT_EQ(terrain.exit_code, 2);
  EXPECT_NE(terrain.out.find("uniform"), std::string::npos) << terrain.out;
}

/// Parses output of one JSON object per line (`graph --queries`, `puzzle --json`).
std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.front() == '{') lines.push_back(nlohmann::json::parse(line));
  }
  return lines;
}

TEST(Cli, GraphQueriesEveryAlgorithmMatchesBoost) {
  // Rome99 is directed (one-way streets); Boost's Dijkstra on a plain reading of the file is
  // the reference.
  const std::string gr = data + "/roads/rome99.gr";
  const waymark::test::BoostReference boost_ref(waymark::test::read_dimacs_arcs_plainly(gr));
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> id(1, 3353);
  std::string queries = "# from to\n";
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < 40; ++i) {
    pairs.emplace_back(id(rng), id(rng));
    queries += std::to_string(pairs.back().first) + " " + std::to_string(pairs.back().second) + "\n";
  }
  const std::string file = temp_file("rome_queries.txt", queries);
  for (const char* a : {"dijkstra", "bidijkstra", "alt", "ch", "table"}) {
    const CliRun r = run("graph --gr " + gr + " --queries " + file + " -a " + a);
    ASSERT_EQ(r.exit_code, 0) << a << ": " << r.out;
    const std::vector<nlohmann::json> lines = json_lines(r.out);
    ASSERT_EQ(lines.size(), pairs.size()) << a;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const auto& j = lines[i];
      ASSERT_EQ(j["from"], pairs[i].first);
      ASSERT_EQ(j["to"], pairs[i].second);
      const double expected = boost_ref.distances(static_cast<std::uint32_t>(pairs[i].first - 1))
                                  [static_cast<std::size_t>(pairs[i].second - 1)];
      if (std::isinf(expected)) {
        EXPECT_TRUE(j["distance"].is_null()) << a << " " << j.dump();
        EXPECT_EQ(j["path_vertices"], 0) << a;
      } else {
        EXPECT_DOUBLE_EQ(j["distance"].get<double>(), expected) << a << " " << j.dump();
        EXPECT_GE(j["path_vertices"].get<int>(), 1) << a;
      }
    }
  }
}

TEST(Cli, GraphSingleQueryJsonTextAndAStarOnNodeLists) {
  const std::string nodes = data + "/roads/OL.cnode.txt", edges = data + "/roads/OL.cedge.txt";
  const CliRun j = run("graph --nodes " + nodes + " --edges " + edges + " --undirected --from 0 --to 6000 -a astar --json");
  ASSERT_EQ(j.exit_code, 0) << j.out;
  const auto out = nlohmann::json::parse(j.out);
  const waymark::test::BoostReference boost_ref(waymark::test::read_node_edge_lists_plainly(nodes, edges));
  EXPECT_NEAR(out["distance"].get<double>(), boost_ref.distances(0)[6000], 1e-9 * out["distance"].get<double>());
  EXPECT_EQ(out["path"].front(), 0);
  EXPECT_EQ(out["path"].back(), 6000);
  EXPECT_EQ(out["path_vertices"].get<std::size_t>(), out["path"].size());
  const CliRun text = run("graph --nodes " + nodes + " --edges " + edges + " --undirected --from 0 --to 6000");
  EXPECT_EQ(text.exit_code, 0) << text.out;
  EXPECT_NE(text.out.find("distance "), std::string::npos) << text.out;
  // Without --undirected the lists are one-way u -> v: some pair becomes unreachable (exit 1).
  const CliRun one_way = run("graph --nodes " + nodes + " --edges " + edges + " --from 6000 --to 0");
  EXPECT_EQ(one_way.exit_code, 1) << one_way.out;
  EXPECT_NE(one_way.out.find("no path"), std::string::npos) << one_way.out;
}

TEST(Cli, GraphPreprocessingSaveLoadAndRefusal) {
  const std::string gr = data + "/roads/rome99.gr";
  const std::string saved = ::testing::TempDir() + "/waymark_cli_rome.ch";
  const CliRun save = run("graph --gr " + gr + " --from 1 --to 3000 -a ch --save " + saved + " --json");
  ASSERT_EQ(save.exit_code, 0) << save.out;
  const CliRun load = run("graph --gr " + gr + " --from 1 --to 3000 -a ch --load " + saved + " --json");
  ASSERT_EQ(load.exit_code, 0) << load.out;
  EXPECT_EQ(nlohmann::json::parse(save.out)["distance"], nlohmann::json::parse(load.out)["distance"]);
  // The same file offered for another graph, or as landmarks, is refused.
  const CliRun other = run("graph --nodes " + data + "/roads/OL.cnode.txt --edges " + data +
                           "/roads/OL.cedge.txt --from 0 --to 1 -a ch --load " + saved);
  EXPECT_EQ(other.exit_code, 2) << other.out;
  EXPECT_NE(other.out.find(saved), std::string::npos) << other.out;
  const CliRun as_alt = run("graph --gr " + gr + " --from 1 --to 2 -a alt --load " + saved);
  EXPECT_EQ(as_alt.exit_code, 2) << as_alt.out;
}

TEST(Cli, GraphBadInputExitsTwoWithAReason) {
  const std::string gr = data + "/roads/rome99.gr";
  const struct {
    std::string args;
    std::string reason;
  } cases[] = {
      {"graph --gr " + gr + " --from 0 --to 5", "--from 0: no such vertex (ids 1..3353)"},
      {"graph --gr " + gr + " --from 1 --to 5 -a astar", "astar needs vertex coordinates"},
      {"graph --gr " + gr + " --from 1 --to 5 -a nope", "unknown algorithm 'nope'"},
      {"graph --gr " + gr + " --from 1", "--from and --to go together"},
      {"graph --gr " + gr, "give either --from U --to V or --queries FILE"},
      {"graph --from 1 --to 2", "give either --gr FILE"},
      {"graph --gr " + gr + " --queries " + temp_file("bad_q.txt", "1 2\n3\n"), "bad_q.txt:2: expected 'U V'"},
      {"graph --gr " + temp_file("bad.gr", "p sp 2 1\na 1 2 -4\n") + " --from 1 --to 2", "bad.gr:2:"},
      {"graph --gr " + gr + " --from 1 --to 2 --save x.bin", "--load/--save apply to alt, ch and table"},
  };
  for (const auto& c : cases) {
    const CliRun r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.reason), std::string::npos) << c.args << "\n" << r.out;
  }
}

// ---- waymark puzzle ----------------------------------------------------------------------

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

namespace waymark::apps_cli_test {
namespace {

TEST(Cli, NavmeshQueriesJsonHasTheDocumentedShape) {
  const CliRun r = run("navmesh --obj " + data + "/meshes/nav_test.obj --queries " + data + "/meshes/nav_mesh_test.txt --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 22u);  // 21 queries, then the summary
  for (std::size_t i = 0; i < 21; ++i) {
    EXPECT_EQ(lines[i]["status"], "success");
    EXPECT_GT(lines[i]["length"].get<double>(), 0);
    EXPECT_GE(lines[i]["corners"].get<int>(), 2);
    EXPECT_GE(lines[i]["polys"].get<int>(), 1);
  }
  EXPECT_EQ(lines[21]["queries"], 21);
  EXPECT_GT(lines[21]["mean_us"].get<double>(), 0);
  EXPECT_GT(lines[21]["build_ms"].get<double>(), 0);
}

TEST(Cli, NavmeshSingleQueryAndBadInput) {
  const std::string obj = data + "/meshes/nav_test.obj";
  CliRun r = run("navmesh --obj " + obj + " --from 18.13855,-2.37,-21.319118 --to -19.206181,-2.369133,24.802742");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("success: length 60.32"), std::string::npos) << r.out;  // as Detour's straight path
  r = run("navmesh --obj " + obj + " --build triangles --from 100,0,100 --to 0,0,0");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("not within 2,4,2 of a polygon"), std::string::npos) << r.out;
  const std::string bad = temp_file("bad.obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\n");
  r = run("navmesh --obj " + bad + " --from 0,0,0 --to 1,0,0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: " + bad + ":3: face corner '3' names vertex 3, but 2 vertices are defined before this line\n");
  const std::string wall = temp_file("wall.obj", "v 0 0 0\nv 0 5 0\nv 5 0 5\nf 1 2 3\n");
  r = run("navmesh --obj " + wall + " --from 0,0,0 --to 1,0,0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: " + wall + ": no walkable area: Recast made no polygons\n");
  r = run("navmesh --obj " + obj + " --from 0,0,nan --to 1,0,0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: --from must be 3 finite numbers x,y,z, got '0,0,nan'\n");
  r = run("navmesh --obj " + obj + " --from 0,0,0 --to 1,0,0 --cell-size -1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: " + obj + ": Recast parameter cell_size must be finite and > 0\n");
}

TEST(Cli, NavmeshPngIsWritten) {
  const std::string png = ::testing::TempDir() + "/waymark_cli_navmesh.png";
  std::filesystem::remove(png);
  const std::string query = "navmesh --obj " + data + "/meshes/nav_test.obj --from -1.564062,-2.369926,-20.452827 --to 19.181122,-2.368134,3.011776 --png ";
  CliRun r = run(query + png);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  expect_png(png);
  r = run(query + ::testing::TempDir() + "/no/such/dir/x.png");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("cannot write picture to"), std::string::npos) << r.out;
}

TEST(Cli, NavmeshModesOrderTheirLengths) {
  const std::string query = "navmesh --obj " + data + "/meshes/nav_test.obj --from 18.13855,-2.37,-21.319118 --to -19.206181,-2.369133,24.802742 --json --mode ";
  double length[3];
  int i = 0;
  for (const char* mode : {"shortest", "funnel", "centroids"}) {
    const CliRun r = run(query + mode);
    ASSERT_EQ(r.exit_code, 0) << mode << r.out;
    const auto lines = json_lines(r.out);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0]["status"], "success");
    length[i++] = lines[0]["length"].get<double>();
  }
  EXPECT_LE(length[0], length[1] + 1e-9);  // shortest ≤ funnel
  EXPECT_GT(length[2], length[1]);         // the centroid chain is the longest
  const CliRun r = run(query + "middle");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: --mode must be shortest, funnel or centroids, got 'middle'\n");
}

}  // namespace
}  // namespace waymark::apps_cli_test

// `waymark visibility`: paths among polygon obstacles.
namespace waymark::apps_cli_test {
namespace {

TEST(Cli, VisibilityJsonHasTheDocumentedShape) {
  const std::string rooms = data + "/polygons/rooms.json";
  const CliRun r = run("visibility --polygons " + rooms + " --from 2,2 --to 38,28 --radius 0.5 --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "success");
  const auto& path = j["path"];
  ASSERT_GE(path.size(), 3u);  // the wall's door lies off the straight line
  EXPECT_EQ(path.front(), nlohmann::json::array({2.0, 2.0}));
  EXPECT_EQ(path.back(), nlohmann::json::array({38.0, 28.0}));
  double length = 0;
  for (std::size_t i = 1; i < path.size(); ++i) {
    length += std::hypot(path[i][0].get<double>() - path[i - 1][0].get<double>(),
                         path[i][1].get<double>() - path[i - 1][1].get<double>());
  }
  EXPECT_NEAR(j["length"].get<double>(), length, 1e-9);
  EXPECT_GT(length, 45.1706);  // longer than with radius 0 (below)
  EXPECT_GT(j["points"].get<int>(), 30);
  EXPECT_GT(j["edges"].get<int>(), 0);
  EXPECT_GT(j["overlay_arcs"].get<int>(), 0);
  EXPECT_GT(j["expanded"].get<int>(), 0);
  EXPECT_TRUE(j["time_us"].is_number());
  EXPECT_TRUE(j["build_ms"].is_number());
}

TEST(Cli, VisibilityTextAndNoPath) {
  const std::string rooms = data + "/polygons/rooms.json";
  CliRun r = run("visibility --polygons " + rooms + " --from 2,2 --to 38,28");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  // Round the pillar's top, through the door at the wall's end, round the L: 6√2 + 10 + 2√85 + 2√17.
  EXPECT_NE(r.out.find("success: length 45.1706, 5 points\npath: 2,2 8,8 16,14 30,26 38,28\n"), std::string::npos) << r.out;
  // The door is 4 wide: an agent of radius 2.5 cannot pass.
  r = run("visibility --polygons " + rooms + " --from 3,11 --to 37,27 --radius 2.5");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(r.out.substr(0, 17), "failure: no path\n");
  r = run("visibility --polygons " + rooms + " --from 3,11 --to 37,27 --radius 2.5 --json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "failure");
  EXPECT_TRUE(j["length"].is_null());
  EXPECT_TRUE(j["path"].empty());
}

TEST(Cli, VisibilityBadInputExitsTwoWithAReason) {
  const std::string rooms = data + "/polygons/rooms.json";
  const auto expect_bad = [](const std::string& args, const std::string& message) {
    const CliRun r = run("visibility " + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.out, "waymark: " + message + "\n") << args;
  };
  // A start or goal the agent cannot stand on is bad input, with the obstacle's line.
  expect_bad("--polygons " + rooms + " --from 8,5 --to 38,28 --radius 0.5",
             "--from 8,5 lies inside obstacle 3 (" + rooms + ":7) inflated by radius 0.5");
  expect_bad("--polygons " + rooms + " --from 2,2 --to 15.8,14.5",
             "--to 15.8,14.5 lies inside obstacle 0 (" + rooms + ":4) inflated by radius 0");
  expect_bad("--polygons " + rooms + " --from 1,1 --to 38,28 --radius 2",
             "--from 1,1 lies outside the bounds (" + rooms + ":2) shrunk by radius 2");
  expect_bad("--polygons " + rooms + " --from 3,11 --to 37,27 --radius 3",
             rooms + ":12: point 0 (18, 12) lies inside obstacle 0 inflated by radius 3");
  expect_bad("--polygons " + rooms + " --from 3,nan --to 1,1", "--from must be 2 finite numbers x,y, got '3,nan'");
  expect_bad("--polygons " + rooms + " --from 3,1,2 --to 1,1", "--from must be 2 finite numbers x,y, got '3,1,2'");
  expect_bad("--polygons " + rooms + " --from 3,1 --to 1,1 --radius -1", "--radius must be a finite number from 0 to 1e6, got -1");
  expect_bad("--polygons " + rooms + " --from 3,1 --to 1,1 --arc-step 120", "--arc-step must be from 1 to 90 degrees, got 120");
  const std::string bow = temp_file("bow.json", "{\"polygons\": [\n  [[0,0],[2,2],\n   [2,0],[0,2]]\n]}\n");
  expect_bad("--polygons " + bow + " --from 5,5 --to 6,6", bow + ":3: polygons[0]: edges 0-1 and 2-3 cross or touch (not a simple polygon)");
  const std::string nan = temp_file("nan.json", "{\"polygons\": [[[0,0],[1,0],[0,NaN]]]}");
  expect_bad("--polygons " + nan + " --from 5,5 --to 6,6", nan + ":1: invalid JSON: NaN is not a JSON number (JSON numbers are finite)");
  const std::string missing = temp_file("missing.json", "{\"points\": []}\n");
  expect_bad("--polygons " + missing + " --from 5,5 --to 6,6", missing + ": missing key \"polygons\"");
  expect_bad("--polygons " + data + "/nope.json --from 5,5 --to 6,6", data + "/nope.json: cannot open file");
}

TEST(Cli, PathSmoothPrintsWaypointsTheirCostAndTheRawCost) {
  std::string rows;
  for (int y = 0; y < 5; ++y) rows += "..........\n";
  const std::string open = temp_file("open10x5.map", "type octile\nheight 5\nwidth 10\nmap\n" + rows);
  CliRun r = run("path --map " + open + " --from 0,0 --to 9,4 --json --smooth");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["smoothed"]["path"], nlohmann::json::parse("[[0,0],[9,4]]"));  // in sight: one segment
  EXPECT_NEAR(j["smoothed"]["cost"].get<double>(), std::sqrt(97.0), 1e-12);
  EXPECT_NEAR(j["smoothed"]["length"].get<double>(), std::sqrt(97.0), 1e-12);
  EXPECT_NEAR(j["cost"].get<double>(), 5 + 4 * std::sqrt(2.0), 1e-12);  // the search's
  // Theta* finds the straight line itself; smoothing keeps it.
  r = run("path --map " + open + " --from 0,0 --to 9,4 --json -a theta --smooth");
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["smoothed"]["path"].size(), 2u);
  EXPECT_EQ(j["path"].size(), 2u);
  EXPECT_NEAR(j["cost"].get<double>(), std::sqrt(97.0), 1e-12);
  // Around obstacles: the waypoints keep the ends and the cost never exceeds the raw one.
  r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --json --smooth --diagonal never");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["smoothed"]["path"].front(), nlohmann::json::array({3, 1}));
  EXPECT_EQ(j["smoothed"]["path"].back(), nlohmann::json::array({35, 7}));
  EXPECT_LT(j["smoothed"]["cost"].get<double>(), j["cost"].get<double>());
  r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --smooth");
  EXPECT_NE(r.out.find("raw cost: "), std::string::npos) << r.out;
  EXPECT_EQ(run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 -a theta").exit_code, 0);
  // The picture shows the smoothed waypoints.
  const std::string png = ::testing::TempDir() + "/waymark_cli_smooth.png";
  std::filesystem::remove(png);
  r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --smooth --png " + png);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  expect_png(png);
}

TEST(Cli, ThetaRefusesAHeuristicAndAWeightItWouldIgnore) {
  const std::string theta = "path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 -a theta";
  CliRun r = run(theta + " --heuristic octile");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("theta always uses the euclidean heuristic"), std::string::npos) << r.out;
  r = run(theta + " --weight 2");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("theta takes no weight (it is for wastar)"), std::string::npos) << r.out;
  r = run(theta + " --weight 1.5");  // the default given is still a weight theta would ignore
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(run(theta + " --heuristic euclidean").exit_code, 0);
}


TEST(Cli, ProgressBarEstimatesTheTimeLeftFromThePaceSoFar) {
  using waymark::cli::ProgressBar;
  EXPECT_EQ(ProgressBar::line("scen", 0.25, "1/4 files", 3.0),
            "scen [#######.......................]  25% 1/4 files, 9 s left");
  EXPECT_EQ(ProgressBar::line("scen", 0.5, "x", 65.0), "scen [###############...............]  50% x, 1 min 05 s left");
  EXPECT_EQ(ProgressBar::line("scen", 0.5, "x", 0.5), "scen [###############...............]  50% x")
      << "no estimate from the first second";
  EXPECT_EQ(ProgressBar::line("scen", 0.0, "x", 10.0), "scen [..............................]   0% x");
  EXPECT_EQ(ProgressBar::line("scen", 1.0, "x", 10.0), "scen [##############################] 100% x");
  EXPECT_EQ(ProgressBar::duration_text(0.2), "1 s");
  EXPECT_EQ(ProgressBar::duration_text(3600 * 2 + 600), "2 h 10 min");
}

TEST(Cli, ScenShowsProgressOnATerminalOnly) {
  const std::string args = "scen " + data + "/maps/arena.map.scen " + data + "/maps/den520d.map.scen";
  const TerminalRun t = run_on_terminal(args);
  ASSERT_EQ(t.exit_code, 0) << t.out << t.terminal;
  EXPECT_NE(t.out.find("total: 1000 queries, all optimal: yes"), std::string::npos) << t.out;
  // The first report comes before any search: every file read, the totals known.
  EXPECT_NE(t.terminal.find("scen [..............................]   0% 0/2 files, 0/1000 queries"), std::string::npos)
      << t.terminal;
  ASSERT_GE(t.terminal.size(), 4u);
  EXPECT_EQ(t.terminal.substr(t.terminal.size() - 4), "\r\033[K") << "the bar is erased at the end";
  EXPECT_EQ(t.out.find("\r"), std::string::npos) << "nothing of the bar on stdout";
  // Piped, stderr stays quiet: stdout and stderr together are the report's lines alone.
  const CliRun piped = run(args);
  EXPECT_EQ(piped.exit_code, 0);
  EXPECT_EQ(piped.out.find("scen ["), std::string::npos) << piped.out;
  EXPECT_EQ(piped.out.find('\r'), std::string::npos) << piped.out;
  EXPECT_EQ(std::count(piped.out.begin(), piped.out.end(), '\n'), std::count(t.out.begin(), t.out.end(), '\n'));
}

/// The lines of `text`, each parsed as JSON.
std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

/// The keys of a JSON object, sorted.
std::vector<std::string> keys_of(const nlohmann::json& j) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  return keys;
}

TEST(Cli, BatchJsonLinesInInputOrderThenASummary) {
  const std::string scen_path = data + "/maps/arena.map.scen";
  const io::Scenario scen = io::load_movingai_scenario(scen_path);
  const CliRun r = run("batch --map " + data + "/maps/arena.map --queries " + scen_path + " --threads 2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.substr(0, 9), "{\"from\":[");  // the documented key order
  // stderr is in r.out too: every line is JSON, so no progress bar was drawn off a terminal.
  const std::vector<nlohmann::json> lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), scen.queries.size() + 1);
  for (std::size_t i = 0; i < scen.queries.size(); ++i) {
    const io::ScenarioQuery& q = scen.queries[i];
    const nlohmann::json& j = lines[i];
    SCOPED_TRACE("line " + std::to_string(q.line));
    EXPECT_EQ(keys_of(j), (std::vector<std::string>{"cost", "from", "status", "to"}));
    EXPECT_EQ(j["from"], nlohmann::json::array({q.start.x, q.start.y}));
    EXPECT_EQ(j["to"], nlohmann::json::array({q.goal.x, q.goal.y}));
    EXPECT_EQ(j["status"], "success");
    EXPECT_TRUE(q.matches_optimal(j["cost"].get<double>())) << j["cost"] << " vs " << q.optimal;
  }
  const nlohmann::json& summary = lines.back();
  EXPECT_EQ(keys_of(summary), (std::vector<std::string>{"queries", "threads", "time_s"}));
  EXPECT_EQ(summary["queries"], scen.queries.size());
  EXPECT_EQ(summary["threads"], 2);
  EXPECT_GE(summary["time_s"].get<double>(), 0.0);
}

TEST(Cli, BatchPlainQueriesThatFailAndTheTextForm) {
  const std::string map = temp_file("batch_wall.map", "type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n");
  const std::string queries = temp_file("batch_wall.txt", "# start goal\n0 0 1 2\n\n0 0 4 0\r\n2 1 0 0\n");
  CliRun r = run("batch --map " + map + " --queries " + queries + " --threads 4 --json");
  EXPECT_EQ(r.exit_code, 1) << r.out;  // some query found no path
  const std::vector<nlohmann::json> lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0]["status"], "success");
  EXPECT_NEAR(lines[0]["cost"].get<double>(), 1 + std::sqrt(2.0), 1e-12);
  EXPECT_EQ(lines[1]["from"], nlohmann::json::array({0, 0}));
  EXPECT_EQ(lines[1]["to"], nlohmann::json::array({4, 0}));
  EXPECT_EQ(lines[1]["status"], "failure");
  EXPECT_EQ(lines[1]["reason"], "unreachable");
  EXPECT_TRUE(lines[1]["cost"].is_null());
  EXPECT_EQ(lines[2]["reason"], "start-blocked");
  EXPECT_TRUE(lines[2]["cost"].is_null());
  EXPECT_EQ(lines[3]["queries"], 3);
  EXPECT_EQ(lines[3]["threads"], 1);  // three queries are one chunk: one thread
  r = run("batch --map " + map + " --queries " + queries + " --threads 1");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const std::string expected =
      "(0,0) -> (1,2): cost 2.41421\n(0,0) -> (4,0): no path: unreachable\n(2,1) -> (0,0): no path: start-blocked\n"
      "3 queries, 1 solved, on 1 thread in ";
  EXPECT_EQ(r.out.substr(0, expected.size()), expected);
}

TEST(Cli, BatchOnTwoThreadsPrintsWhatOneThreadPrints) {
  const std::string args =
      "batch --map " + data + "/maps/den520d.map --queries " + data + "/maps/den520d.map.scen -a jps --json --threads ";
  const CliRun one = run(args + "1");
  const CliRun two = run(args + "2");
  ASSERT_EQ(one.exit_code, 0) << one.out;
  ASSERT_EQ(two.exit_code, 0) << two.out;
  // Everything but the summary (its time and thread count) is the same, byte for byte.
  const std::size_t cut_one = one.out.rfind("{\"queries\""), cut_two = two.out.rfind("{\"queries\"");
  ASSERT_NE(cut_one, std::string::npos);
  EXPECT_EQ(one.out.substr(0, cut_one), two.out.substr(0, cut_two));
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 871);  // 870 queries and the summary
}

TEST(Cli, BatchBadFilesAndOptionsExitTwoWithFileLineAndReason) {
  const std::string arena = data + "/maps/arena.map";
  const auto expect_bad = [](const std::string& args, const std::string& message) {
    const CliRun r = run("batch " + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.out, "waymark: " + message + "\n") << args;
  };
  const std::string outside = temp_file("batch_outside.txt", "19 26 19 29\n1 1 49 0\n");
  expect_bad("--map " + arena + " --queries " + outside, outside + ":2: goal (49,0) is outside the 49x49 map");
  const std::string fields = temp_file("batch_fields.txt", "# c\n1 2 3 x\n");
  expect_bad("--map " + arena + " --queries " + fields, fields + ":2: expected an integer in column 4, got 'x'");
  const std::string three = temp_file("batch_three.txt", "1 2 3\n");
  expect_bad("--map " + arena + " --queries " + three, three + ":1: expected 4 integers 'sx sy gx gy', got 3 fields");
  const std::string empty = temp_file("batch_empty.txt", "# nothing\n");
  expect_bad("--map " + arena + " --queries " + empty, empty + ": no queries in the file (expected lines 'sx sy gx gy')");
  const std::string scen = temp_file("batch_other.scen", "version 1\n0\tden.map\t256\t257\t1\t1\t2\t2\t1.4\n");
  expect_bad("--map " + arena + " --queries " + scen, scen + ":2: the scenario says its map is 256x257, the map given is 49x49");
  expect_bad("--map " + arena + " --queries /nonexistent/q.txt", "/nonexistent/q.txt: cannot open file");
  const std::string two = temp_file("batch_two.txt", "19 26 19 29\n\n19 29 19 26\n");
  expect_bad("--map " + arena + " --queries " + two + " --max-queries 1",
             two + ":3: more than 1 queries (BatchQueryOptions::max_queries)");
  expect_bad("--map " + arena + " --queries " + outside + " --threads 0", "--threads must be an integer from 1 to 64, got 0");
  expect_bad("--map " + arena + " --queries " + outside + " --threads 65", "--threads must be an integer from 1 to 64, got 65");
  const CliRun unknown = run("batch --map " + arena + " --queries " + two + " -a nosuch");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.out.substr(0, 49), "waymark: unknown algorithm 'nosuch' (astar|wastar");
  EXPECT_EQ(run("batch --map " + arena + " --queries " + outside + " -a jps --diagonal always").exit_code, 2);
}

}  // namespace
}  // namespace waymark::apps_cli_test

// Pictures (issue 15): PNG and SVG from every command that draws, read back without golden
// images: pixel colours at known cells, SVG elements.
namespace waymark::apps_cli_test {
namespace {

using render::palette::goal;
using render::palette::passable;
using render::palette::start;
using render::palette::wall;
using test::PngPixels;
using test::pixel_is;

std::string picture_file(const std::string& name) {
  const std::string file = ::testing::TempDir() + "/waymark_cli_picture_" + name;
  std::filesystem::remove(file);
  return file;
}

/// Pixels per cell of a grid picture of `map` (the default style: the longer side near 1024).
int grid_cell_px(const grid::GridMap& map) { return std::max(1, 1024 / std::max(map.width(), map.height())); }

/// The centre pixel of cell (x, y).
int centre(int c, int px) { return c * px + px / 2; }

/// Whether some pixel of the picture is `color` (within 2/255).
bool has_color(const PngPixels& png, render::Rgb color) {
  for (int y = 0; y < png.height(); ++y)
    for (int x = 0; x < png.width(); ++x)
      if (test::near_color(png.at(x, y), test::rgb_of(color))) return true;
  return false;
}

TEST(CliPictures, RenderMapDrawsEveryCellAsWallOrFreeWithALegendBelow) {
  const std::string arena = data + "/maps/arena.map";
  const std::string png = picture_file("render_map.png"), svg = picture_file("render_map.svg");
  const CliRun r = run("render --map " + arena + " --png " + png + " --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const grid::GridMap map = io::load_movingai_map(arena);
  const int px = grid_cell_px(map);
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_EQ(pixels.width(), map.width() * px);
  EXPECT_GT(pixels.height(), map.height() * px);  // the legend strip
  int walls = 0;
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      const bool open = map.passable(x, y);
      walls += open ? 0 : 1;
      ASSERT_TRUE(pixel_is(pixels, centre(x, px), centre(y, px), open ? passable : wall)) << x << "," << y;
    }
  }
  EXPECT_GT(walls, 0);
  EXPECT_TRUE(pixel_is(pixels, 2, map.height() * px + 2, render::palette::legend_background));
  EXPECT_TRUE(test::is_svg_with_shapes(svg));
}

TEST(CliPictures, RenderMapWithTerrainShadesSwampAndWater) {
  const std::string map_file = temp_file("terrain.map", "type octile\nheight 2\nwidth 4\nmap\n.SW@\n....\n");
  const std::string png = picture_file("terrain.png");
  const CliRun r = run("render --map " + map_file + " --terrain --png " + png);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  const int px = 1024 / 4;
  EXPECT_TRUE(pixel_is(pixels, centre(0, px), centre(0, px), passable));
  EXPECT_TRUE(pixel_is(pixels, centre(3, px), centre(0, px), wall));
  const auto blue = [&](int x) { return static_cast<int>(pixels.at(centre(x, px), centre(0, px)) & 0xffu); };
  EXPECT_GT(blue(0), blue(1));  // swamp (cost 3) darker than free ground
  EXPECT_GT(blue(1), blue(2));  // water (cost 5) darker still
}

TEST(CliPictures, PathPngShowsStartGoalWallsAndExpandedCells) {
  const std::string arena = data + "/maps/arena.map";
  const std::string png = picture_file("path.png"), svg = picture_file("path.svg");
  const CliRun r = run("path --map " + arena + " --from 3,1 --to 35,7 --json --png " + png + " --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  const grid::GridMap map = io::load_movingai_map(arena);
  const int px = grid_cell_px(map);
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_TRUE(pixel_is(pixels, centre(3, px), centre(1, px), start));
  EXPECT_TRUE(pixel_is(pixels, centre(35, px), centre(7, px), goal));
  // Walls three cells or more from every path cell keep the wall colour.
  int checked = 0;
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      if (map.passable(x, y)) continue;
      const bool near = std::any_of(j["path"].begin(), j["path"].end(), [&](const nlohmann::json& c) {
        return std::abs(c[0].get<int>() - x) < 3 && std::abs(c[1].get<int>() - y) < 3;
      });
      if (near) continue;
      ++checked;
      ASSERT_TRUE(pixel_is(pixels, centre(x, px), centre(y, px), wall)) << x << "," << y;
    }
  }
  EXPECT_GT(checked, 100);
  EXPECT_TRUE(has_color(pixels, render::palette::expanded_early));
  EXPECT_TRUE(has_color(pixels, render::palette::expanded_late));
  EXPECT_TRUE(has_color(pixels, render::palette::path));
  EXPECT_TRUE(test::is_svg_with_shapes(svg));
}

TEST(CliPictures, PathSmoothDrawsTheRawPathGreyAndTheSmoothedOneOrange) {
  const std::string png = picture_file("smooth.png");
  const CliRun r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --smooth --png " + png);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_TRUE(has_color(pixels, render::palette::raw_path));
  EXPECT_TRUE(has_color(pixels, render::palette::path));
}

TEST(CliPictures, ScenSvgDrawsTheLongestQuery) {
  const std::string svg = picture_file("scen.svg");
  const CliRun r = run("scen " + data + "/maps/arena.map.scen --sample-every 10 --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("picture of the longest query"), std::string::npos) << r.out;
  EXPECT_TRUE(test::is_svg_with_shapes(svg));
}

TEST(CliPictures, RegionsAndNavmeshWriteSvg) {
  const std::string regions = picture_file("regions.svg");
  CliRun r = run("regions --map " + data + "/maps/arena.map --seeds '8,8;40,40' --svg " + regions);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(test::is_svg_with_shapes(regions));
  const std::string nav = picture_file("navmesh.svg");
  r = run("navmesh --obj " + data + "/meshes/nav_test.obj --from -1.564062,-2.369926,-20.452827 --to "
          "19.181122,-2.368134,3.011776 --svg " + nav);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(test::is_svg_with_shapes(nav));
}

TEST(CliPictures, RenderObjAndPolygons) {
  const std::string nav_png = picture_file("render_obj.png"), nav_svg = picture_file("render_obj.svg");
  CliRun r = run("render --obj " + data + "/meshes/nav_test.obj --png " + nav_png + " --svg " + nav_svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(PngPixels(nav_png).ok());
  EXPECT_TRUE(test::is_svg_with_shapes(nav_svg));
  r = run("render --obj " + data + "/meshes/nav_test.obj --build triangles --svg " + nav_svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(test::is_svg_with_shapes(nav_svg));
  const std::string poly_png = picture_file("render_polygons.png");
  r = run("render --polygons " + data + "/polygons/rooms.json --radius 0.5 --png " + poly_png);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const PngPixels pixels(poly_png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_TRUE(has_color(pixels, wall));  // the obstacles
}

TEST(CliPictures, VisibilityDrawsObstaclesEdgesAndThePath) {
  const std::string png = picture_file("visibility.png"), svg = picture_file("visibility.svg");
  const std::string rooms = data + "/polygons/rooms.json";
  CliRun r = run("visibility --polygons " + rooms + " --from 2,2 --to 38,28 --radius 0.5 --png " + png + " --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_TRUE(has_color(pixels, wall));
  EXPECT_TRUE(has_color(pixels, start));
  EXPECT_TRUE(has_color(pixels, goal));
  EXPECT_TRUE(has_color(pixels, render::palette::path));
  EXPECT_TRUE(test::is_svg_with_shapes(svg));
  r = run("visibility --polygons " + rooms + " --from 2,2 --to 38,28 --png " + ::testing::TempDir() + "/no/dir/x.png");
  EXPECT_EQ(r.exit_code, 2) << r.out;
}

TEST(CliPictures, SimulateDrawsEveryAgentsTrailToWhereItEnded) {
  const std::string scenes = data + "/../scenes";
  const std::string png = picture_file("simulate.png"), svg = picture_file("simulate.svg");
  const std::string trace = picture_file("simulate.jsonl");
  const CliRun r = run("simulate --scene " + scenes + "/circle_swap.json --trace " + trace + " --png " + png +
                       " --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::vector<nlohmann::json> lines = read_trace(trace);
  ASSERT_GE(lines.size(), 2u);
  const grid::GridMap map = io::load_movingai_map(lines.front()["map"].get<std::string>());  // beside the scene
  const int px = grid_cell_px(map);
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  for (const auto& p : lines.back()["p"]) {  // each agent's last position: covered by its dot
    const int x = static_cast<int>(p[0].get<double>() * px), y = static_cast<int>(p[1].get<double>() * px);
    const std::uint32_t c = pixels.at(x, y);
    EXPECT_FALSE(test::near_color(c, test::rgb_of(passable))) << p;
    EXPECT_FALSE(test::near_color(c, test::rgb_of(wall))) << p;
  }
  EXPECT_TRUE(test::is_svg_with_shapes(svg));
}

TEST(CliPictures, RenderBadInputExitsTwoWithOneLine) {
  const std::string arena = data + "/maps/arena.map";
  const std::string png = picture_file("bad.png");
  const std::pair<std::string, std::string> cases[] = {
      {"render --png " + png, "give one of --map FILE, --obj FILE or --polygons FILE"},
      {"render --map " + arena + " --obj x.obj --png " + png, "give one of --map FILE, --obj FILE or --polygons FILE"},
      {"render --map " + arena, "give --png FILE and/or --svg FILE"},
      {"render --map /no/such.map --png " + png, "/no/such.map"},
      {"render --map " + arena + " --max-cells 10 --png " + png, "10"},
      {"render --obj " + data + "/meshes/nav_test.obj --terrain --png " + png, "--terrain goes with --map"},
      {"render --obj " + data + "/meshes/nav_test.obj --build voxels --png " + png, "--build must be recast or triangles"},
      {"render --polygons " + data + "/polygons/rooms.json --radius -1 --png " + png, "--radius"},
      {"render --map " + arena + " --png " + ::testing::TempDir() + "/no/such/dir/x.png", "cannot write picture to"},
      {"render --map " + arena + " --svg " + ::testing::TempDir() + "/no/such/dir/x.svg", "cannot write picture to"},
  };
  for (const auto& [args, reason] : cases) {
    const CliRun r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << "\n" << r.out;
    EXPECT_EQ(r.out.rfind("waymark: ", 0), 0u) << r.out;
    EXPECT_NE(r.out.find(reason), std::string::npos) << args << "\n" << r.out;
  }
  // A path's picture that cannot be written is bad input too, after the answer.
  const CliRun r = run("path --map " + arena + " --from 3,1 --to 35,7 --svg " + ::testing::TempDir() + "/no/dir/x.svg");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("cannot write picture to"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace waymark::apps_cli_test
