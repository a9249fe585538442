// Load test of `waymark serve` on loopback: N client threads for a bounded time, mixing valid
// requests (whose answers are checked: Moving AI optima, a road cost, puzzle lengths) and
// hostile ones (malformed, oversized, climbing out of web/, deep nesting, cut-off requests).
// Every request says it accepts gzip, deflate and br, as Chromium's do: the answers are checked
// as they arrive, so a reply compressed on loopback counts as wrong (docs/viewer.md, encoding).
// Each of the server's worker threads first serves the largest reply (warm-up, not measured).
// Reports the requests served, p50/p99 latency, time to first byte against the search's own
// time for each kind of search, errors by kind, and the server's RSS over the run; exits 1 on
// a crash, a wrong answer, an unexpected status or a growing RSS.
//
//   waymark_serve_load WAYMARK_BINARY DATA_DIR [--clients N] [--seconds S] [--json]
//
// `make test` runs it briefly (CTest serve_load); `make bench` runs it longer.
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/serve_process.hpp"
#include "waymark/io/movingai.hpp"

namespace {

using nlohmann::json;
using waymark::test::HttpReply;
using waymark::test::rss_mib;
using waymark::test::send_raw;

/// RSS may grow by this factor plus slack between the warm-up mark and the end before the run
/// fails: allocator arenas settle, a leak keeps growing.
constexpr double rss_growth_factor = 1.25;
/// Worker threads of `waymark serve` when --threads is not given (warmed up before the run).
constexpr int server_threads = 8;
constexpr double rss_slack_mib = 16.0;
constexpr auto rss_period = std::chrono::milliseconds(250);

// Every request says what Chromium says it accepts.
std::string http_post(const std::string& target, const std::string& body) {
  return waymark::test::post_text(target, body, waymark::test::browser_encodings);
}
std::string http_get(const std::string& target) { return waymark::test::get_text(target, waymark::test::browser_encodings); }
std::string http_get_with(const std::string& target, const std::string& headers) {
  return waymark::test::get_text(target, waymark::test::browser_encodings + headers);
}

/// One kind of request: what to send, how often, and whether an answer is right.
struct Kind {
  std::string name;
  int weight;
  std::function<std::string(std::mt19937_64&)> request;
  /// false: wrong (why in the string); `j` is the reply's body parsed (discarded when not JSON).
  std::function<bool(const HttpReply&, const json& j, std::string&)> check;
  bool expect_reply = true;  ///< false: the client hangs up mid-request
  /// true: the server may reset the connection instead of answering (it closes with the rest
  /// of an oversized request unread, and the kernel then resets what is still coming).
  bool reset_ok = false;
};

bool status_is(const HttpReply& r, int status, std::string& why) {
  if (r.status == status) return true;
  why = "status " + std::to_string(r.status) + ", expected " + std::to_string(status);
  return false;
}

json body_json(const HttpReply& r) { return json::parse(r.body, nullptr, false); }

/// The search time an answer reports, ms: stats.time_us, or the sum of results[].time_us (a
/// route by several algorithms); -1 when it reports none.
double search_ms(const json& j) {
  if (!j.is_object()) return -1;
  if (j.contains("stats") && j["stats"].is_object() && j["stats"].contains("time_us")) return j["stats"]["time_us"].get<double>() / 1e3;
  if (!j.contains("results") || !j["results"].is_array()) return -1;
  double us = 0;
  for (const json& r : j["results"]) us += r.value("time_us", 0.0);
  return us / 1e3;
}

/// A traced grid query: right when it succeeds with more than `min_events` events.
Kind traced_path(std::string name, int weight, std::string body, std::size_t min_events) {
  return {std::move(name), weight, [body = std::move(body)](std::mt19937_64&) { return http_post("/api/path", body); },
          [min_events](const HttpReply& r, const json& j, std::string& why) {
            if (!status_is(r, 200, why)) return false;
            if (j["status"] == "success" && j["events"].is_array() && j["events"].size() > min_events) return true;
            why = "no events";
            return false;
          }};
}

struct Tally {
  std::vector<double> latency_ms;
  std::vector<double> normal_ms;  ///< GETs of the page and of /api/maps: what a viewer waits for
  std::map<std::string, std::vector<double>> first_byte_ms;  ///< by kind, answers reporting a search time
  std::map<std::string, std::vector<double>> search_ms;      ///< the same answers' search times
  std::map<std::string, std::size_t> served;      ///< by kind
  std::map<std::string, std::size_t> wrong;       ///< "kind: why"
  std::size_t connection_errors = 0;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(std::min<double>(static_cast<double>(v.size() - 1), p * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: waymark_serve_load WAYMARK_BINARY DATA_DIR [--clients N] [--seconds S] [--json]\n");
    return 2;
  }
  const std::string cli = argv[1];
  const std::string data = argv[2];
  int clients = 4;
  double seconds = 5;
  bool as_json = false;
  for (int i = 3; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--clients" && i + 1 < argc) clients = std::atoi(argv[++i]);
    else if (a == "--seconds" && i + 1 < argc) seconds = std::atof(argv[++i]);
    else if (a == "--json") as_json = true;
    else {
      std::fprintf(stderr, "waymark_serve_load: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (clients < 1 || clients > 256 || !(seconds > 0 && seconds <= 3600)) {
    std::fprintf(stderr, "waymark_serve_load: --clients 1..256, --seconds (0, 3600]\n");
    return 2;
  }

  // Known answers: Moving AI optima for arena, a road cost from the server's own Dijkstra
  // (WebApi.RoadRoutesMatchBoostDijkstra checks that against Boost), puzzle lengths.
  const auto scen = waymark::io::load_movingai_scenario(data + "/maps/arena.map.scen");
  // Slow clients are cut off after 2 s here (10 by default), so that a short run sees it. Every
  // client here is 127.0.0.1: room for all of their connections (the clients, the 50 slow and
  // idle sockets, the steppers, the warm-up) above the server's cap for one client.
  const int connections = clients + 64 + server_threads;
  waymark::test::ServeProcess server(cli, {"--request-timeout", "2", "--max-client-connections", std::to_string(connections)});
  if (server.port() <= 0) {
    std::fprintf(stderr, "waymark_serve_load: the server did not start: %s\n", server.log().c_str());
    return 1;
  }
  const int port = server.port();
  const HttpReply reference = send_raw(port, http_post("/api/route", R"({"from":10,"to":5000,"algorithms":["dijkstra"]})"));
  const json reference_json = body_json(reference);
  if (reference.status != 200 || !reference_json.is_object()) {
    std::fprintf(stderr, "waymark_serve_load: no reference route: %s\n", reference.body.c_str());
    return 1;
  }
  const double road_cost = reference_json["results"][0]["cost"].get<double>();

  const std::vector<Kind> kinds = {
      {"path", 30,
       [&](std::mt19937_64& rng) {
         const auto& q = scen.queries[rng() % scen.queries.size()];
         const char* algorithm = rng() % 2 ? "astar" : "jps";
         return http_post("/api/path", json{{"map", {{"name", "arena"}}}, {"from", {q.start.x, q.start.y}},
                                            {"to", {q.goal.x, q.goal.y}}, {"algorithm", algorithm}}.dump());
       },
       [&](const HttpReply& r, const json& j, std::string& why) {
         if (!status_is(r, 200, why)) return false;
         const auto& path = j["path"];
         if (j["status"] != "success" || !path.is_array() || path.empty()) {
           why = "no path";
           return false;
         }
         for (const auto& q : scen.queries) {
           if (path.front() == json{q.start.x, q.start.y} && path.back() == json{q.goal.x, q.goal.y}) {
             if (q.matches_optimal(j["cost"].get<double>())) return true;
             why = "cost " + std::to_string(j["cost"].get<double>()) + ", optimum " + std::to_string(q.optimal);
             return false;
           }
         }
         why = "a path between cells no query asked for";
         return false;
       }},
      traced_path("path_traced", 4, R"({"map":{"name":"den520d"},"from":[78,231],"to":[77,215],"trace":true})", 10),
      // 4 MB of events: what Brotli at quality 11 took 5.7 s to send
      traced_path("path_traced_long", 1, R"({"map":{"name":"den520d"},"from":[137,27],"to":[8,214],"trace":true})", 10000),
      {"route", 10,
       [&](std::mt19937_64& rng) {
         return http_post("/api/route", rng() % 2 ? R"({"from":10,"to":5000,"algorithms":["ch","alt"]})"
                                                  : R"({"from":10,"to":5000,"algorithms":["bidijkstra","astar"]})");
       },
       [&](const HttpReply& r, const json& answer, std::string& why) {
         if (!status_is(r, 200, why)) return false;
         for (const json& result : answer["results"]) {
           if (result["status"] != "success") {
             why = result["algorithm"].get<std::string>() + " found no route";
             return false;
           }
           if (std::abs(result["cost"].get<double>() - road_cost) > 1e-6 * road_cost) {
             why = result["algorithm"].get<std::string>() + " cost differs from Dijkstra's";
             return false;
           }
         }
         return true;
       }},
      {"puzzle", 5,
       [&](std::mt19937_64& rng) {
         return http_post("/api/puzzle", rng() % 4 ? R"({"tiles":[1,4,2,3,7,0,6,8,5],"algorithm":"astar"})"
                                                   : R"({"tiles":[8,0,6,5,4,7,2,3,1],"algorithm":"ida","heuristic":"linear-conflict"})");
       },
       [&](const HttpReply& r, const json& j, std::string& why) {
         if (!status_is(r, 200, why)) return false;
         if (j["status"] != "success" || !j["boards"].is_array() || j["boards"].empty()) {
           why = "not solved";
           return false;
         }
         const int expected = j["boards"].front()[0] == 8 ? 31 : 5;
         if (j["moves"] == expected) return true;
         why = "moves " + j["moves"].dump() + ", expected " + std::to_string(expected);
         return false;
       }},
      {"page", 5, [&](std::mt19937_64&) { return http_get("/"); },
       [&](const HttpReply& r, const json&, std::string& why) {
         if (!status_is(r, 200, why)) return false;
         if (r.body.find("<html") != std::string::npos) return true;
         why = "not the page";
         return false;
       }},
      {"maps", 5, [&](std::mt19937_64&) { return http_get("/api/maps"); },
       [&](const HttpReply& r, const json&, std::string& why) { return status_is(r, 200, why); }},
      {"malformed_json", 8, [&](std::mt19937_64&) { return http_post("/api/path", R"({"map":{"name":"arena"},"from":[1,)"); },
       [&](const HttpReply& r, const json&, std::string& why) { return status_is(r, 400, why); }},
      {"bad_utf8", 3, [&](std::mt19937_64&) { return http_post("/api/path", "{\"map\":{\"name\":\"\xff\xfe\"}}"); },
       [&](const HttpReply& r, const json& j, std::string& why) {
         if (!status_is(r, 400, why)) return false;
         if (j.is_object()) return true;
         why = "the reason is not JSON";
         return false;
       }},
      {"deep_nesting", 3, [&](std::mt19937_64&) { return http_post("/api/path", std::string(200000, '[')); },
       [&](const HttpReply& r, const json&, std::string& why) { return status_is(r, 400, why); }},
      {"map_over_limit", 5,
       [&](std::mt19937_64&) {
         return http_post("/api/path", R"({"map":{"width":4096,"height":4096,"rows":[]},"from":[0,0],"to":[1,1]})");
       },
       [&](const HttpReply& r, const json&, std::string& why) { return status_is(r, 413, why); }},
      {"body_over_limit", 1,
       [&](std::mt19937_64&) { return http_post("/api/path", std::string(std::size_t{17} << 20, ' ')); },
       [&](const HttpReply& r, const json&, std::string& why) { return status_is(r, 413, why); }},
      {"blocked_start", 4,
       [&](std::mt19937_64&) { return http_post("/api/path", R"({"map":{"name":"arena"},"from":[0,0],"to":[20,20]})"); },
       [&](const HttpReply& r, const json&, std::string& why) { return status_is(r, 400, why); }},
      {"escape_web", 5, [&](std::mt19937_64& rng) { return http_get(rng() % 2 ? "/../CMakeLists.txt" : "/%2e%2e/%2e%2e/etc/passwd"); },
       [&](const HttpReply& r, const json&, std::string& why) {
         if (r.status == 200 || r.body.find("cmake_minimum_required") != std::string::npos ||
             r.body.find("root:") != std::string::npos) {
           why = "a file outside web/ was served";
           return false;
         }
         return true;
       }},
      {"form_post", 2,  // what a page on another site could send without a CORS preflight
       [&](std::mt19937_64&) {
         const std::string body = R"({"map":{"name":"arena"},"from":[3,3],"to":[40,40]})";
         return "POST /api/path HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: text/plain\r\n"
                "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
       },
       [&](const HttpReply& r, const json&, std::string& why) { return status_is(r, 415, why); }},
      {"wrong_method", 3, [&](std::mt19937_64&) { return http_get("/api/path"); },
       [&](const HttpReply& r, const json&, std::string& why) { return status_is(r, 405, why); }},
      {"cut_off", 2,
       [&](std::mt19937_64&) {
         return std::string("POST /api/path HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000\r\n\r\n{\"map\":");
       },
       [&](const HttpReply&, const json&, std::string&) { return true; }, false},
      // Floods (issue 32): each refused before it costs memory, or answered within its limits.
      {"gzip_body", 2,  // cpp-httplib inflated a 1 MB gzip body to 1 GiB
       [&](std::mt19937_64&) {
         const std::string body = R"({"map":{"name":"arena"},"from":[3,3],"to":[40,40]})";
         return "POST /api/path HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
                "Content-Encoding: gzip\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
       },
       [&](const HttpReply& r, const json&, std::string& why) { return status_is(r, 415, why); }},
      {"chunked_body", 2,
       [&](std::mt19937_64&) {
         std::string chunks;
         for (int i = 0; i < 64; ++i) chunks += "4000\r\n" + std::string(0x4000, ' ') + "\r\n";
         return "POST /api/path HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
                "Transfer-Encoding: chunked\r\n\r\n" + chunks + "0\r\n\r\n";
       },
       [&](const HttpReply& r, const json&, std::string& why) { return r.status == 0 || status_is(r, 411, why); }, true, true},
      {"no_length_body", 2,
       [&](std::mt19937_64&) {
         return "POST /api/path HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n\r\n" +
                std::string(std::size_t{1} << 20, '[');
       },
       [&](const HttpReply& r, const json&, std::string& why) { return r.status == 0 || status_is(r, 400, why); }, true, true},
      {"long_header_line", 1,
       [&](std::mt19937_64&) { return http_get_with("/api/maps", "X-Big: " + std::string(std::size_t{1} << 20, 'a') + "\r\n"); },
       [&](const HttpReply& r, const json&, std::string& why) { return r.status == 0 || status_is(r, 431, why); }, true, true},
      {"many_header_lines", 1,
       [&](std::mt19937_64&) {
         std::string lines;
         for (int i = 0; i < 100000; ++i) lines += "X-A: b\r\n";
         return http_get_with("/api/maps", lines);
       },
       [&](const HttpReply& r, const json&, std::string& why) { return r.status == 0 || status_is(r, 431, why); }, true, true},
      {"route_flood", 2,  // 10,000 x "dijkstra" once took 10-26 s and a 150 MB reply
       [&](std::mt19937_64&) {
         return http_post("/api/route", json{{"from", 10}, {"to", 5000}, {"algorithms", std::vector<std::string>(10000, "dijkstra")}}.dump());
       },
       [&](const HttpReply& r, const json&, std::string& why) { return status_is(r, 400, why); }},
      {"many_ranges", 2,  // cpp-httplib sent a 38 MB reply for a 14 KB file
       [&](std::mt19937_64&) {
         std::string ranges;
         for (int i = 0; i < 2700; ++i) ranges += (i ? "," : "") + std::to_string(i * 5) + "-" + std::to_string(i * 5 + 4);
         return http_get_with("/js/app.js", "Range: bytes=" + ranges + "\r\n");
       },
       [&](const HttpReply& r, const json&, std::string& why) {
         if (!status_is(r, 200, why)) return false;
         if (r.header("Content-Range").empty() && r.body.find("import") != std::string::npos) return true;
         why = "a ranged reply";
         return false;
       }},
  };
  int total_weight = 0;
  for (const Kind& k : kinds) total_weight += k.weight;

  // Warm-up: every worker thread serves the largest reply (a 4 MB traced search; as many at
  // once as the server has threads, twice) before RSS is sampled, so the allocator has seen the
  // largest allocations of the run before it starts.
  const std::string largest = http_post("/api/path", R"({"map":{"name":"den520d"},"from":[137,27],"to":[8,214],"trace":true})");
  for (int round = 0; round < 2; ++round) {
    std::vector<std::thread> warm;
    for (int t = 0; t < server_threads; ++t) warm.emplace_back([&] { send_raw(port, largest); });
    for (std::thread& t : warm) t.join();
  }

  std::atomic<bool> stop{false};
  std::vector<double> rss_samples;
  std::thread monitor([&] {
    while (!stop.load()) {
      rss_samples.push_back(rss_mib(server.pid()));
      std::this_thread::sleep_for(rss_period);
    }
  });
  // Slow and idle clients for the whole run: sockets trickling a request head or a body a byte a
  // second, and sockets connected and silent (cpp-httplib gave each a thread of its 8: 20 such
  // kept GET /api/maps from being answered at all). Each reconnects when the server cuts it off
  // (--request-timeout); the requests above must be answered meanwhile.
  struct Attack {
    int sockets;
    std::string start;
    bool trickle;
  };
  const std::vector<Attack> attacks = {
      {20, "GET /api/maps HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", true},
      {10, "POST /api/path HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", true},
      {20, "", false}};
  std::atomic<std::size_t> attackers_cut{0};
  std::vector<std::thread> attackers;
  for (const Attack& attack : attacks) {
    attackers.emplace_back([&stop, &attackers_cut, port, attack] {
      const auto open_one = [&](int& fd) {
        fd = waymark::test::connect_to(port);
        if (fd >= 0 && !attack.start.empty()) send(fd, attack.start.data(), attack.start.size(), MSG_NOSIGNAL);
      };
      std::vector<int> fds(static_cast<std::size_t>(attack.sockets), -1);
      for (int& fd : fds) open_one(fd);
      while (!stop.load()) {
        for (int& fd : fds) {
          bool closed = fd < 0 || (attack.trickle && send(fd, "a", 1, MSG_NOSIGNAL) != 1);
          pollfd p{fd, POLLIN, 0};
          char c = 0;
          if (!closed && poll(&p, 1, 0) > 0) closed = recv(fd, &c, 1, MSG_DONTWAIT) <= 0;
          if (!closed) continue;
          if (fd >= 0) close(fd);
          ++attackers_cut;
          open_one(fd);
        }
        for (int step = 0; step < 20 && !stop.load(); ++step) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      for (const int fd : fds)
        if (fd >= 0) close(fd);
    });
  }

  // Two simulations of 1,000 agents stacked on one cell, each stepped 200 ticks a request
  // without pause for the whole run: a step stops at the API's max_sim_seconds (once 12-29 s
  // a step), so the requests above keep being answered.
  std::atomic<std::size_t> heavy_steps{0}, heavy_wrong{0};
  std::vector<std::thread> steppers;
  for (int s = 0; s < 2; ++s) {
    steppers.emplace_back([&] {
      json agents = json::array();
      for (int i = 0; i < 1000; ++i) agents.push_back({{"start", {10.5, 10.5}}, {"goal", {50.5, 50.5}}});
      const json map{{"width", 64}, {"height", 64}, {"rows", std::vector<std::string>(64, std::string(64, '.'))}};
      const HttpReply started = send_raw(port, http_post("/api/sim/start", json{{"map", map}, {"agents", agents}}.dump()));
      const json id = body_json(started).value("id", json());
      if (started.status != 200 || id.is_null()) {
        ++heavy_wrong;
        return;
      }
      while (!stop.load()) {
        const HttpReply r = send_raw(port, http_post("/api/sim/step", json{{"id", id}, {"ticks", 200}}.dump()));
        const json j = body_json(r);
        const bool right = r.status == 200 && j.is_object() && j.value("ticks_done", 0) >= 1;
        ++(right ? heavy_steps : heavy_wrong);
      }
      send_raw(port, http_post("/api/sim/stop", json{{"id", id}}.dump()));
    });
  }

  std::vector<Tally> tallies(static_cast<std::size_t>(clients));
  std::vector<std::thread> threads;
  const auto start = std::chrono::steady_clock::now();
  const auto end = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      std::mt19937_64 rng(static_cast<std::uint64_t>(c) + 1);
      Tally& tally = tallies[static_cast<std::size_t>(c)];
      while (std::chrono::steady_clock::now() < end) {
        int pick = static_cast<int>(rng() % static_cast<std::uint64_t>(total_weight));
        const Kind* kind = &kinds.front();
        for (const Kind& k : kinds) {
          if (pick < k.weight) {
            kind = &k;
            break;
          }
          pick -= k.weight;
        }
        const std::string raw = kind->request(rng);
        const auto t0 = std::chrono::steady_clock::now();
        const HttpReply reply = kind->expect_reply ? send_raw(port, raw) : waymark::test::send_and_hang_up(port, raw);
        tally.latency_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        if (kind->name == "maps" || kind->name == "page") tally.normal_ms.push_back(tally.latency_ms.back());
        ++tally.served[kind->name];
        if (kind->expect_reply && reply.status == 0 && !kind->reset_ok) {
          ++tally.connection_errors;
          continue;
        }
        const json body = body_json(reply);  // parsed once, for the check and the search time
        std::string why;
        bool right = false;
        try {  // a check reading an answer of the wrong shape must count it, not end the run
          right = kind->check(reply, body, why);
        } catch (const std::exception& e) {
          why = std::string("answer of the wrong shape: ") + e.what();
        }
        if (!right) ++tally.wrong[kind->name + ": " + why];
        if (const double ms = right ? search_ms(body) : -1; ms >= 0) {
          tally.first_byte_ms[kind->name].push_back(reply.first_byte_ms);
          tally.search_ms[kind->name].push_back(ms);
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stop = true;
  monitor.join();
  for (std::thread& t : attackers) t.join();
  for (std::thread& t : steppers) t.join();
  const bool alive = kill(server.pid(), 0) == 0;
  const int exit_code = alive ? server.interrupt() : -1;

  Tally all;
  for (const Tally& t : tallies) {
    all.latency_ms.insert(all.latency_ms.end(), t.latency_ms.begin(), t.latency_ms.end());
    all.normal_ms.insert(all.normal_ms.end(), t.normal_ms.begin(), t.normal_ms.end());
    for (const auto& [k, n] : t.served) all.served[k] += n;
    for (const auto& [k, n] : t.wrong) all.wrong[k] += n;
    for (const auto& [k, v] : t.first_byte_ms) all.first_byte_ms[k].insert(all.first_byte_ms[k].end(), v.begin(), v.end());
    for (const auto& [k, v] : t.search_ms) all.search_ms[k].insert(all.search_ms[k].end(), v.begin(), v.end());
    all.connection_errors += t.connection_errors;
  }
  const double rss_first = rss_samples.empty() ? 0 : rss_samples.front();
  // The working set: the most RSS of the run's first half (large replies leave the allocator's
  // arenas at different sizes from one moment to the next); a leak keeps growing past it.
  const double rss_warm = rss_samples.empty() ? 0
                                              : *std::max_element(rss_samples.begin(),
                                                                  rss_samples.begin() + static_cast<std::ptrdiff_t>((rss_samples.size() + 1) / 2));
  const double rss_last = rss_samples.empty() ? 0 : rss_samples.back();
  const double rss_max = rss_samples.empty() ? 0 : *std::max_element(rss_samples.begin(), rss_samples.end());
  // Under AddressSanitizer freed memory waits in its quarantine (256 MiB by default) before
  // reuse, so RSS climbs by design: reported there, judged only in the ordinary build.
#if defined(__SANITIZE_ADDRESS__)
  constexpr bool judge_rss = false;
#else
  constexpr bool judge_rss = true;
#endif
  const bool rss_flat = !judge_rss || (rss_last > 0 && rss_last <= rss_growth_factor * rss_warm + rss_slack_mib);
  std::size_t wrong_total = 0;
  for (const auto& [k, n] : all.wrong) wrong_total += n;
  const bool ok = alive && exit_code == 0 && wrong_total == 0 && all.connection_errors == 0 && rss_flat && heavy_wrong == 0;

  json served = all.served;
  json wrong = all.wrong;
  // Time to first byte against the search's own time, medians by kind: what the reply costs
  // beyond the search (parsing, serialising, any compression, the socket).
  json first_byte = json::object();
  for (const auto& [k, v] : all.first_byte_ms) {
    first_byte[k] = {{"answers", v.size()}, {"first_byte_p50_ms", percentile(v, 0.5)},
                     {"search_p50_ms", percentile(all.search_ms[k], 0.5)}};
  }
  const json summary = {{"clients", clients},
                        {"seconds", elapsed},
                        {"requests", all.latency_ms.size()},
                        {"requests_per_s", static_cast<double>(all.latency_ms.size()) / elapsed},
                        {"p50_ms", percentile(all.latency_ms, 0.50)},
                        {"p99_ms", percentile(all.latency_ms, 0.99)},
                        {"normal_requests", {{"count", all.normal_ms.size()}, {"p50_ms", percentile(all.normal_ms, 0.5)},
                                             {"max_ms", percentile(all.normal_ms, 1.0)}}},
                        {"slow_and_idle_sockets", {{"held", 50}, {"cut_off", attackers_cut.load()}}},
                        {"heavy_sim_steps", {{"answered", heavy_steps.load()}, {"wrong", heavy_wrong.load()}}},
                        {"served", served},
                        {"first_byte", first_byte},
                        {"wrong", wrong},
                        {"connection_errors", all.connection_errors},
                        {"rss_mib", {{"start", rss_first}, {"warm", rss_warm}, {"end", rss_last}, {"max", rss_max}}},
                        {"rss_flat", rss_flat},
                        {"rss_judged", judge_rss},
                        {"server_alive", alive},
                        {"server_exit", exit_code},
                        {"ok", ok}};
  if (as_json) {
    std::printf("%s\n", summary.dump().c_str());
  } else {
    std::printf("waymark serve under load: %d clients, %.1f s, %zu requests (%.0f/s), p50 %.2f ms, p99 %.2f ms\n",
                clients, elapsed, all.latency_ms.size(), static_cast<double>(all.latency_ms.size()) / elapsed,
                percentile(all.latency_ms, 0.50), percentile(all.latency_ms, 0.99));
    std::printf("  page and /api/maps GETs: %zu, p50 %.2f ms, max %.2f ms, beside 50 slow or idle sockets (%zu cut off and reopened)"
                " and two 1,000-agent simulations stepped without pause (%zu steps, %zu wrong)\n",
                all.normal_ms.size(), percentile(all.normal_ms, 0.5), percentile(all.normal_ms, 1.0), attackers_cut.load(),
                heavy_steps.load(), heavy_wrong.load());
    for (const auto& [k, n] : all.served) std::printf("  %-16s %8zu served\n", k.c_str(), n);
    std::printf("  time to first byte against search time (medians):\n");
    for (const auto& [k, f] : first_byte.items())
      std::printf("  %-16s %9.3f ms to first byte, %9.3f ms searching (%zu answers)\n", k.c_str(),
                  f["first_byte_p50_ms"].get<double>(), f["search_p50_ms"].get<double>(), f["answers"].get<std::size_t>());
    for (const auto& [k, n] : all.wrong) std::printf("  WRONG %s: %zu\n", k.c_str(), n);
    std::printf("  connection errors %zu; RSS MiB start %.1f, most in the first half %.1f, end %.1f, max %.1f (%s); server %s, exit %d\n",
                all.connection_errors, rss_first, rss_warm, rss_last, rss_max,
                !judge_rss ? "not judged under ASan" : rss_flat ? "flat" : "GROWING", alive ? "alive" : "DEAD", exit_code);
    std::printf("%s\n", ok ? "ok" : "FAILED");
  }
  return ok ? 0 : 1;
}
