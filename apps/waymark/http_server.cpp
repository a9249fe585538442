#include "http_server.hpp"

#include <microhttpd.h>
#include <netdb.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cctype>
#include <charconv>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <string_view>
#include <thread>
#include <vector>

#include "cli_support.hpp"
#include "waymark/core/text.hpp"
#include "web/api.hpp"
#include "web/http_status.hpp"
#include "web/http_target.hpp"

namespace waymark::cli {
// Named, not anonymous: HttpServer::State holds these types.
namespace http_server_detail {

using Clock = std::chrono::steady_clock;

/// How often the reaper looks for requests arriving too slowly.
constexpr auto reaper_period = std::chrono::milliseconds(250);
/// File descriptors kept out of the connection limit: the listening socket, the poll and
/// wake-up descriptors, files being read, the log.
constexpr unsigned reserved_descriptors = 64;
constexpr int listen_backlog = 128;
/// Seconds a 503's Retry-After asks a client to wait: bodies in flight are answered within a
/// request's time, and memory comes back as they are.
constexpr int retry_after_seconds = 1;
/// The only libmicrohttpd whose parsed request head HeadWalk knows how to read.
constexpr std::string_view known_head_layout = "0.9.75";

/// Replies made at start, sent when a request cannot get one of its own: they need no
/// allocation but libmicrohttpd's. {"error": ...}, as every other refusal.
constexpr std::string_view out_of_memory_text =
    R"json({"error":"the server is out of memory for the moment; try again (Retry-After)"})json";
constexpr std::string_view internal_error_text = R"json({"error":"the server failed to answer (an internal error)"})json";

/// A reply, before libmicrohttpd takes it.
struct Reply {
  int status = web::http_ok;
  std::string body;
  std::string type = "application/json";
  std::string encoding;  ///< "gzip" or empty
  bool vary = false;     ///< says Vary: Accept-Encoding (any mode but none)
  bool retry_after = false;  ///< says Retry-After: retry_after_seconds (a 503)
};

Reply json_error(int status, const std::string& why) {
  return {status, nlohmann::json{{"error", why}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json", {}, false, false};
}

/// Why a body does not fit the BodyBudget.
enum class OverBudget { none, server, client };

/// What every request body being read or answered holds, against HttpLimits::max_body_memory
/// for all of them and HttpLimits::max_client_body_share of it for one client's. Thread-safe:
/// the poll thread takes, workers give back.
class BodyBudget {
 public:
  /// A client may hold `client_share` of `limit`, and at least `one_body` (one largest body).
  BodyBudget(std::size_t limit, double client_share, std::size_t one_body)
      : limit_(limit),
        client_limit_(std::min(limit, std::max(one_body, client_share > 0 && client_share < 1
                                                             ? static_cast<std::size_t>(static_cast<double>(limit) * client_share)
                                                             : limit))) {}

  /// Takes `bytes` for `client` if they fit; else takes nothing and says which limit they are over.
  OverBudget take(const std::string& client, std::size_t bytes) {
    const std::lock_guard lock(mutex_);
    if (bytes > limit_ - used_) return OverBudget::server;
    std::size_t& own = clients_[client];
    if (bytes > client_limit_ - own) {
      if (own == 0) clients_.erase(client);
      return OverBudget::client;
    }
    own += bytes;
    used_ += bytes;
    return OverBudget::none;
  }
  /// Gives back `bytes` that `client` took.
  void give(const std::string& client, std::size_t bytes) noexcept {
    if (bytes == 0) return;
    const std::lock_guard lock(mutex_);
    used_ -= bytes;
    const auto it = clients_.find(client);
    if (it != clients_.end() && (it->second -= bytes) == 0) clients_.erase(it);
  }
  /// Why `bytes` more for `client` would not fit now, if they would not.
  [[nodiscard]] OverBudget check(const std::string& client, std::size_t bytes) const {
    const std::lock_guard lock(mutex_);
    if (bytes > limit_ - used_) return OverBudget::server;
    const auto it = clients_.find(client);
    return bytes > client_limit_ - (it == clients_.end() ? 0 : it->second) ? OverBudget::client : OverBudget::none;
  }
  [[nodiscard]] std::size_t limit() const { return limit_; }
  [[nodiscard]] std::size_t client_limit() const { return client_limit_; }

 private:
  std::size_t limit_;
  std::size_t client_limit_;
  mutable std::mutex mutex_;
  std::size_t used_ = 0;
  std::map<std::string, std::size_t> clients_;  ///< bytes held, by client address (none held: no entry)
};

/// One request, from its request line to its reply (libmicrohttpd's request context).
struct Exchange {
  std::string raw_target;  ///< as sent: percent-encoded, with the query
  /// Where libmicrohttpd held the target when it was logged, and its length then (a NUL in it
  /// ends it early): head_problem() checks the head around it. Compared, never dereferenced.
  const char* target_at = nullptr;
  web::Target target;
  std::string method;
  std::string body;
  std::size_t declared = 0;  ///< the body's Content-Length
  std::size_t charged = 0;   ///< bytes of body memory taken from the BodyBudget
  OverBudget over_budget = OverBudget::none;  ///< its body did not fit: dropped, answered 503
  /// Not 0: answer with the reply made at start for this status (503 out of memory, 500), the
  /// request's own could not be made.
  int fallback = 0;
  std::string remote;           ///< the client's address, numeric
  std::string accept_encoding;  ///< its Accept-Encoding header
  Clock::time_point started;
  bool head_read = false;   ///< the access handler has seen the head
  bool dispatched = false;  ///< handed to a worker
  std::atomic<bool> ready{false};  ///< the worker has set reply
  Reply reply;
  bool queued = false;  ///< handed to libmicrohttpd
  int status = 0;
  std::size_t bytes = 0;
};

/// One connection, for the reaper (libmicrohttpd's socket context).
struct Link {
  int fd = -1;
  Clock::time_point since;  ///< when its current request began to arrive
  bool busy = false;        ///< its request has arrived whole: it is being answered
  bool cut = false;         ///< shut down by the reaper
};

/// Threads that run jobs in the order they come.
class WorkQueue {
 public:
  explicit WorkQueue(int threads) {
    for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { run(); });
  }
  ~WorkQueue() { close(); }
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  /// false once closed: the job was not taken.
  bool submit(std::function<void()> job) {
    {
      const std::lock_guard lock(mutex_);
      if (closed_) return false;
      jobs_.push_back(std::move(job));
    }
    wake_.notify_one();
    return true;
  }
  /// Runs the jobs already taken, then ends the threads.
  void close() {
    {
      const std::lock_guard lock(mutex_);
      closed_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
  }

 private:
  void run() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return closed_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool closed_ = false;
  std::vector<std::thread> workers_;
};

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

/// The file type of `path` by its extension, as browsers expect it.
std::string content_type_of(const std::filesystem::path& path) {
  static const std::pair<std::string_view, std::string_view> types[] = {
      {".html", "text/html"},      {".js", "text/javascript"},  {".mjs", "text/javascript"}, {".css", "text/css"},
      {".json", "application/json"}, {".svg", "image/svg+xml"}, {".png", "image/png"},       {".ico", "image/x-icon"},
      {".txt", "text/plain"},      {".wasm", "application/wasm"}, {".map", "application/json"}};
  const std::string ext = lower(path.extension().string());
  for (const auto& [e, type] : types)
    if (e == ext) return std::string(type);
  return "application/octet-stream";
}

std::string header(MHD_Connection* c, const char* name) {
  const char* value = MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
  return value == nullptr ? std::string{} : std::string(value);
}

/// How often the request gives header `name` (case-insensitive).
unsigned header_count(MHD_Connection* c, std::string_view name) {
  struct Count {
    std::string_view name;
    unsigned n = 0;
  } count{name};
  MHD_get_connection_values_n(
      c, MHD_HEADER_KIND,
      [](void* cls, MHD_ValueKind, const char* key, std::size_t key_size, const char*, std::size_t) {
        auto* k = static_cast<Count*>(cls);
        k->n += key_size == k->name.size() && std::equal(k->name.begin(), k->name.end(), key, [](char a, char b) {
                  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
                });
        return MHD_YES;
      },
      &count);
  return count.n;
}

/// Reads a request head where libmicrohttpd 0.9.75 parsed it: the bytes [method, method +
/// header size) of its read buffer, where each line's CR LF became two NULs, the request
/// line's spaces and each header's ':' one NUL, and where every method, target, version, name
/// and value it hands on points into its line. Walked in order, each piece must start where
/// the one before it ended plus its separator. Compares addresses and reads no byte outside
/// the head.
class HeadWalk {
 public:
  HeadWalk(const char* method, std::size_t size) : begin_(at(method)), end_(at(method) + size) {}

  /// Why the head was not sent as RFC 9112 says, if it was not.
  std::optional<std::string> problem(MHD_Connection* c, const char* method, const char* version, const Exchange& x) {
    // The request line: METHOD SP TARGET SP VERSION CR LF.
    const std::size_t method_length = std::strlen(method);
    if (!inside(method, method_length + 1) || at(method) + method_length + 1 != at(x.target_at))
      return nul_in("the request line's method, or more than one space after it");
    if (!inside(x.target_at, x.raw_target.size() + 1) || at(x.target_at) + x.raw_target.size() + 1 != at(version))
      return nul_in("the request target");
    const std::size_t version_length = std::strlen(version);
    if (!inside(version, version_length)) return unreadable;
    line_ = version + version_length;
    what_ = "the request line";
    MHD_get_connection_values_n(
        c, MHD_HEADER_KIND,
        [](void* cls, MHD_ValueKind, const char* key, std::size_t key_size, const char* value, std::size_t value_size) {
          return static_cast<HeadWalk*>(cls)->header(key, key_size, value, value_size) ? MHD_YES : MHD_NO;
        },
        this);
    if (problem_) return problem_;
    // The blank line that ends the head: its CR LF after the last line's.
    const std::uintptr_t rest = end_ - at(line_);
    if (rest == 4) return std::nullopt;
    if (rest == 2 || rest == 3) return bare_lf;
    return nul_in(what_);
  }

 private:
  static constexpr const char* unreadable = "the request head could not be read";
  static constexpr const char* bare_lf = "a line of the request head ends with a bare LF (HTTP lines end with CR LF)";
  static constexpr const char* folded = "a header line of the request is folded onto the next (obs-fold)";
  static constexpr const char* bad_name =
      "a header name of the request is empty or holds a character outside a token (a space before the ':', say)";
  static constexpr const char* bare_cr = "a header value of the request holds a bare CR";

  static std::uintptr_t at(const char* p) { return reinterpret_cast<std::uintptr_t>(p); }
  static std::string nul_in(const char* what) { return std::string("the request head has a NUL byte in ") + what; }
  [[nodiscard]] bool inside(const char* p, std::size_t n) const { return at(p) >= begin_ && at(p) <= end_ && n <= end_ - at(p); }

  /// NAME ':' OWS VALUE CR LF, starting two bytes after the last line ended; false to stop.
  bool header(const char* key, std::size_t key_size, const char* value, std::size_t value_size) {
    if (!inside(key, key_size + 1) || value == nullptr || !inside(value, value_size)) {
      problem_ = folded;  // a folded line's name is copied out of the head
      return false;
    }
    if (at(key) != at(line_) + 2) {
      problem_ = at(key) == at(line_) + 1 ? std::string(bare_lf) : nul_in(what_);
      return false;
    }
    const char* p = key + key_size + 1;  // the ':' is the NUL after the name
    while (p < value && (*p == ' ' || *p == '\t')) ++p;
    if (key[key_size] != '\0' || p != value) {
      problem_ = folded;
      return false;
    }
    // RFC 9112 §5.1: no whitespace between the name and its colon; RFC 9110 §5.1, §5.5: a
    // name is a token, and a value holds no CR (a bare CR is no line end either).
    if (key_size == 0 || !std::all_of(key, key + key_size, token_char)) {
      problem_ = bad_name;
      return false;
    }
    if (std::find(value, value + value_size, '\r') != value + value_size) {
      problem_ = bare_cr;
      return false;
    }
    line_ = value + value_size;
    what_ = "a header value";
    return true;
  }

  /// tchar, RFC 9110 §5.6.2.
  static bool token_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') ||
           (u != 0 && std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos);
  }

  std::uintptr_t begin_;
  std::uintptr_t end_;
  const char* line_ = nullptr;  ///< where the last piece of the last line ended
  const char* what_ = "";       ///< what that piece was
  std::optional<std::string> problem_;
};

/// Why the request head was not sent as RFC 9112 says: a line ending in a bare LF, or a NUL
/// byte (RFC 9110 §5.5: a field value with a NUL is to be refused or the NUL replaced). Debian's
/// libmicrohttpd 0.9.75 takes both (a bare LF as a line end; a NUL ends the value or target, the
/// rest of it dropped unseen: "GET /index.html<NUL>.js" was index.html) and has no option to
/// refuse them (MHD_OPTION_CLIENT_DISCIPLINE_LVL came in 0.9.77), so the parsed head is checked
/// (HeadWalk). A folded header line (obs-fold, RFC 9112 §5.2 lets a server refuse it) is
/// refused too. A NUL right before a bare LF cannot be told from a CR LF (both are two NULs once
/// parsed): that one line passes. Only for the libmicrohttpd whose layout HeadWalk reads.
std::optional<std::string> head_problem(MHD_Connection* c, const char* method, const char* version, const Exchange& x) {
  const MHD_ConnectionInfo* size = MHD_get_connection_info(c, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
  if (size == nullptr || method == nullptr || version == nullptr || x.target_at == nullptr)
    return "the request head could not be read";
  return HeadWalk(method, size->header_size).problem(c, method, version, x);
}

std::string client_address(MHD_Connection* c) {
  const MHD_ConnectionInfo* info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info == nullptr || info->client_addr == nullptr) return "?";
  const sockaddr* addr = info->client_addr;
  const socklen_t length = addr->sa_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
  char text[NI_MAXHOST];
  if (getnameinfo(addr, length, text, sizeof text, nullptr, 0, NI_NUMERICHOST) != 0) return "?";
  return text;
}

Link* link_of(MHD_Connection* c) {
  const MHD_ConnectionInfo* info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info == nullptr ? nullptr : static_cast<Link*>(info->socket_context);
}

}  // namespace http_server_detail
using namespace http_server_detail;

struct HttpServer::State {
  const web::Api& api;
  std::filesystem::path root;
  web::Compression mode;
  HttpLimits limits;
  BodyBudget bodies;
  /// Whether head_problem() can read this libmicrohttpd's parsed heads (known_head_layout).
  bool check_heads = false;
  int listen_fd = -1;
  MHD_Daemon* daemon = nullptr;
  std::unique_ptr<WorkQueue> post_queue;
  std::unique_ptr<WorkQueue> get_queue;
  /// Made at start: sent when a request cannot get a reply of its own (fallback).
  MHD_Response* out_of_memory = nullptr;
  MHD_Response* internal_error = nullptr;

