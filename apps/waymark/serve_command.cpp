#include "serve_command.hpp"

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli_support.hpp"
#include "web/api.hpp"
#include "web/encoding.hpp"

namespace waymark::cli {
namespace {

/// A host as a URL writes it: an IPv6 address (it has colons) in brackets, "[::1]" (RFC 3986).
std::string url_host(const std::string& host) {
  return host.find(':') != std::string::npos && host.front() != '[' ? "[" + host + "]" : host;
}

/// Threads answering requests when --threads is not given: enough that a slow query does not
/// hold up the page's other requests.
constexpr int default_server_threads = 8;
/// Most worker threads --threads accepts.
constexpr int max_server_threads = 256;
constexpr int max_port = 65535;
constexpr int http_ok = 200;
constexpr int http_partial_content = 206;
constexpr int http_bad_request = 400;
constexpr int http_unsupported_media_type = 415;
constexpr int http_range_not_satisfiable = 416;
/// How long a connection may wait between reads or writes before the server drops it.
constexpr std::chrono::seconds socket_timeout{10};

/// The time a worker thread started on its current request (for the log line).
thread_local std::chrono::steady_clock::time_point request_started;

/// Waits for SIGINT or SIGTERM on a thread of its own and stops the server: the listening
/// thread then returns from listen() and the process ends normally. The signals are blocked
/// in every other thread (the mask is set before any is started, and inherited).
class StopOnSignal {
 public:
  explicit StopOnSignal(httplib::Server& server) {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGINT);
    sigaddset(&signals_, SIGTERM);
    sigaddset(&signals_, SIGUSR1);  // sent by the destructor: stop waiting
    pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
    waiter_ = std::thread([this, &server] {
      int signal = 0;
      sigwait(&signals_, &signal);
      if (signal == SIGUSR1) return;
      std::cerr << "waymark: stopping (signal " << signal << ")\n";
      // stop() does nothing before listen has started: a signal that comes that early waits.
      while (!server.is_running() && !finished_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      server.stop();
    });
  }
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;
  ~StopOnSignal() {
    finished_ = true;
    pthread_kill(waiter_.native_handle(), SIGUSR1);
    waiter_.join();
  }

