#include "http_server.hpp"

#include <microhttpd.h>
#include <netdb.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>
#include <thread>
#include <vector>

#include "cli_support.hpp"
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

/// A reply, before libmicrohttpd takes it.
struct Reply {
  int status = web::http_ok;
  std::string body;
  std::string type = "application/json";
  std::string encoding;  ///< "gzip" or empty
  bool vary = false;     ///< says Vary: Accept-Encoding (any mode but none)
};

Reply json_error(int status, const std::string& why) {
  return {status, nlohmann::json{{"error", why}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json", {}, false};
}

/// One request, from its request line to its reply (libmicrohttpd's request context).
struct Exchange {
  std::string raw_target;  ///< as sent: percent-encoded, with the query
  web::Target target;
  std::string method;
  std::string body;
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
  int listen_fd = -1;
  MHD_Daemon* daemon = nullptr;
  std::unique_ptr<WorkQueue> post_queue;
  std::unique_ptr<WorkQueue> get_queue;

  std::mutex links_mutex;  ///< guards links and every Link's fields
  std::set<Link*> links;
  std::size_t cut_off = 0;
  std::mutex reaper_mutex;
  std::condition_variable reaper_wake;
  bool reaper_stop = false;
  std::thread reaper;

  State(const web::Api& a, std::filesystem::path r, web::Compression m, HttpLimits l)
      : api(a), root(std::move(r)), mode(m), limits(l) {}

  /// `reply` in the encoding `x`'s client gets.
  Reply encoded(Reply reply, const Exchange& x) const {
    reply.vary = mode != web::Compression::none;
    if (web::use_gzip(mode, x.remote, x.accept_encoding, reply.body.size())) {
      reply.body = web::gzip(reply.body);
      reply.encoding = "gzip";
    }
    return reply;
  }

  /// Why the request whose head is `x` is refused before its body is read, if it is.
  std::optional<Reply> refusal(MHD_Connection* c, Exchange& x) const {
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
    const std::string length_text = header(c, "Content-Length");
    std::size_t length = 0;
    if (!length_text.empty()) {
      const auto [end, ec] = std::from_chars(length_text.data(), length_text.data() + length_text.size(), length);
      if (ec != std::errc{} || end != length_text.data() + length_text.size() || length > limits.max_body_bytes)
        return json_error(web::http_too_large, "request body over " + std::to_string(limits.max_body_bytes) + " bytes");
    }
    // A page from another site may POST text/plain to 127.0.0.1 without asking first; JSON
    // it may not send without a CORS preflight, which this server never grants.
    if (api_request && x.method == "POST" && !header(c, "Content-Type").starts_with("application/json"))
      return json_error(web::http_unsupported_media_type, "POST bodies must be sent as Content-Type: application/json");
    x.body.reserve(length);
    return std::nullopt;
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

  /// The answer to a request that has arrived whole (on a worker thread).
  Reply answer(const Exchange& x) const {
    if (x.target.path.starts_with("/api/")) {
      web::Request request{x.method, x.target.path, x.target.params, x.body};
      web::Response response = api.handle(request);
      return {response.status, std::move(response.body), "application/json", {}, false};
    }
    const auto file = file_for(x.target.path);
    if (!file) return json_error(web::http_not_found, "no such file or API: " + x.target.path);
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(*file, ec);
    if (ec || size > limits.max_file_bytes) return json_error(web::http_internal_error, "cannot send " + x.target.path);
    std::ifstream in(*file, std::ios::binary);
    std::string contents(static_cast<std::size_t>(size), '\0');
    if (!in.read(contents.data(), static_cast<std::streamsize>(size))) return json_error(web::http_internal_error, "cannot read " + x.target.path);
    return {web::http_ok, std::move(contents), content_type_of(*file), {}, false};
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
    x.queued = true;
    x.status = x.reply.status;
    x.bytes = owned->size();
    const MHD_Result done = MHD_queue_response(c, static_cast<unsigned>(x.reply.status), response);
    MHD_destroy_response(response);
    return done;
  }

  void set_busy(MHD_Connection* c, bool busy) {
    Link* link = link_of(c);
    if (link == nullptr) return;
    const std::lock_guard lock(links_mutex);
    link->busy = busy;
    if (!busy) link->since = Clock::now();
  }

  MHD_Result on_request(MHD_Connection* c, const char* method, const char* upload, std::size_t* upload_size, void** context) {
    auto* x = static_cast<Exchange*>(*context);
    if (x == nullptr) return MHD_NO;  // every request gets one from on_target
    if (!x->head_read) {
      x->head_read = true;
      x->method = method;
      x->started = Clock::now();
      x->remote = client_address(c);
      x->accept_encoding = header(c, "Accept-Encoding");
      if (std::optional<Reply> refused = refusal(c, *x)) {
        x->reply = encoded(std::move(*refused), *x);
        return queue(c, *x);
      }
      return MHD_YES;
    }
    if (*upload_size > 0) {  // never more than the Content-Length, which refusal() checked
      if (x->body.size() + *upload_size > limits.max_body_bytes) return MHD_NO;  // closes the connection
      x->body.append(upload, *upload_size);
      *upload_size = 0;
      return MHD_YES;
    }
    if (x->ready.load()) return queue(c, *x);
    if (x->dispatched) return MHD_YES;
    x->dispatched = true;
    set_busy(c, true);
    MHD_suspend_connection(c);
    const auto job = [this, x, c] {
      x->reply = encoded(answer(*x), *x);
      x->ready.store(true);
      MHD_resume_connection(c);
    };
    WorkQueue& queue = x->method == "POST" ? *post_queue : *get_queue;
    if (!queue.submit(job)) job();  // stopping: answered here
    return MHD_YES;
  }

  void on_completed(MHD_Connection* c, void** context) {
    auto* x = static_cast<Exchange*>(*context);
    *context = nullptr;
    if (x != nullptr && x->queued) {
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - x->started).count();
      // Decoded (or as sent, when it could not be): control characters would forge log lines.
      std::string path = x->target.path.empty() ? x->raw_target : x->target.path;
      std::replace_if(path.begin(), path.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x20; }, '?');
      std::fprintf(stderr, "%s \"%s %s\" %d %zu %.2f ms\n", x->remote.c_str(), x->method.c_str(), path.c_str(), x->status,
                   x->bytes, ms);
    }
    delete x;
    set_busy(c, false);
  }

  void on_connection(MHD_Connection* c, void** context, MHD_ConnectionNotificationCode code) {
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
      const MHD_ConnectionInfo* info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
      auto* link = new Link{info == nullptr ? -1 : info->connect_fd, Clock::now(), false, false};
      const std::lock_guard lock(links_mutex);
      links.insert(link);
      *context = link;
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
    : state_(std::make_unique<State>(api, std::move(web_root), mode, limits)) {}

HttpServer::~HttpServer() {
  stop();
  if (state_->listen_fd >= 0) close(state_->listen_fd);
}

int HttpServer::listen(const std::string& host, int port) {
  const std::string where = url_host(host) + (port == 0 ? std::string{} : ":" + std::to_string(port));
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || found == nullptr)
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
  using Access = MHD_Result (*)(void*, MHD_Connection*, const char*, const char*, const char*, const char*, std::size_t*, void**);
  const Access access = [](void* cls, MHD_Connection* c, const char*, const char* method, const char*, const char* upload,
                           std::size_t* upload_size, void** context) {
    return static_cast<State*>(cls)->on_request(c, method, upload, upload_size, context);
  };
  using OnTarget = void* (*)(void*, const char*, MHD_Connection*);
  const OnTarget on_target = [](void*, const char* uri, MHD_Connection*) -> void* {
    auto* x = new Exchange;
    x->raw_target = uri;
    return x;
  };
  const MHD_RequestCompletedCallback completed = [](void* cls, MHD_Connection* c, void** context, MHD_RequestTerminationCode) {
    static_cast<State*>(cls)->on_completed(c, context);
  };
  const MHD_NotifyConnectionCallback connection = [](void* cls, MHD_Connection* c, void** context,
                                                     MHD_ConnectionNotificationCode code) {
    static_cast<State*>(cls)->on_connection(c, context, code);
  };
  s.daemon = MHD_start_daemon(
      MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME, 0, nullptr, nullptr, access, &s, MHD_OPTION_LISTEN_SOCKET,
      static_cast<MHD_socket>(s.listen_fd), MHD_OPTION_CONNECTION_MEMORY_LIMIT, static_cast<std::size_t>(s.limits.max_head_bytes),
      MHD_OPTION_CONNECTION_LIMIT, s.limits.max_connections, MHD_OPTION_CONNECTION_TIMEOUT,
      static_cast<unsigned>(s.limits.idle_timeout.count()), MHD_OPTION_URI_LOG_CALLBACK, on_target, nullptr,
      MHD_OPTION_NOTIFY_COMPLETED, completed, &s, MHD_OPTION_NOTIFY_CONNECTION, connection, &s, MHD_OPTION_END);
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
