// What every `waymark` command shares: usage errors and hostile options (one line, exit 2),
// --help, node and time limits on every search, and the progress bar on a terminal.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <initializer_list>
#include <string>

#include "apps/cli_support.hpp"
#include "progress.hpp"  // apps/waymark

namespace waymark::apps_cli_usage_test {
namespace {

using test::CliRun;
using test::cli_program;
using test::data;
using test::run;
using test::sealed_map;
using test::temp_file;

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
  const std::string cmd = cli_program + " " + args;
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

TEST(Cli, HostileOptionsAndFilesGetOneLineAndExitTwo) {
  const std::string arena = data + "/maps/arena.map";
  const std::string scen = data + "/maps/arena.map.scen";
  const std::string rome = data + "/roads/rome99.gr";
  const std::string path = "path --map " + arena + " --from 19,26 --to 19,29 ";
  struct Case {
    std::string args, expect;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"nosuch", "waymark: unknown command 'nosuch' (expected path, batch, scen, jps-table, graph, puzzle, navmesh, bake, regions, visibility, simulate, render or serve)"},
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
           // Whole numbers past 64 bits: what was typed, never the nearest 64-bit number.
           {"batch --map " + arena + " --queries /dev/null --threads 99999999999999999999",
            "waymark: --threads must be a whole number within 64 bits, got '99999999999999999999'"},
           {"batch --map " + arena + " --queries /dev/null --threads -9223372036854775809",
            "waymark: --threads must be a whole number within 64 bits, got '-9223372036854775809'"},
           {"batch --map " + arena + " --queries /dev/null --threads 9223372036854775807",
            "waymark: --threads must be an integer from 1 to 64, got 9223372036854775807"},
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
  for (const char* sub : {"", "path ", "scen ", "jps-table ", "graph ", "puzzle ", "navmesh ", "bake ", "render "}) {
    const CliRun r = run(std::string(sub) + "--help");
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_NE(r.out.find("--"), std::string::npos);
  }
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

}  // namespace
}  // namespace waymark::apps_cli_usage_test
