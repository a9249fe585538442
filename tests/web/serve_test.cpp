// `waymark serve` over real sockets: what the HTTP layer adds to the API (body limit, static
// files that cannot escape web/, JSON errors, one log line per request, Ctrl-C), and what it
// does under attack (docs/viewer.md, "The server under attack"): heads and bodies over their
// limits refused unread, no ranges, slow and idle clients cut off without starving the rest.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>
#include <unistd.h>

#include "support/sanitized.hpp"
#include "support/serve_process.hpp"

namespace web_serve_test {
namespace {

using nlohmann::json;
using waymark::test::get;
using waymark::test::HttpReply;
using waymark::test::post;
using waymark::test::send_raw;
using waymark::test::other_client;
using Server = waymark::test::ServeProcess;

const std::string cli = WAYMARK_CLI;
const std::string data = WAYMARK_DATA_DIR;

std::string error_of(const HttpReply& r) {
  const json j = json::parse(r.body, nullptr, false);
  return j.is_object() && j.contains("error") && j["error"].is_string() ? j["error"].get<std::string>() : "";
}

TEST(Serve, BindsLoopbackByDefaultAndServesThePage) {
  Server server(cli);
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

TEST(Serve, AnIPv6HostIsWrittenInBracketsInItsUrl) {
  Server server(cli, {"--host", "::1"});
  if (server.port() > 0) {
    EXPECT_NE(server.banner().find("serving http://[::1]:" + std::to_string(server.port()) + "/"), std::string::npos) << server.banner();
    EXPECT_EQ(server.host(), "[::1]");
  } else {  // a machine without IPv6 loopback: the refusal names the host as a URL would
    EXPECT_NE(server.log().find("cannot listen on [::1]"), std::string::npos) << server.log();
  }
}

TEST(Serve, StaticPathsCannotEscapeTheWebFolder) {
  Server server(cli);
  ASSERT_GT(server.port(), 0) << server.log();
  for (const char* target : {"/../CMakeLists.txt", "/../../etc/passwd", "/js/../../CMakeLists.txt",
                             "/%2e%2e/CMakeLists.txt", "/%2e%2e%2fCMakeLists.txt", "/..%2f..%2fetc/passwd",
                             "//etc/passwd", "/js/%2e%2e/%2e%2e/README.md"}) {
    const HttpReply r = get(server.port(), target);
    EXPECT_NE(r.status, 200) << target;
    EXPECT_EQ(r.body.find("cmake_minimum_required"), std::string::npos) << target;
    EXPECT_EQ(r.body.find("root:"), std::string::npos) << target;
  }
  // A NUL or another control byte, decoded, names no file: never index.html sent as a script.
  for (const char* target : {"/index.html%00.js", "/index.html%00", "/js/app.js%0a", "/api/maps%00"}) {
    const HttpReply r = get(server.port(), target);
    EXPECT_EQ(r.status, 400) << target;
    EXPECT_EQ(r.body.find("<html"), std::string::npos) << target;
    EXPECT_NE(error_of(r).find("control character"), std::string::npos) << target << " " << r.body;
  }
}

// A folder of its own (--web): the page's tests, hidden files and files over
// HttpLimits::max_file_bytes (64 MiB) are not sent.
TEST(Serve, OnlyThePagesOwnFilesWithinTheirLimitAreSent) {
  const std::filesystem::path web = std::filesystem::path(::testing::TempDir()) / ("waymark_serve_web_" + std::to_string(getpid()));
  std::filesystem::create_directories(web / "tests");
  std::ofstream(web / "index.html") << "<html>the page</html>";
  std::ofstream(web / "tests" / "package.json") << "{}";
  std::ofstream(web / ".secret") << "hidden";
  std::ofstream(web / "small.bin") << "x";
  std::ofstream(web / "big.bin") << "x";
  std::filesystem::resize_file(web / "big.bin", (std::size_t{64} << 20) + 1);  // sparse: no 64 MiB written
  Server server(cli, {"--web", web.string()});
  ASSERT_GT(server.port(), 0) << server.log();
  EXPECT_EQ(get(server.port(), "/").body, "<html>the page</html>");
  EXPECT_EQ(get(server.port(), "/small.bin").body, "x");
  EXPECT_EQ(get(server.port(), "/tests/package.json").status, 404);
  EXPECT_EQ(get(server.port(), "/.secret").status, 404);
  const HttpReply big = get(server.port(), "/big.bin");
  EXPECT_EQ(big.status, 500);
  EXPECT_NE(error_of(big).find("cannot send /big.bin"), std::string::npos) << big.body;
  EXPECT_EQ(server.interrupt(), 0);
  std::filesystem::remove_all(web);
}

TEST(Serve, RefusalsAreJsonWithTheirStatus) {
  Server server(cli);
  ASSERT_GT(server.port(), 0) << server.log();
  const HttpReply malformed = post(server.port(), "/api/path", "{\"map\":");
  EXPECT_EQ(malformed.status, 400);
  EXPECT_NE(error_of(malformed).find("request:1: invalid JSON"), std::string::npos) << malformed.body;

  const HttpReply big_map = post(server.port(), "/api/path",
                                 R"({"map":{"width":5000,"height":5000,"rows":[]},"from":[0,0],"to":[1,1]})");
  EXPECT_EQ(big_map.status, 413);
  EXPECT_NE(error_of(big_map).find("over the limit"), std::string::npos) << big_map.body;

  // A body over the limit is refused from its declared length, before it is read.
  const std::string huge(std::size_t{17} << 20, ' ');
  const HttpReply big_body = post(server.port(), "/api/path", huge);
  EXPECT_EQ(big_body.status, 413);

  EXPECT_EQ(get(server.port(), "/api/path").status, 405);
  // A form another site could send without a CORS preflight is refused.
  const std::string form = R"({"map":{"name":"arena"},"from":[3,3],"to":[40,40]})";
  const HttpReply plain = send_raw(server.port(), "POST /api/path HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                                                  "Content-Type: text/plain\r\nContent-Length: " +
                                                      std::to_string(form.size()) + "\r\n\r\n" + form);
  EXPECT_EQ(plain.status, 415);
  EXPECT_NE(error_of(plain).find("application/json"), std::string::npos) << plain.body;
  EXPECT_EQ(get(server.port(), "/api/none").status, 404);
  EXPECT_EQ(get(server.port(), "/no-such-file.html").status, 404);
  EXPECT_FALSE(error_of(get(server.port(), "/no-such-file.html")).empty());

  const HttpReply ok = post(server.port(), "/api/path",
                            R"({"map":{"name":"arena"},"from":[3,3],"to":[40,40],"algorithm":"jps"})");
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(json::parse(ok.body)["status"], "success");
}

TEST(Serve, LogsEachRequestAndStopsCleanlyOnCtrlC) {
  Server server(cli);
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

using waymark::test::browser_encodings;

HttpReply get_as_browser(int port, const std::string& target) { return get(port, target, browser_encodings); }

HttpReply post_as_browser(int port, const std::string& target, const std::string& body) {
  return post(port, target, body, browser_encodings);
}

/// `bytes` through the system's gzip -dc (GNU gzip: an implementation of its own, not zlib).
std::string gunzip(const std::string& bytes) {
  const std::string in = ::testing::TempDir() + "/waymark_serve_gz_" + std::to_string(getpid()) + ".gz";
  std::ofstream(in, std::ios::binary) << bytes;
  FILE* pipe = popen(("gzip -dc " + in).c_str(), "r");
  std::string out;
  char buf[65536];
  for (std::size_t n; pipe != nullptr && (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  if (pipe == nullptr || pclose(pipe) != 0) out = "gzip -dc failed";
  std::remove(in.c_str());
  return out;
}

// A traced search on den520d: 4 MB of events, the reply cpp-httplib (the server's library
// before libmicrohttpd) took 5.7 s to Brotli-compress for the browser.
const std::string traced_search = R"({"map":{"name":"den520d"},"from":[137,27],"to":[8,214],"trace":true})";

TEST(Serve, RepliesToLoopbackAreNeverCompressedByDefault) {
  Server server(cli);
  ASSERT_GT(server.port(), 0) << server.log();
  const HttpReply plain = post(server.port(), "/api/path", traced_search);
  ASSERT_EQ(plain.status, 200) << plain.body.substr(0, 200);
  ASSERT_GT(plain.body.size(), std::size_t{100000});
  for (const HttpReply& r : {get_as_browser(server.port(), "/"), get_as_browser(server.port(), "/js/app.js"),
                             get_as_browser(server.port(), "/api/maps"), get_as_browser(server.port(), "/api/map?name=den520d"),
                             post_as_browser(server.port(), "/api/path", traced_search),
                             get_as_browser(server.port(), "/no-such-file")}) {
    SCOPED_TRACE(r.headers);
    EXPECT_EQ(r.header("Content-Encoding"), "");
    EXPECT_EQ(r.header("Content-Length"), std::to_string(r.body.size()));
    EXPECT_NE(r.status, 0);
  }
  const HttpReply traced = post_as_browser(server.port(), "/api/path", traced_search);
  EXPECT_EQ(json::parse(traced.body)["events"].size(), json::parse(plain.body)["events"].size());
  EXPECT_EQ(get_as_browser(server.port(), "/").header("Content-Type"), "text/html");
  EXPECT_EQ(traced.header("Content-Type"), "application/json");
}

TEST(Serve, CompressGzipSendsWhatGzipDecodes) {
  Server server(cli, {"--compress", "gzip"});
  ASSERT_GT(server.port(), 0) << server.log();
  const HttpReply plain = post(server.port(), "/api/path", traced_search);  // no Accept-Encoding: as it is
  ASSERT_EQ(plain.status, 200);
  EXPECT_EQ(plain.header("Content-Encoding"), "");
  const HttpReply packed = post_as_browser(server.port(), "/api/path", traced_search);
  ASSERT_EQ(packed.status, 200);
  EXPECT_EQ(packed.header("Content-Encoding"), "gzip");
  EXPECT_EQ(packed.header("Vary"), "Accept-Encoding");
  EXPECT_EQ(packed.header("Content-Length"), std::to_string(packed.body.size()));
  EXPECT_LT(packed.body.size() * 4, plain.body.size()) << "events compress well";
  const json a = json::parse(gunzip(packed.body), nullptr, false);
  const json b = json::parse(plain.body);
  ASSERT_TRUE(a.is_object());
  EXPECT_EQ(a["events"], b["events"]);
  EXPECT_EQ(a["path"], b["path"]);
  // The page's files too; a reply under one packet goes as it is.
  const HttpReply page = get_as_browser(server.port(), "/js/app.js");
  EXPECT_EQ(page.header("Content-Encoding"), "gzip");
  EXPECT_NE(gunzip(page.body).find("import"), std::string::npos);
  const HttpReply small = post_as_browser(server.port(), "/api/path", R"({"map":{"name":"arena"},"from":[3,1],"to":[4,1]})");
  EXPECT_EQ(small.status, 200);
  EXPECT_EQ(small.header("Content-Encoding"), "");
  // A client that refuses gzip (q=0) gets it as it is.
  const HttpReply refused = send_raw(server.port(), "GET /js/app.js HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                                                    "Accept-Encoding: br, gzip;q=0\r\n\r\n");
  EXPECT_EQ(refused.header("Content-Encoding"), "");
  EXPECT_NE(refused.body.find("import"), std::string::npos);
  // --compress none: never, whatever the client accepts.
  Server never(cli, {"--compress", "none"});
  ASSERT_GT(never.port(), 0) << never.log();
  EXPECT_EQ(post_as_browser(never.port(), "/api/path", traced_search).header("Content-Encoding"), "");
}

TEST(Serve, RangesAreIgnoredAndTheWholeReplySent) {
  Server server(cli);
  ASSERT_GT(server.port(), 0) << server.log();
  const std::string whole = get(server.port(), "/api/maps").body;
  ASSERT_GT(whole.size(), 100u);
  const auto ranged = [&](const std::string& target, const std::string& range) {
    return get(server.port(), target, "Range: bytes=" + range + "\r\n");
  };
  // cpp-httplib answered 2,700 ranges of a 14 KB file with a 38 MB reply.
  std::string many;
  for (int i = 0; i < 2700; ++i) many += (i == 0 ? "" : ",") + std::to_string(i * 5) + "-" + std::to_string(i * 5 + 4);
  const std::string app_js = get(server.port(), "/js/app.js").body;
  for (const auto& [target, range] : std::vector<std::pair<std::string, std::string>>{
           {"/api/maps", "0-9"}, {"/api/maps", "-5"}, {"/api/maps", "9-2"}, {"/api/maps", "0-1,4-5"}, {"/js/app.js", many}}) {
    SCOPED_TRACE(target + " " + range.substr(0, 20));
    const HttpReply r = ranged(target, range);
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.header("Content-Range"), "");
    EXPECT_EQ(r.body, target == "/api/maps" ? whole : app_js);
  }
  EXPECT_EQ(server.interrupt(), 0);
}

TEST(Serve, BodiesComeWithALengthAndAsTheyAreOrAreRefusedUnread) {
  Server server(cli);
  ASSERT_GT(server.port(), 0) << server.log();
  const std::string body = R"({"map":{"name":"arena"},"from":[3,3],"to":[40,40]})";
  const std::string head = "POST /api/path HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n";
  // A gzip body would inflate 2000:1 inside cpp-httplib: no request body is decoded.
  HttpReply r = send_raw(server.port(), head + "Content-Encoding: gzip\r\nContent-Length: " + std::to_string(body.size()) +
                                            "\r\n\r\n" + body);
  EXPECT_EQ(r.status, 415);
  EXPECT_NE(error_of(r).find("Content-Encoding"), std::string::npos) << r.body;
  // A chunked body has no length to check before reading it.
  r = send_raw(server.port(), head + "Transfer-Encoding: chunked\r\n\r\n10\r\n0123456789abcdef\r\n0\r\n\r\n");
  EXPECT_EQ(r.status, 411);
  EXPECT_NE(error_of(r).find("Content-Length"), std::string::npos) << r.body;
  // A length past 64 bits is over the limit too.
  r = send_raw(server.port(), head + "Content-Length: 99999999999999999999999\r\n\r\n{}");
  EXPECT_EQ(r.status, 413);
  // With no length a body is none: what follows is read as the next request.
  r = send_raw(server.port(), head + "\r\n" + body);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(get(server.port(), "/api/maps").status, 200);
}

TEST(Serve, OversizedRequestHeadsAreRefusedAsTheyArrive) {
  Server server(cli);
  ASSERT_GT(server.port(), 0) << server.log();
  ASSERT_EQ(get(server.port(), "/api/maps").status, 200);
  const double rss_before = waymark::test::rss_mib(server.pid());
  std::string many_lines;
  for (int i = 0; i < 100000; ++i) many_lines += "X-A: b\r\n";
  const std::string long_line = "X-Big: " + std::string(std::size_t{4} << 20, 'a') + "\r\n";
  for (int round = 0; round < 4; ++round) {
    // A reply or a reset: the server closes with the rest of the request unread.
    for (const std::string& headers : {long_line, many_lines}) {
      const HttpReply r = get(server.port(), "/api/maps", headers);
      EXPECT_TRUE(r.status == 431 || r.status == 0) << r.status;
    }
    const HttpReply uri = get(server.port(), "/api/maps?" + std::string(std::size_t{1} << 20, 'a'));
    EXPECT_TRUE(uri.status == 414 || uri.status == 0) << uri.status;
    std::string params;
    for (int i = 0; i < 100; ++i) params += "k" + std::to_string(i) + "=1&";
    EXPECT_EQ(get(server.port(), "/api/map?" + params).status, 400);
  }
  // cpp-httplib held each of these whole: a 128 MiB header line cost it 256 MB.
  EXPECT_LT(waymark::test::rss_mib(server.pid()), rss_before + 32) << "MiB";
  EXPECT_EQ(get(server.port(), "/api/maps").status, 200);
  EXPECT_EQ(server.interrupt(), 0);
}

/// A connection that has sent `start` and holds on.
struct HeldSocket {
  int fd;
  HeldSocket(int port, const std::string& start) : fd(waymark::test::connect_to(port)) {
    if (fd >= 0 && !start.empty()) send(fd, start.data(), start.size(), MSG_NOSIGNAL);
  }
  HeldSocket(const HeldSocket&) = delete;
  HeldSocket(HeldSocket&& other) noexcept : fd(std::exchange(other.fd, -1)) {}
  ~HeldSocket() {
    if (fd >= 0) close(fd);
  }
  /// Sends one more byte; false once the server has closed the connection.
  bool trickle() const { return fd >= 0 && send(fd, "a", 1, MSG_NOSIGNAL) == 1; }
  /// Whether the server has closed it (a read sees the end or a reset within `ms`).
  [[nodiscard]] bool closed_by_server(int ms) const {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0) return false;
    char c;
    return recv(fd, &c, 1, MSG_DONTWAIT) <= 0;
  }
};

TEST(Serve, SlowAndIdleClientsNeitherStarveOthersNorStay) {
  Server server(cli, {"--request-timeout", "2"});
  ASSERT_GT(server.port(), 0) << server.log();
  // cpp-httplib gave each connection a thread of 8: 20 clients sending a header byte a second
  // kept GET /api/maps from being answered at all.
  std::vector<HeldSocket> held;
  for (int i = 0; i < 20; ++i) held.emplace_back(server.port(), "GET /api/maps HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
  for (int i = 0; i < 10; ++i)
    held.emplace_back(server.port(), "POST /api/path HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                     "Content-Length: 1000\r\n\r\n{");
  for (int i = 0; i < 20; ++i) held.emplace_back(server.port(), "");
  for (int round = 0; round < 3; ++round) {
    for (const HeldSocket& h : held) h.trickle();
    const HttpReply maps = get(server.port(), "/api/maps");
    EXPECT_EQ(maps.status, 200);
    const HttpReply path = post(server.port(), "/api/path", R"({"map":{"name":"arena"},"from":[3,3],"to":[40,40]})");
    EXPECT_EQ(path.status, 200);
  }
  // Each is cut off once its request has taken longer than --request-timeout to arrive.
  std::size_t closed = 0;
  for (int second = 0; second < 8 && closed < held.size(); ++second) {
    closed = 0;
    for (const HeldSocket& h : held) closed += !h.trickle() || h.closed_by_server(20);
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  EXPECT_EQ(closed, held.size());
  EXPECT_EQ(get(server.port(), "/api/maps").status, 200);
  EXPECT_EQ(server.interrupt(), 0);
}

constexpr std::size_t mib = std::size_t{1} << 20;

/// A path query that parses, padded with spaces to `bytes`.
std::string padded_query(std::size_t bytes) {
  std::string body = R"({"map":{"name":"arena"},"from":[3,3],"to":[40,40]})";
  body.resize(bytes, ' ');
  return body;
}

std::string post_head(std::size_t length) {
  return "POST /api/path HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(length) + "\r\n\r\n";
}

/// A value of /proc/PID/status in MiB ("VmRSS", "VmSize"); -1 when it cannot be read.
double status_mib(pid_t pid, const std::string& key) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key + ":", 0) == 0) return std::stod(line.substr(key.size() + 1)) / 1024.0;
  return -1;
}

/// Waits, 20 s at most, until the server's RSS reaches `target` MiB: it has read what was sent.
bool rss_reaches(pid_t pid, double target) {
  for (int i = 0; i < 1000; ++i) {
    if (status_mib(pid, "VmRSS") >= target) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

/// A connection of its own, closed when it goes.
struct Socket {
  int fd;
  explicit Socket(int port, const char* from = nullptr) : fd(waymark::test::connect_to(port, from)) {}
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  ~Socket() {
    if (fd >= 0) close(fd);
  }
  bool send(const std::string& bytes) const { return fd >= 0 && waymark::test::send_all(fd, bytes); }
  [[nodiscard]] HttpReply reply() const { return waymark::test::read_reply(fd); }
};

// Issue 41: each connection reserved its declared body (100 held 1.6 GB). Bodies grow as they
// arrive, against one budget for them all (--max-body-memory): a body whose length does not
// fit what is left is refused at its head, one that stops fitting as it arrives is read to
// its end unkept, each 503 with Retry-After; what the answered ones held comes back.
TEST(Serve, RequestBodiesInFlightHaveOneBudget) {
  Server server(cli, {"--max-body-memory", "16"});  // the least it takes: one largest body
  ASSERT_GT(server.port(), 0) << server.log();
  ASSERT_EQ(get(server.port(), "/api/maps").status, 200);
  const double base = status_mib(server.pid(), "VmRSS");
  // Two heads, taken while nothing is held: 8 MiB and 10 MiB declared, 18 in all.
  const std::string eight = padded_query(8 * mib), ten = padded_query(10 * mib);
  const Socket late(server.port());
  ASSERT_TRUE(late.send(post_head(eight.size())));
  ASSERT_EQ(get(server.port(), "/api/maps").status, 200);  // its head has been read by now
  const Socket held(server.port());
  ASSERT_TRUE(held.send(post_head(ten.size()) + ten.substr(0, ten.size() - 1)));  // all but a byte
  ASSERT_TRUE(rss_reaches(server.pid(), base + 9)) << "the server did not read the body";
  // 10 MiB held: 8 more do not fit, refused from the head.
  const HttpReply refused = send_raw(server.port(), post_head(eight.size()) + eight);
  EXPECT_EQ(refused.status, 503);
  EXPECT_EQ(refused.header("Retry-After"), "1");
  EXPECT_NE(error_of(refused).find("--max-body-memory"), std::string::npos) << refused.body;
  // The body whose head came first stops fitting as it arrives: read to its end, then 503.
  EXPECT_TRUE(late.send(eight)) << "refused before its body was read";
  const HttpReply dropped = late.reply();
  EXPECT_EQ(dropped.status, 503);
  EXPECT_EQ(dropped.header("Retry-After"), "1");
  // The held one is answered, and what it held comes back: a largest body fits again.
  ASSERT_TRUE(held.send(ten.substr(ten.size() - 1)));
  const HttpReply answered = held.reply();
  EXPECT_EQ(answered.status, 200) << answered.body.substr(0, 200);
  const HttpReply largest = post(server.port(), "/api/path", padded_query(16 * mib));
  EXPECT_EQ(largest.status, 200) << largest.body.substr(0, 200);
  EXPECT_EQ(server.interrupt(), 0);
}

// Issue 41: under an address-space limit (a `ulimit -v` deployment) ~550 heads declaring 16 MiB
// aborted the server: std::bad_alloc left a libmicrohttpd callback into std::terminate. Here
// the running server's limit is lowered to 48 MiB above what it maps, and 8 bodies of 16 MiB
// are held open in it: those that run out of memory are read to their end and answered 503,
// the others 200, and the server answers on once the limit is lifted.
TEST(Serve, OutOfMemoryIsA503NeverAnAbort) {
  if (waymark::test::sanitized) GTEST_SKIP() << "AddressSanitizer's allocator aborts rather than throw under an address-space limit";
  Server server(cli, {"--max-body-memory", "4096"});
  ASSERT_GT(server.port(), 0) << server.log();
  ASSERT_EQ(post(server.port(), "/api/path", padded_query(1000)).status, 200);  // every thread has its arena
  const double mapped = status_mib(server.pid(), "VmSize");
  ASSERT_GT(mapped, 0);
  rlimit before{};
  ASSERT_EQ(prlimit(server.pid(), RLIMIT_AS, nullptr, &before), 0);
  const rlimit capped{static_cast<rlim_t>((mapped + 48) * mib), before.rlim_max};
  ASSERT_EQ(prlimit(server.pid(), RLIMIT_AS, &capped, nullptr), 0);
  const std::string body = padded_query(16 * mib);
  std::vector<std::unique_ptr<Socket>> held;
  for (int i = 0; i < 8; ++i) {
    held.push_back(std::make_unique<Socket>(server.port()));
    held.back()->send(post_head(body.size()) + body.substr(0, body.size() - 1));
  }
  ASSERT_EQ(prlimit(server.pid(), RLIMIT_AS, &before, nullptr), 0);
  int out_of_memory = 0, answered = 0;
  for (const auto& s : held) {
    s->send(body.substr(body.size() - 1));
    const HttpReply r = s->reply();
    if (r.status == 503) {
      ++out_of_memory;
      EXPECT_NE(error_of(r).find("out of memory"), std::string::npos) << r.body;
      EXPECT_EQ(r.header("Retry-After"), "1");
    }
    answered += r.status == 200;
  }
  EXPECT_EQ(kill(server.pid(), 0), 0);
  int status = 0;
  EXPECT_EQ(waitpid(server.pid(), &status, WNOHANG), 0) << "the server ended";
  EXPECT_GE(out_of_memory, 1) << "nothing ran out of memory: the limit was not reached";
  EXPECT_EQ(out_of_memory + answered, 8);
  EXPECT_EQ(get(server.port(), "/api/maps").status, 200);
  EXPECT_EQ(post(server.port(), "/api/path", padded_query(16 * mib)).status, 200);
  EXPECT_EQ(server.interrupt(), 0);
}

// Issue 41: one client holding 1,100 connections left GET /api/maps answered 2 times of 5.
// A client may hold --max-client-connections (64; 8 here); more are closed at once, unanswered,
// and other clients are answered. bench/serve_attacks.py runs the full-size attack.
TEST(Serve, OneClientCannotHoldEveryConnection) {
  Server server(cli, {"--max-client-connections", "8", "--request-timeout", "120"});
  ASSERT_GT(server.port(), 0) << server.log();
  std::vector<std::unique_ptr<HeldSocket>> greedy;
  for (int i = 0; i < 20; ++i) {
    greedy.push_back(std::make_unique<HeldSocket>(server.port(), ""));
    // From the other loopback address.
    close(greedy.back()->fd);
    greedy.back()->fd = waymark::test::connect_to(server.port(), other_client);
    ASSERT_GE(greedy.back()->fd, 0);
  }
  std::size_t closed = 0;
  for (int round = 0; round < 100 && closed < 12; ++round) {
    closed = 0;
    for (const auto& h : greedy) closed += h->closed_by_server(0);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(closed, 12u) << "all but 8 closed";
  for (int i = 0; i < 5; ++i) EXPECT_EQ(get(server.port(), "/api/maps").status, 200);
  EXPECT_EQ(send_raw(server.port(), waymark::test::get_text("/api/maps"), other_client).status, 0);  // its ninth
  greedy.clear();
  for (int round = 0; round < 100; ++round) {  // its connections closed: it is answered again
    if (send_raw(server.port(), waymark::test::get_text("/api/maps"), other_client).status == 200) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(send_raw(server.port(), waymark::test::get_text("/api/maps"), other_client).status, 200);
  EXPECT_EQ(server.interrupt(), 0);
}

// Issue 41: one client's 16 simulations held every slot for up to 600 s. A client (a remote
// address) keeps half of them at most (ApiLimits::max_client_session_share).
TEST(Serve, OneClientKeepsHalfTheSimulations) {
  Server server(cli);
  ASSERT_GT(server.port(), 0) << server.log();
  const std::string start = R"({"map":{"width":4,"height":4,"rows":["....","....","....","...."]}})";
  const std::string request = waymark::test::post_text("/api/sim/start", start);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(send_raw(server.port(), request, other_client).status, 200) << i;
  const HttpReply ninth = send_raw(server.port(), request, other_client);
  EXPECT_EQ(ninth.status, 429);
  EXPECT_NE(error_of(ninth).find("this client keeps 8 of the server's 16 simulations already"), std::string::npos) << ninth.body;
  EXPECT_EQ(post(server.port(), "/api/sim/start", start).status, 200);  // another client
  EXPECT_EQ(server.interrupt(), 0);
}

// Issue 41: two differing Content-Lengths were taken (the first won; RFC 9112 §6.3 says 400),
// HEAD on an API route was 405, a NUL in a header value and bare LF line ends were taken (and
// a NUL byte in the target named index.html). Debian's libmicrohttpd 0.9.75 has no option to
// refuse them: the server reads the head it parsed (HeadWalk, apps/waymark/http_server.cpp).
TEST(Serve, RequestHeadsAreFramedAsRfc9112Says) {
  Server server(cli);
  ASSERT_GT(server.port(), 0) << server.log();
  const std::string body = R"({"map":{"name":"arena"},"from":[3,3],"to":[40,40]})";
  const std::string post_start = "POST /api/path HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n";
  const std::string length = "Content-Length: " + std::to_string(body.size()) + "\r\n";
  for (const auto& [name, raw, why] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"two Content-Lengths", post_start + length + "Content-Length: 5\r\n\r\n" + body, "Content-Length 2 times"},
           {"the same one twice", post_start + length + length + "\r\n" + body, "Content-Length 2 times"},
           {"NUL in a value", "GET /api/maps HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a" + std::string(1, '\0') + "b\r\nConnection: close\r\n\r\n",
            "NUL byte in a header value"},
           {"NUL in the last value", "GET /api/maps HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close" + std::string(1, '\0') + "x\r\n\r\n",
            "NUL byte in a header value"},
           {"NUL in the target", "GET /index.html" + std::string(1, '\0') + ".js HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            "NUL byte in the request target"},
           {"NUL in the method", "GE" + std::string(1, '\0') + "T /api/maps HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            "NUL byte in the request line's method"},
           {"bare LF everywhere", "GET /api/maps HTTP/1.1\nHost: 127.0.0.1\nConnection: close\n\n", "bare LF"},
           {"bare LF ending the request line", "GET /api/maps HTTP/1.1\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", "bare LF"},
           {"bare LF ending a header", "GET /api/maps HTTP/1.1\r\nHost: 127.0.0.1\nConnection: close\r\n\r\n", "bare LF"},
           {"bare LF ending the head", "GET /api/maps HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\n", "bare LF"},
           {"a folded header", "GET /api/maps HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\r\n b\r\nConnection: close\r\n\r\n", "obs-fold"},
           {"a space before the colon", "GET /api/maps HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A : b\r\nConnection: close\r\n\r\n",
            "outside a token"},
           {"a space inside a name", "GET /api/maps HTTP/1.1\r\nHost: 127.0.0.1\r\nX A: b\r\nConnection: close\r\n\r\n",
            "outside a token"},
           {"a bare CR ending a value", "GET /api/maps HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\r\r\nConnection: close\r\n\r\n",
            "bare CR"},
           {"a bare CR inside a value", "GET /api/maps HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\rb\r\nConnection: close\r\n\r\n",
            "bare CR"}}) {
    SCOPED_TRACE(name);
    const HttpReply r = send_raw(server.port(), raw);
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(error_of(r).find(why), std::string::npos) << r.body;
    EXPECT_EQ(r.body.find("<html"), std::string::npos);
  }
  // What RFC 9112 allows passes: spaces and tabs round a value, an empty value, no headers.
  EXPECT_EQ(send_raw(server.port(), "GET /api/maps HTTP/1.1\r\nHost:127.0.0.1\r\nX-A: \t a b \t\r\nX-B:\r\nX-C: \r\n"
                                    "Connection: close\r\n\r\n")
                .status,
            200);
  EXPECT_EQ(send_raw(server.port(), "GET /api/maps HTTP/1.0\r\n\r\n").status, 200);  // no headers at all
  EXPECT_EQ(post(server.port(), "/api/path", body).status, 200);
  // Requests after the first on a connection, pipelined, are read where they were moved to.
  const std::string maps = "GET /api/maps HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n";
  const HttpReply pipelined = send_raw(server.port(), maps + post_start.substr(0, post_start.find("Connection")) +
                                                          "Content-Type: application/json\r\n" + length + "\r\n" + body + maps +
                                                          waymark::test::get_text("/js/app.js"));
  std::size_t answered = 0;
  for (std::size_t at = 0; (at = pipelined.body.find("HTTP/1.1 200 OK", at)) != std::string::npos; ++at) ++answered;
  EXPECT_EQ(pipelined.status, 200);
  EXPECT_EQ(answered, 3u) << "the three after the first";
  // HEAD is answered as GET on every GET route, files and API alike: the head, no body.
  for (const char* target : {"/", "/js/app.js", "/api/maps", "/api/map?name=arena", "/api/graph", "/api/navmesh"}) {
    SCOPED_TRACE(target);
    const HttpReply whole = get(server.port(), target);
    const HttpReply head = send_raw(server.port(), "HEAD " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(head.status, 200);
    EXPECT_EQ(head.body, "");
    EXPECT_EQ(head.header("Content-Length"), std::to_string(whole.body.size()));
    EXPECT_EQ(head.header("Content-Type"), whole.header("Content-Type"));
  }
  EXPECT_EQ(send_raw(server.port(), "HEAD /api/path HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").status, 405);
  EXPECT_EQ(server.interrupt(), 0);
}

TEST(Serve, BadOptionsExitWithTwo) {
  for (const std::string args : {" serve --port 70000", " serve --data /no/such/folder", " serve --web /tmp",
                                 " serve --port -1", " serve --threads 1000 --port 0", " serve --threads -1 --port 0", " serve --host not-an-address --port 0",
                                 " serve --compress br --port 0",
                                 " serve --request-timeout 0 --port 0", " serve --max-body-memory 15 --port 0",
                                 " serve --max-body-memory 99999999 --port 0", " serve --max-client-connections 0 --port 0",
                                 " serve --max-client-connections 1001 --port 0"}) {
    const int status = std::system((cli + args + " > /dev/null 2>&1").c_str());
    ASSERT_TRUE(WIFEXITED(status)) << args;
    EXPECT_EQ(WEXITSTATUS(status), 2) << args;
  }
}

TEST(Serve, APortInUseIsAClearError) {
  Server first(cli);
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
}  // namespace web_serve_test