  std::mutex links_mutex;  ///< guards links and every Link's fields
  std::set<Link*> links;
  std::size_t cut_off = 0;
  std::mutex reaper_mutex;
  std::condition_variable reaper_wake;
  bool reaper_stop = false;
  std::thread reaper;

  State(const web::Api& a, std::filesystem::path r, web::Compression m, HttpLimits l)
      : api(a), root(std::move(r)), mode(m), limits(l), bodies(l.max_body_memory, l.max_client_body_share, l.max_body_bytes) {}

  /// `reply` in the encoding `x`'s client gets.
  Reply encoded(Reply reply, const Exchange& x) const {
    reply.vary = mode != web::Compression::none;
    if (web::use_gzip(mode, x.remote, x.accept_encoding, reply.body.size())) {
      reply.body = web::gzip(reply.body);
      reply.encoding = "gzip";
    }
    return reply;
  }

  /// 503: the bodies being read hold the budget, or this client's share of it.
  Reply over_budget(OverBudget why) const {
    const auto mib = [](std::size_t bytes) { return number_text(bytes >> 20) + " MiB"; };
    Reply r = json_error(web::http_unavailable,
                         why == OverBudget::client
                             ? "this client's request bodies hold as much memory as one client's may (" + mib(bodies.client_limit()) +
                                   ", a share of --max-body-memory); try again (Retry-After)"
                             : "the server's request bodies hold all the memory they may (" + mib(bodies.limit()) +
                                   ", --max-body-memory); try again (Retry-After)");
    r.retry_after = true;
    return r;
  }

