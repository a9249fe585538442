#pragma once
// `waymark serve` for tests and the load test: the server as a child process on a free port,
// and a minimal HTTP/1.1 client over raw sockets (requests are sent exactly as written, so
// hostile ones stay hostile).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace waymark::test {

/// `waymark serve --port 0 ARGS` as a child process: its port, its stderr (the log) in a file.
class ServeProcess {
 public:
  explicit ServeProcess(const std::string& cli, std::vector<std::string> extra = {}) {
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
      // "… http://HOST:PORT/ …", HOST "[::1]" for IPv6 (no std::regex: GCC 12 at -O1 under ASan
      // warns falsely inside it)
      const std::size_t at = banner_.find("http://");
      const std::size_t host_end = at == std::string::npos ? at : banner_[at + 7] == '[' ? banner_.find(']', at + 7) : at + 7;
      const std::size_t colon = host_end == std::string::npos ? host_end : banner_.find(':', host_end);
      const std::size_t slash = colon == std::string::npos ? colon : banner_.find('/', colon);
      if (slash != std::string::npos) {
        host_ = banner_.substr(at + 7, colon - at - 7);
        port_ = std::atoi(banner_.substr(colon + 1, slash - colon - 1).c_str());
      }
    }
  }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;
  ~ServeProcess() {
    if (pid_ > 0 && !stopped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (out_) std::fclose(out_);
    std::filesystem::remove(log_);
  }

  /// Sends SIGINT and returns the exit code (-1 unless it exited normally; -2, after SIGKILL,
  /// when it has not stopped within 20 s).
  int interrupt() {
    kill(pid_, SIGINT);
    int status = 0;
    stopped_ = true;
    for (int waited_ms = 0;; waited_ms += 10) {
      const pid_t done = waitpid(pid_, &status, WNOHANG);
      if (done == pid_) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      if (done < 0) return -1;  // not our child any more: no exit status to report
      if (waited_ms > 20000) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        return -2;
      }
      usleep(10000);
    }
  }
  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] pid_t pid() const { return pid_; }
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

/// The resident set of process `pid`, MiB (-1 when it cannot be read).
inline double rss_mib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  long value = 0;
  while (in >> key) {
    if (key == "VmRSS:") {
      in >> value;
      return static_cast<double>(value) / 1024.0;
    }
    in.ignore(1 << 12, '\n');
  }
  return -1;
}

struct HttpReply {
  int status = 0;
  std::string headers;  ///< the header lines after the status line, as sent
  std::string body;     ///< as sent (still compressed when Content-Encoding says so)
  /// Milliseconds from the connection to the reply's first byte.
  double first_byte_ms = 0;

  /// The value of header `name` (case-insensitive), or "" when there is none.
  [[nodiscard]] std::string header(const std::string& name) const {
    const auto same = [](char a, char b) {
      return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    };
    for (std::size_t begin = 0; begin < headers.size();) {
      std::size_t end = headers.find("\r\n", begin);
      if (end == std::string::npos) end = headers.size();
      const std::string line = headers.substr(begin, end - begin);
      const std::size_t colon = line.find(':');
      if (colon == name.size() && std::equal(name.begin(), name.end(), line.begin(), same)) {
        const std::size_t value = line.find_first_not_of(' ', colon + 1);
        return value == std::string::npos ? "" : line.substr(value);
      }
      begin = end + 2;
    }
    return "";
  }
};

/// A second loopback address (Linux routes all of 127.0.0.0/8 to lo): a client that is not
/// 127.0.0.1 to the server, for its per-client limits.
inline constexpr const char* other_client = "127.0.0.2";

/// A socket connected to 127.0.0.1:port, from the IPv4 address `from` when given, -1 when it
/// cannot connect. Reads and writes wait at most 30 s: a wedged server fails the test instead
/// of hanging it.
inline int connect_to(int port, const char* from = nullptr) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  const timeval wait{30, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof wait);
  if (from != nullptr) {
    sockaddr_in source{};
    source.sin_family = AF_INET;
    if (inet_pton(AF_INET, from, &source.sin_addr) != 1 || bind(fd, reinterpret_cast<sockaddr*>(&source), sizeof source) != 0) {
      close(fd);
      return -1;
    }
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/// The reply on `fd`, read until the server closes the connection; its first byte's time is
/// counted from `started`.
inline HttpReply read_reply(int fd, std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now()) {
  HttpReply reply;
  std::string text;
  char buf[65536];
  for (ssize_t n; (n = recv(fd, buf, sizeof buf, 0)) > 0;) {
    if (text.empty()) reply.first_byte_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    text.append(buf, static_cast<std::size_t>(n));
  }
  if (text.rfind("HTTP/1.1 ", 0) == 0) reply.status = std::stoi(text.substr(9, 3));
  if (const auto at = text.find("\r\n\r\n"); at != std::string::npos) {
    const std::size_t line_end = text.find("\r\n");
    reply.headers = at > line_end ? text.substr(line_end + 2, at - line_end - 2) : "";
    reply.body = text.substr(at + 4);
  }
  return reply;
}

/// Sends all of `bytes` on `fd`; false when the server closed the connection first.
inline bool send_all(int fd, const std::string& bytes) {
  for (std::size_t sent = 0; sent < bytes.size();) {
    const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

/// Sends `raw` (a whole HTTP request, as written) to 127.0.0.1:port (from `from`, when given)
/// and reads the reply until the server closes the connection.
inline HttpReply send_raw(int port, const std::string& raw, const char* from = nullptr) {
  const auto started = std::chrono::steady_clock::now();
  const int fd = connect_to(port, from);
  if (fd < 0) return {};
  send_all(fd, raw);  // the server may answer and close before reading a refused body
  HttpReply reply = read_reply(fd, started);
  close(fd);
  return reply;
}

/// Sends `raw` and closes the connection without reading (a client that gives up mid-request).
inline HttpReply send_and_hang_up(int port, const std::string& raw) {
  const int fd = connect_to(port);
  if (fd < 0) return {};
  send(fd, raw.data(), raw.size(), MSG_NOSIGNAL);
  close(fd);
  return {};
}

/// The Accept-Encoding line Chromium sends with every request.
inline constexpr const char* browser_encodings = "Accept-Encoding: gzip, deflate, br, zstd\r\n";

/// A whole GET request (Connection: close), with `headers` (lines ending in CRLF) added.
inline std::string get_text(const std::string& target, const std::string& headers = "") {
  return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + headers + "\r\n";
}

/// A whole POST request of a JSON body (Connection: close), with `headers` added.
inline std::string post_text(const std::string& target, const std::string& body, const std::string& headers = "") {
  return "POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n" +
         headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

inline HttpReply get(int port, const std::string& target, const std::string& headers = "") {
  return send_raw(port, get_text(target, headers));
}

inline HttpReply post(int port, const std::string& target, const std::string& body, const std::string& headers = "") {
  return send_raw(port, post_text(target, body, headers));
}

}  // namespace waymark::test