 private:
  std::atomic<bool> finished_{false};  ///< listen has returned: nothing left to stop
  sigset_t signals_{};
  std::thread waiter_;
};

/// Whether the byte ranges a request asks for can be cut from a reply of `size` bytes: one range,
/// inside the reply. httplib cuts a reply sent through a content provider with no check of its
/// own (detail::get_range_offset_and_length), and sends every range of a multi-range request
/// as a part of its own, so the server answers anything else with 416. httplib's ranges are
/// (first, last) byte positions, -1 where the request gave none.
bool ranges_fit(const httplib::Ranges& ranges, std::size_t size) {
  if (ranges.empty()) return true;
  if (ranges.size() > 1) return false;
  const auto [first, last] = ranges.front();
  const auto n = static_cast<ssize_t>(size);
  if (first == -1 && last == -1) return true;  // "bytes=-": all of it
  if (first == -1) return last > 0;             // the last `last` bytes (all of them when it is more)
  return first < n && (last == -1 || last < n);
}

/// Answers with `body` as `type`, gzip-compressed when web::use_gzip says so for this client.
/// Sent through a content provider of known length, which cpp-httplib never compresses: left to
/// itself it would Brotli-compress every text and JSON reply at quality 11 (web/encoding.hpp).
/// A byte range is served from the reply as sent (206), one outside it or several with 416.
void send(const httplib::Request& req, httplib::Response& res, std::string body, const std::string& type,
          web::Compression mode) {
  res.body.clear();
  for (const char* header : {"Content-Type", "Content-Encoding", "Content-Range", "Vary"}) res.headers.erase(header);
  if (mode != web::Compression::none) res.set_header("Vary", "Accept-Encoding");
  if (web::use_gzip(mode, req.remote_addr, req.get_header_value("Accept-Encoding"), body.size())) {
    body = web::gzip(body);
    res.set_header("Content-Encoding", "gzip");
  }
  const std::string content_type = type.empty() ? "text/plain" : type;  // httplib's own default
  if (!ranges_fit(req.ranges, body.size())) {
    res.status = http_range_not_satisfiable;
    res.headers.erase("Content-Encoding");
    res.set_header("Content-Range", "bytes */" + std::to_string(body.size()));
    return;
  }
  if (!req.ranges.empty() && res.status == http_ok) res.status = http_partial_content;
  if (body.empty()) {  // a provider needs a length above zero; nothing to cut or compress
    res.set_header("Content-Type", content_type);
    return;
  }
  const auto shared = std::make_shared<const std::string>(std::move(body));
  res.set_content_provider(shared->size(), content_type,
                           [shared](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
                             if (offset >= shared->size()) return false;  // ranges_fit keeps httplib inside
                             return sink.write(shared->data() + offset, std::min(length, shared->size() - offset));
                           });
}

std::filesystem::path folder_arg(const std::string& given, const char* built_in, const char* what) {
  const std::filesystem::path dir = given.empty() ? std::filesystem::path(built_in) : std::filesystem::path(given);
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throw UsageError(std::string(what) + " " + dir.string() + " is not a folder");
  return std::filesystem::canonical(dir);
}

}  // namespace

CLI::App* add_serve_command(CLI::App& app, ServeArgs& a) {
  CLI::App* cmd = app.add_subcommand("serve", "serve the web viewer and its JSON API (Ctrl-C stops)");
  cmd->add_option("--port,-p", a.port, "TCP port (0: any free one, printed)")->capture_default_str();
  cmd->add_option("--host", a.host, "address to listen on (0.0.0.0: every interface)")->capture_default_str();
  cmd->add_option("--data", a.data, "folder with maps/ (bundled Moving AI maps); default: the repository's data/");
  cmd->add_option("--web", a.web, "folder with the page (index.html); default: the repository's web/");
  cmd->add_option("--threads", a.threads, "worker threads (default 8)");
  cmd->add_option("--compress", a.compress,
                  "reply encoding: auto (none to loopback clients, gzip level 1 to others that accept it), none, gzip")
      ->capture_default_str();
  return cmd;
}

int run_serve(const ServeArgs& a) {
  return guarded([&] {
    checked_count(a.port, 0, max_port, "--port");
    checked_count(a.threads, 0, max_server_threads, "--threads (0: the default, 8)");
    const auto compress = value_of(web::compression_names, a.compress);
    if (!compress) throw UsageError("--compress must be " + choices(web::compression_names) + ", got " + waymark::quoted(a.compress));
    const std::filesystem::path data = folder_arg(a.data, WAYMARK_DATA_DIR, "--data");
    const std::filesystem::path web = folder_arg(a.web, WAYMARK_WEB_DIR, "--web");
    if (!std::filesystem::is_regular_file(web / "index.html"))
      throw UsageError("--web " + web.string() + " has no index.html");
    const web::Api api(data);

    httplib::Server server;
    const int threads = a.threads == 0 ? default_server_threads : a.threads;
    server.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<std::size_t>(threads)); };
    server.set_payload_max_length(api.limits().max_body_bytes);
    // SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, which lets a second server bind
    // the same port without an error.
    server.set_socket_options([](int sock) {
      const int yes = 1;
      setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    server.set_read_timeout(socket_timeout);
    server.set_write_timeout(socket_timeout);
    // Static files: httplib refuses paths that climb out of the mount ("..").
    if (!server.set_mount_point("/", web.string())) throw UsageError("cannot serve " + web.string());
    server.set_file_extension_and_mimetype_mapping("mjs", "text/javascript");
    const web::Compression mode = *compress;
    // Files of the page: read by httplib, sent as every other reply.
    server.set_file_request_handler([mode](const httplib::Request& req, httplib::Response& res) {
      send(req, res, std::move(res.body), res.get_header_value("Content-Type"), mode);
    });

    const auto answer = [&api, mode](const httplib::Request& req, httplib::Response& res) {
      // A page from another site may POST text/plain to 127.0.0.1 without asking first; JSON
      // it may not send without a CORS preflight, which this server never grants.
      if (req.method == "POST" && !req.get_header_value("Content-Type").starts_with("application/json")) {
        res.status = http_unsupported_media_type;
        send(req, res, R"({"error":"POST bodies must be sent as Content-Type: application/json"})", "application/json", mode);
        return;
      }
      web::Request request{req.method, req.path, {}, req.body};
      for (const auto& [key, value] : req.params) request.params.emplace(key, value);
      web::Response response = api.handle(request);
      res.status = response.status;
      send(req, res, std::move(response.body), "application/json", mode);
    };
    server.Get(R"(/api/.*)", answer);
    server.Post(R"(/api/.*)", answer);
    // Errors the server makes itself (413 over the body limit, 404 for files) get a JSON reason.
    server.set_error_handler([&api, mode](const httplib::Request& req, httplib::Response& res) {
      // Already answered (a JSON refusal, or a 416 that send() made and that carries no body).
      if (!res.body.empty() || res.content_length_ > 0 || res.has_header("Content-Range")) return;
      std::string why = "HTTP status " + std::to_string(res.status);
      if (res.status == 413) why = "request body over " + std::to_string(api.limits().max_body_bytes) + " bytes";
      if (res.status == 404) why = "no such file or API: " + req.path;
      send(req, res, nlohmann::json{{"error", why}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
           "application/json", mode);
    });
    server.set_pre_routing_handler([mode](const httplib::Request& req, httplib::Response& res) {
      request_started = std::chrono::steady_clock::now();
      // A decoded path with a control byte names no file or API: "/index.html%00.js" would
      // otherwise open index.html (the file name ends at the NUL) and send it as JavaScript.
      if (std::any_of(req.path.begin(), req.path.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; })) {
        res.status = http_bad_request;
        send(req, res, R"json({"error":"the path holds a control character (a byte below 0x20, %00 among them)"})json", "application/json", mode);
        return httplib::Server::HandlerResponse::Handled;
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });
    std::mutex log_mutex;
    server.set_logger([&log_mutex](const httplib::Request& req, const httplib::Response& res) {
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - request_started).count();
      std::string path = req.path;  // decoded: control characters would forge log lines
      std::replace_if(path.begin(), path.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }, '?');
      const std::lock_guard lock(log_mutex);
      // The bytes sent (after any compression); httplib has set Content-Length by now.
      const std::string length = res.get_header_value("Content-Length");
      std::fprintf(stderr, "%s \"%s %s\" %d %s %.2f ms\n", req.remote_addr.c_str(), req.method.c_str(),
                   path.c_str(), res.status, length.empty() ? "0" : length.c_str(), ms);
    });

    const StopOnSignal stop(server);
    int port = a.port;
    if (port == 0) {
      port = server.bind_to_any_port(a.host);
      if (port < 0) throw UsageError("cannot listen on " + url_host(a.host));
    } else if (!server.bind_to_port(a.host, port)) {
      throw UsageError("cannot listen on " + url_host(a.host) + ":" + std::to_string(port) + " (in use, or not an address here)");
    }
    std::cout << "waymark: serving http://" << url_host(a.host) << ":" << port << "/ (web " << web.string() << ", data "
              << data.string() << "); Ctrl-C stops" << std::endl;
    if (!server.listen_after_bind()) throw UsageError("the server stopped with an error");
    std::cout << "waymark: stopped" << std::endl;
    return exit_ok;
  });
}

}  // namespace waymark::cli