  /// Why the request whose head is `x` is refused before its body is read, if it is.
  std::optional<Reply> refusal(MHD_Connection* c, Exchange& x, const char* method, const char* version) const {
    if (check_heads)
      if (std::optional<std::string> problem = head_problem(c, method, version, x)) return json_error(web::http_bad_request, *problem);
    web::TargetOrError parsed = web::parse_target(x.raw_target);
    if (!parsed.target) return json_error(web::http_bad_request, parsed.error);
    x.target = std::move(*parsed.target);
    const bool api_request = x.target.path.starts_with("/api/");
    if (!api_request && x.method != "GET" && x.method != "HEAD")
      return json_error(web::http_method_not_allowed, x.target.path + " is a file of the page: GET it, not " + x.method);
    if (const std::string coding = lower(header(c, "Content-Encoding")); !coding.empty() && coding != "identity")
      return json_error(web::http_unsupported_media_type,
                        "request bodies are taken as they are, without a Content-Encoding (got " + waymark::quoted(coding) + ")");
    if (!header(c, "Transfer-Encoding").empty())
      return json_error(web::http_length_required, "a request body needs a Content-Length (chunked bodies are not taken)");
    // libmicrohttpd reads the body by the first; RFC 9112 §6.3 makes differing ones a 400.
    // Equal ones are refused too (RFC 9110 §8.6 allows either): a length is stated once.
    if (const unsigned lengths = header_count(c, "Content-Length"); lengths > 1)
      return json_error(web::http_bad_request,
                        "the request gives Content-Length " + number_text(lengths) + " times; a body's length is stated once");
    const std::string length_text = header(c, "Content-Length");
    if (!length_text.empty()) {
      const auto [end, ec] = std::from_chars(length_text.data(), length_text.data() + length_text.size(), x.declared);
      if (ec != std::errc{} || end != length_text.data() + length_text.size() || x.declared > limits.max_body_bytes)
        return json_error(web::http_too_large, "request body over " + number_text(limits.max_body_bytes) + " bytes");
    }
    // A page from another site may POST text/plain to 127.0.0.1 without asking first; JSON
    // it may not send without a CORS preflight, which this server never grants.
    if (api_request && x.method == "POST" && !header(c, "Content-Type").starts_with("application/json"))
      return json_error(web::http_unsupported_media_type, "POST bodies must be sent as Content-Type: application/json");
    if (const OverBudget why = bodies.check(x.remote, x.declared); why != OverBudget::none) return over_budget(why);
    return std::nullopt;
  }

