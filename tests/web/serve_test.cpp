// `waymark serve` over real sockets: what the HTTP layer adds to the API (body limit, static
// files that cannot escape web/, JSON errors, one log line per request, Ctrl-C).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

using nlohmann::json;

const std::string cli = WAYMARK_CLI;
const std::string data = WAYMARK_DATA_DIR;

/// `waymark serve --port 0 ARGS` as a child process: its port, its stderr (the log) in a file.
class Server {
 public:
  explicit Server(std::vector<std::string> extra = {}) {
    log_ = std::filesystem::temp_directory_path() / ("waymark_serve_test_" + std::to_string(getpid()) + "_" +
                                                     std::to_string(counter_++) + ".log");
    int out[2];
    if (pipe(out) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> args = {cli, "serve", "--port", "0"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, cli.c_str(), &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    out_ = fdopen(out[0], "r");
    char line[512];
    if (pid_ > 0 && out_ && std::fgets(line, sizeof line, out_)) {
      banner_ = line;
      std::smatch m;
      if (std::regex_search(banner_, m, std::regex(R"(http://([0-9.]+):([0-9]+)/)"))) {
        host_ = m[1];
        port_ = std::stoi(m[2]);
      }
    }
  }
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;
  ~Server() {
    if (pid_ > 0 && !stopped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (out_) std::fclose(out_);
    std::filesystem::remove(log_);
  }

  /// Sends SIGINT and returns the exit code (-1 unless it exited normally).
  int interrupt() {
    kill(pid_, SIGINT);
    int status = 0;
    waitpid(pid_, &status, 0);
    stopped_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] const std::string& host() const { return host_; }
  [[nodiscard]] const std::string& banner() const { return banner_; }
  [[nodiscard]] std::string rest_of_stdout() const {
    std::string s;
    char line[512];
    while (out_ && std::fgets(line, sizeof line, out_)) s += line;
    return s;
  }
  [[nodiscard]] std::string log() const {
    std::ifstream in(log_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  static inline int counter_ = 0;
  pid_t pid_ = -1;
  FILE* out_ = nullptr;
  std::filesystem::path log_;
  std::string banner_;
  std::string host_;
  int port_ = 0;
  bool stopped_ = false;
};

struct HttpReply {
  int status = 0;
  std::string body;
};

/// Sends `raw` (a whole HTTP request, as written) to 127.0.0.1:port and reads the reply until
/// the server closes the connection.
HttpReply send_raw(int port, const std::string& raw) {
  HttpReply reply;
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return reply;
  }
  for (std::size_t sent = 0; sent < raw.size();) {
    const ssize_t n = send(fd, raw.data() + sent, raw.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the server may answer and close before reading a refused body
    sent += static_cast<std::size_t>(n);
  }
  std::string text;
  char buf[65536];
  for (ssize_t n; (n = recv(fd, buf, sizeof buf, 0)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  close(fd);
  if (text.rfind("HTTP/1.1 ", 0) == 0) reply.status = std::stoi(text.substr(9, 3));
  if (const auto at = text.find("\r\n\r\n"); at != std::string::npos) reply.body = text.substr(at + 4);
  return reply;
}

HttpReply get(int port, const std::string& target) {
  return send_raw(port, "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
}

HttpReply post(int port, const std::string& target, const std::string& body) {
  return send_raw(port, "POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                        "Content-Type: application/json\r\nContent-Length: " +
                            std::to_string(body.size()) + "\r\n\r\n" + body);
}

std::string error_of(const HttpReply& r) {
  const json j = json::parse(r.body, nullptr, false);
  return j.is_object() && j.contains("error") && j["error"].is_string() ? j["error"].get<std::string>() : "";
}

TEST(Serve, BindsLoopbackByDefaultAndServesThePage) {
  Server server;
  ASSERT_GT(server.port(), 0) << server.banner() << server.log();
  EXPECT_EQ(server.host(), "127.0.0.1");
  const HttpReply page = get(server.port(), "/");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<html"), std::string::npos);
  EXPECT_EQ(get(server.port(), "/js/app.js").status, 200);
  const HttpReply maps = get(server.port(), "/api/maps");
  ASSERT_EQ(maps.status, 200);
  EXPECT_TRUE(json::parse(maps.body)["maps"].is_array());
}

TEST(Serve, StaticPathsCannotEscapeTheWebFolder) {
  Server server;
  ASSERT_GT(server.port(), 0) << server.log();
  for (const char* target : {"/../CMakeLists.txt", "/../../etc/passwd", "/js/../../CMakeLists.txt",
                             "/%2e%2e/CMakeLists.txt", "/%2e%2e%2fCMakeLists.txt", "/..%2f..%2fetc/passwd",
                             "//etc/passwd", "/js/%2e%2e/%2e%2e/README.md"}) {
    const HttpReply r = get(server.port(), target);
    EXPECT_NE(r.status, 200) << target;
    EXPECT_EQ(r.body.find("cmake_minimum_required"), std::string::npos) << target;
    EXPECT_EQ(r.body.find("root:"), std::string::npos) << target;
  }
}

TEST(Serve, RefusalsAreJsonWithTheirStatus) {
  Server server;
  ASSERT_GT(server.port(), 0) << server.log();
  const HttpReply malformed = post(server.port(), "/api/path", "{\"map\":");
  EXPECT_EQ(malformed.status, 400);
  EXPECT_NE(error_of(malformed).find("malformed JSON"), std::string::npos) << malformed.body;

  const HttpReply big_map = post(server.port(), "/api/path",
                                 R"({"map":{"width":5000,"height":5000,"rows":[]},"from":[0,0],"to":[1,1]})");
  EXPECT_EQ(big_map.status, 413);
  EXPECT_NE(error_of(big_map).find("over the limit"), std::string::npos) << big_map.body;

  // A body over the limit is refused from its declared length, before it is read.
  const std::string huge(std::size_t{17} << 20, ' ');
  const HttpReply big_body = post(server.port(), "/api/path", huge);
  EXPECT_EQ(big_body.status, 413);

  EXPECT_EQ(get(server.port(), "/api/path").status, 405);
  EXPECT_EQ(get(server.port(), "/api/none").status, 404);
  EXPECT_EQ(get(server.port(), "/no-such-file.html").status, 404);
  EXPECT_FALSE(error_of(get(server.port(), "/no-such-file.html")).empty());

  const HttpReply ok = post(server.port(), "/api/path",
                            R"({"map":{"name":"arena"},"from":[3,3],"to":[40,40],"algorithm":"jps"})");
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(json::parse(ok.body)["status"], "success");
}

TEST(Serve, LogsEachRequestAndStopsCleanlyOnCtrlC) {
  Server server;
  ASSERT_GT(server.port(), 0) << server.log();
  ASSERT_EQ(get(server.port(), "/api/maps").status, 200);
  ASSERT_EQ(post(server.port(), "/api/path", "nope").status, 400);
  ASSERT_EQ(get(server.port(), "/").status, 200);
  EXPECT_EQ(server.interrupt(), 0);
  EXPECT_NE(server.rest_of_stdout().find("stopped"), std::string::npos);
  const std::string log = server.log();
  EXPECT_NE(log.find("\"GET /api/maps\" 200"), std::string::npos) << log;
  EXPECT_NE(log.find("\"POST /api/path\" 400"), std::string::npos) << log;
  EXPECT_NE(log.find("\"GET /\" 200"), std::string::npos) << log;
  std::size_t lines = 0;
  for (const char c : log) lines += c == '\n';
  EXPECT_EQ(lines, 4u) << log;  // three requests and the stop
}

TEST(Serve, BadOptionsExitWithTwo) {
  for (const std::string args : {" serve --port 70000", " serve --data /no/such/folder", " serve --web /tmp",
                                 " serve --threads 0 --port -1", " serve --host not-an-address --port 0"}) {
    const int status = std::system((cli + args + " > /dev/null 2>&1").c_str());
    ASSERT_TRUE(WIFEXITED(status)) << args;
    EXPECT_EQ(WEXITSTATUS(status), 2) << args;
  }
}

TEST(Serve, APortInUseIsAClearError) {
  Server first;
  ASSERT_GT(first.port(), 0) << first.log();
  // timeout: were the port shared, the second server would serve until killed.
  const std::string cmd = "timeout 20 " + cli + " serve --port " + std::to_string(first.port()) + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe)) out += buf;
  const int status = pclose(pipe);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(out.find("cannot listen"), std::string::npos) << out;
}

}  // namespace