  /// Gives back what `x`'s body holds.
  void drop_body(Exchange& x) noexcept {
    std::string().swap(x.body);
    bodies.give(x.remote, std::exchange(x.charged, 0));
  }

  /// Appends a chunk of `x`'s body, growing it within its Content-Length (doubling, so that a
  /// body costs O(its size) in copies) and taking each growth from the budget first. Past the
  /// budget, or out of memory, the body is dropped and the rest of it will be read unkept.
  void take_chunk(Exchange& x, const char* chunk, std::size_t size) {
    if (x.over_budget != OverBudget::none || x.fallback != 0) return;
    const std::size_t needed = x.body.size() + size;
    if (needed > x.charged) {
      const std::size_t grown = std::min(x.declared, std::max(needed, 2 * x.charged));
      x.over_budget = bodies.take(x.remote, grown - x.charged);
      if (x.over_budget != OverBudget::none) {
        drop_body(x);
        return;
      }
      x.charged = grown;
      try {
        x.body.reserve(grown);
      } catch (const std::bad_alloc&) {
        x.fallback = web::http_unavailable;
        drop_body(x);
        return;
      }
    }
    x.body.append(chunk, size);
  }

  /// The file of the page that `path` names, if there is one.
  std::optional<std::filesystem::path> file_for(const std::string& path) const {
    std::string relative = path.substr(1);
    if (relative.empty() || relative.back() == '/') relative += "index.html";
    bool first = true;
    for (std::size_t begin = 0; begin <= relative.size();) {
      std::size_t end = relative.find('/', begin);
      if (end == std::string::npos) end = relative.size();
      const std::string_view segment(relative.data() + begin, end - begin);
      // No climbing out, no hidden files, not the page's own tests (and their node_modules).
      if (segment.empty() || segment.front() == '.' || (first && segment == "tests")) return std::nullopt;
      first = false;
      begin = end + 1;
    }
    std::error_code ec;
    const std::filesystem::path file = std::filesystem::canonical(root / relative, ec);
    if (ec || !std::filesystem::is_regular_file(file, ec)) return std::nullopt;
    const auto [r, f] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
    if (r != root.end()) return std::nullopt;  // a link out of the folder
    return file;
  }

  /// The answer to a request that has arrived whole (on a worker thread); the API's request
  /// takes its body over (no copy of it).
  Reply answer(Exchange& x) const {
    if (x.target.path.starts_with("/api/")) {
      web::Request request{x.method, x.target.path, x.target.params, std::move(x.body), x.remote};
      web::Response response = api.handle(request);
      const bool busy = response.status == web::http_unavailable;  // the API ran out of memory: every 503 says when to retry
      return {response.status, std::move(response.body), "application/json", {}, false, busy};
    }
    const auto file = file_for(x.target.path);
    if (!file) return json_error(web::http_not_found, "no such file or API: " + x.target.path);
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(*file, ec);
    if (ec || size > limits.max_file_bytes) return json_error(web::http_internal_error, "cannot send " + x.target.path);
    std::ifstream in(*file, std::ios::binary);
    std::string contents(static_cast<std::size_t>(size), '\0');
    if (!in.read(contents.data(), static_cast<std::streamsize>(size))) return json_error(web::http_internal_error, "cannot read " + x.target.path);
    return {web::http_ok, std::move(contents), content_type_of(*file), {}, false, false};
  }

  /// Answers `x` (on a worker thread, or the poll thread when stopping) and gives its body
  /// back; never throws: out of memory is the 503 made at start, anything else the 500.
  void answer_into(Exchange& x) noexcept {
    try {
      x.reply = encoded(answer(x), x);
    } catch (const std::bad_alloc&) {
      x.fallback = web::http_unavailable;
    } catch (...) {
      x.fallback = web::http_internal_error;
    }
    drop_body(x);
  }

  /// Hands `x`'s reply to libmicrohttpd.
  MHD_Result queue(MHD_Connection* c, Exchange& x) {
    auto* owned = new std::string(std::move(x.reply.body));
    MHD_Response* response = MHD_create_response_from_buffer_with_free_callback_cls(
        owned->size(), owned->data(), [](void* text) { delete static_cast<std::string*>(text); }, owned);
    if (response == nullptr) {
      delete owned;
      return MHD_NO;
    }
    MHD_add_response_header(response, "Content-Type", x.reply.type.c_str());
    if (!x.reply.encoding.empty()) MHD_add_response_header(response, "Content-Encoding", x.reply.encoding.c_str());
    if (x.reply.vary) MHD_add_response_header(response, "Vary", "Accept-Encoding");
    if (x.reply.retry_after) MHD_add_response_header(response, "Retry-After", number_text(retry_after_seconds).c_str());
    x.queued = true;
    x.status = x.reply.status;
    x.bytes = owned->size();
    const MHD_Result done = MHD_queue_response(c, static_cast<unsigned>(x.reply.status), response);
    MHD_destroy_response(response);
    return done;
  }

  /// Hands libmicrohttpd the reply made at start for `status` (503 out of memory, else 500);
  /// MHD_NO (the connection is closed) where it cannot be sent now. Allocates nothing of ours.
  MHD_Result queue_fallback(MHD_Connection* c, Exchange* x, int status) noexcept {
    const bool oom = status == web::http_unavailable;
    MHD_Response* response = oom ? out_of_memory : internal_error;
    if (response == nullptr) return MHD_NO;
    if (x != nullptr) {
      x->queued = true;
      x->status = oom ? web::http_unavailable : web::http_internal_error;
      x->bytes = (oom ? out_of_memory_text : internal_error_text).size();
    }
    return MHD_queue_response(c, static_cast<unsigned>(oom ? web::http_unavailable : web::http_internal_error), response);
  }

  void set_busy(MHD_Connection* c, bool busy) noexcept {
    Link* link = link_of(c);
    if (link == nullptr) return;
    const std::lock_guard lock(links_mutex);
    link->busy = busy;
    if (!busy) link->since = Clock::now();
  }

  /// libmicrohttpd's access handler: called with the head, with each chunk of the body, and
  /// when the request has arrived whole. No exception leaves it.
  MHD_Result on_request(MHD_Connection* c, const char* method, const char* version, const char* upload, std::size_t* upload_size,
                        void** context) noexcept {
    auto* x = static_cast<Exchange*>(*context);
    try {
      return handle(c, x, method, version, upload, upload_size);
    } catch (const std::bad_alloc&) {
      return refuse_now(c, x, upload_size, web::http_unavailable);
    } catch (...) {
      return refuse_now(c, x, upload_size, web::http_internal_error);
    }
  }

  /// A request that cannot go on: answered with the reply made at start for `status`, now if
  /// it may be (its head, or all of it, has arrived), else once the rest of its body has been
  /// read and dropped.
  MHD_Result refuse_now(MHD_Connection* c, Exchange* x, std::size_t* upload_size, int status) noexcept {
    if (x == nullptr) return queue_fallback(c, nullptr, status);
    drop_body(*x);
    x->fallback = status;
    if (*upload_size > 0) {
      *upload_size = 0;
      return MHD_YES;
    }
    return queue_fallback(c, x, status);
  }

  MHD_Result handle(MHD_Connection* c, Exchange* x, const char* method, const char* version, const char* upload,
                    std::size_t* upload_size) {
    if (x == nullptr) return queue_fallback(c, nullptr, web::http_unavailable);  // on_target could not make one
    if (!x->head_read) {
      x->head_read = true;
      x->method = method;
      x->started = Clock::now();
      x->remote = client_address(c);
      x->accept_encoding = header(c, "Accept-Encoding");
      if (std::optional<Reply> refused = refusal(c, *x, method, version)) {
        x->reply = encoded(std::move(*refused), *x);
        return queue(c, *x);
      }
      return MHD_YES;
    }
    if (*upload_size > 0) {  // never more than the Content-Length, which refusal() checked
      take_chunk(*x, upload, *upload_size);
      *upload_size = 0;
      return MHD_YES;
    }
    if (x->fallback != 0 && !x->dispatched) return queue_fallback(c, x, x->fallback);
    if (x->over_budget != OverBudget::none) {
      x->reply = encoded(over_budget(x->over_budget), *x);
      return queue(c, *x);
    }
    if (x->ready.load()) return x->fallback != 0 ? queue_fallback(c, x, x->fallback) : queue(c, *x);
    if (x->dispatched) return MHD_YES;
    // Suspended first, so that the worker's resume cannot come before it; from here nothing
    // throws: a job the queue cannot take is run here.
    x->dispatched = true;
    set_busy(c, true);
    MHD_suspend_connection(c);
    WorkQueue& queue = x->method == "POST" ? *post_queue : *get_queue;
    const auto job = [this, x, c]() noexcept {
      answer_into(*x);
      x->ready.store(true);
      MHD_resume_connection(c);
    };
    bool taken = false;
    try {
      taken = queue.submit(job);
    } catch (...) {
    }
    if (!taken) job();  // stopping, or out of memory: answered here
    return MHD_YES;
  }

  void on_completed(MHD_Connection* c, void** context) noexcept {
    auto* x = static_cast<Exchange*>(*context);
    *context = nullptr;
    if (x != nullptr && x->queued) {
      try {
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - x->started).count();
        // Decoded (or as sent, when it could not be): control characters would forge log lines.
        std::string path = x->target.path.empty() ? x->raw_target : x->target.path;
        std::replace_if(path.begin(), path.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x20; }, '?');
        const std::string time = waymark::number_text(std::round(ms * 100) / 100);
        std::fprintf(stderr, "%s \"%s %s\" %d %zu %s ms\n", x->remote.c_str(), x->method.c_str(), path.c_str(), x->status,
                     x->bytes, time.c_str());
      } catch (...) {  // out of memory for the log line: the request goes unlogged
      }
    }
    if (x != nullptr) drop_body(*x);
    delete x;
    set_busy(c, false);
  }

  void on_connection(MHD_Connection* c, void** context, MHD_ConnectionNotificationCode code) noexcept {
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
      const MHD_ConnectionInfo* info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
      Link* link = new (std::nothrow) Link{info == nullptr ? -1 : info->connect_fd, Clock::now(), false, false};
      if (link == nullptr) return;  // out of memory: the reaper does not see it; the idle timeout still ends it
      const std::lock_guard lock(links_mutex);
      try {
        links.insert(link);
        *context = link;
      } catch (...) {
        delete link;
      }
      return;
    }
    // Told before libmicrohttpd closes the socket: under the lock, the reaper never shuts down
    // a descriptor that has been closed (and perhaps reused).
    auto* link = static_cast<Link*>(*context);
    *context = nullptr;
    const std::lock_guard lock(links_mutex);
    links.erase(link);
    delete link;
  }

  /// Cuts off connections whose request has taken longer than request_timeout to arrive.
  void reap() {
    std::unique_lock wait_lock(reaper_mutex);
    while (!reaper_wake.wait_for(wait_lock, reaper_period, [this] { return reaper_stop; })) {
      const Clock::time_point now = Clock::now();
      const std::lock_guard lock(links_mutex);
      for (Link* link : links) {
        if (link->busy || link->cut || link->fd < 0 || now - link->since <= limits.request_timeout) continue;
        shutdown(link->fd, SHUT_RDWR);  // libmicrohttpd sees the end and closes it
        link->cut = true;
        ++cut_off;
      }
    }
  }
};

std::string url_host(const std::string& host) {
  return host.find(':') != std::string::npos && host.front() != '[' ? "[" + host + "]" : host;
}

HttpServer::HttpServer(const web::Api& api, std::filesystem::path web_root, web::Compression mode, HttpLimits limits)
    : state_(std::make_unique<State>(api, std::move(web_root), mode, limits)) {
  if (limits.max_body_memory < limits.max_body_bytes)
    throw UsageError("the body memory (" + number_text(limits.max_body_memory) + " bytes) is less than one largest body (" +
                     number_text(limits.max_body_bytes) + " bytes)");
}

HttpServer::~HttpServer() {
  stop();
  if (state_->listen_fd >= 0) close(state_->listen_fd);
}

int HttpServer::listen(const std::string& host, int port) {
  const std::string where = url_host(host) + (port == 0 ? std::string{} : ":" + number_text(port));
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), number_text(port).c_str(), &hints, &found) != 0 || found == nullptr)
    throw UsageError("cannot listen on " + where + " (not an address here)");
  const int fd = socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC, found->ai_protocol);
  // SO_REUSEADDR only: SO_REUSEPORT would let a second server bind the same port without an error.
  const int yes = 1;
  const bool bound = fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes) == 0 &&
                     bind(fd, found->ai_addr, found->ai_addrlen) == 0 && ::listen(fd, listen_backlog) == 0;
  freeaddrinfo(found);
  if (!bound) {
    if (fd >= 0) close(fd);
    throw UsageError("cannot listen on " + where + " (in use, or not an address here)");
  }
  sockaddr_storage addr{};
  socklen_t length = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length);
  state_->listen_fd = fd;
  return ntohs(addr.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port
                                          : reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
}

void HttpServer::start() {
  State& s = *state_;
  if (s.listen_fd < 0) throw UsageError("the server has no socket to listen on");
  // Room for the connections: the soft file limit raised to the hard one.
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    getrlimit(RLIMIT_NOFILE, &files);
    const rlim_t room = files.rlim_cur > reserved_descriptors * 2 ? files.rlim_cur - reserved_descriptors : reserved_descriptors;
    s.limits.max_connections = static_cast<unsigned>(std::min<rlim_t>(s.limits.max_connections, room));
  }
  s.post_queue = std::make_unique<WorkQueue>(s.limits.post_threads);
  s.get_queue = std::make_unique<WorkQueue>(s.limits.get_threads);
  s.reaper = std::thread([&s] { s.reap(); });
  s.check_heads = std::string_view(MHD_get_version()) == known_head_layout;
  if (!s.check_heads)
    std::fprintf(stderr, "waymark: libmicrohttpd %s, not %s: request heads are not checked for bare LFs and NULs\n",
                 MHD_get_version(), std::string(known_head_layout).c_str());
  const auto prepared = [](std::string_view text, bool retry) {
    MHD_Response* r = MHD_create_response_from_buffer(text.size(), const_cast<char*>(text.data()), MHD_RESPMEM_PERSISTENT);
    if (r == nullptr) return r;
    MHD_add_response_header(r, "Content-Type", "application/json");
    if (retry) MHD_add_response_header(r, "Retry-After", number_text(retry_after_seconds).c_str());
    return r;
  };
  s.out_of_memory = prepared(out_of_memory_text, true);
  s.internal_error = prepared(internal_error_text, false);
  using Access = MHD_Result (*)(void*, MHD_Connection*, const char*, const char*, const char*, const char*, std::size_t*, void**);
  const Access access = [](void* cls, MHD_Connection* c, const char*, const char* method, const char* version, const char* upload,
                           std::size_t* upload_size, void** context) {
    return static_cast<State*>(cls)->on_request(c, method, version, upload, upload_size, context);
  };
  using OnTarget = void* (*)(void*, const char*, MHD_Connection*);
  const OnTarget on_target = [](void*, const char* uri, MHD_Connection*) -> void* {
    // Out of memory: no exchange, and the access handler answers the 503 made at start.
    auto* x = new (std::nothrow) Exchange;
    if (x == nullptr) return nullptr;
    try {
      x->raw_target = uri == nullptr ? "" : uri;
      x->target_at = uri;
    } catch (...) {
      delete x;
      return nullptr;
    }
    return x;
  };
  const MHD_RequestCompletedCallback completed = [](void* cls, MHD_Connection* c, void** context, MHD_RequestTerminationCode) {
    static_cast<State*>(cls)->on_completed(c, context);
  };
  const MHD_NotifyConnectionCallback connection = [](void* cls, MHD_Connection* c, void** context,
                                                     MHD_ConnectionNotificationCode code) {
    static_cast<State*>(cls)->on_connection(c, context, code);
  };
  s.limits.max_client_connections = std::min(s.limits.max_client_connections, s.limits.max_connections);
  s.daemon = MHD_start_daemon(
      MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME, 0, nullptr, nullptr, access, &s, MHD_OPTION_LISTEN_SOCKET,
      static_cast<MHD_socket>(s.listen_fd), MHD_OPTION_CONNECTION_MEMORY_LIMIT, static_cast<std::size_t>(s.limits.max_head_bytes),
      MHD_OPTION_CONNECTION_LIMIT, s.limits.max_connections, MHD_OPTION_PER_IP_CONNECTION_LIMIT, s.limits.max_client_connections,
      MHD_OPTION_CONNECTION_TIMEOUT, static_cast<unsigned>(s.limits.idle_timeout.count()), MHD_OPTION_URI_LOG_CALLBACK, on_target,
      nullptr, MHD_OPTION_NOTIFY_COMPLETED, completed, &s, MHD_OPTION_NOTIFY_CONNECTION, connection, &s, MHD_OPTION_END);
  if (s.daemon == nullptr) {
    stop();
    throw UsageError("the HTTP server could not start");
  }
}

void HttpServer::stop() {
  State& s = *state_;
  if (s.daemon != nullptr) MHD_quiesce_daemon(s.daemon);  // no new connections
  // Answer what has been read: each job resumes its connection, which the poll thread sends.
  if (s.post_queue) s.post_queue->close();
  if (s.get_queue) s.get_queue->close();
  if (s.daemon != nullptr) MHD_stop_daemon(s.daemon);
  s.daemon = nullptr;
  for (MHD_Response** r : {&s.out_of_memory, &s.internal_error}) {
    if (*r != nullptr) MHD_destroy_response(*r);
    *r = nullptr;
  }
  if (s.reaper.joinable()) {
    {
      const std::lock_guard lock(s.reaper_mutex);
      s.reaper_stop = true;
    }
    s.reaper_wake.notify_all();
    s.reaper.join();
  }
}

std::size_t HttpServer::cut_off() const {
  const std::lock_guard lock(state_->links_mutex);
  return state_->cut_off;
}

}  // namespace waymark::cli
