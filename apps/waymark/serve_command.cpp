#include "serve_command.hpp"

#include <pthread.h>
#include <signal.h>

#include <filesystem>
#include <iostream>

#include "cli_support.hpp"
#include "http_server.hpp"
#include "web/api.hpp"
#include "web/encoding.hpp"

namespace waymark::cli {
namespace {

/// Threads answering API POSTs when --threads is not given: enough that a slow query does not
/// hold up the page's other requests.
constexpr int default_server_threads = 8;
/// Most worker threads --threads accepts.
constexpr int max_server_threads = 256;
constexpr int max_port = 65535;
/// Longest --request-timeout, seconds.
constexpr int max_request_timeout = 3600;
/// Most --max-body-memory, MiB (64 GiB).
constexpr std::int64_t max_body_memory_mib = 65536;
constexpr int mib_shift = 20;

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
  cmd->add_option("--threads", a.threads, "threads answering API POSTs (default 8; two more answer files and GETs)");
  cmd->add_option("--compress", a.compress,
                  "reply encoding: auto (none to loopback clients, gzip level 1 to others that accept it), none, gzip")
      ->capture_default_str();
  cmd->add_option("--request-timeout", a.request_timeout,
                  "seconds a request may take to arrive whole, and a connection may stay idle, before it is closed")
      ->capture_default_str();
  cmd->add_option("--max-body-memory", a.max_body_memory,
                  "MiB all request bodies being read or answered may hold together (503 beyond it; at least one largest body, 16)")
      ->capture_default_str();
  cmd->add_option("--max-client-connections", a.max_client_connections,
                  "connections one client address may hold at once (more are closed unanswered)")
      ->capture_default_str();
  return cmd;
}

int run_serve(const ServeArgs& a) {
  return guarded([&] {
    checked_count(a.port, 0, max_port, "--port");
    checked_count(a.threads, 0, max_server_threads, "--threads (0: the default, 8)");
    checked_count(a.request_timeout, 1, max_request_timeout, "--request-timeout");
    HttpLimits limits;
    checked_count(a.max_body_memory, static_cast<std::int64_t>(limits.max_body_bytes >> mib_shift), max_body_memory_mib,
                  "--max-body-memory (MiB)");
    checked_count(a.max_client_connections, 1, limits.max_connections, "--max-client-connections");
    const auto compress = value_of(web::compression_names, a.compress);
    if (!compress) throw UsageError("--compress must be " + choices(web::compression_names) + ", got " + waymark::quoted(a.compress));
    const std::filesystem::path data = folder_arg(a.data, WAYMARK_DATA_DIR, "--data");
    const std::filesystem::path web = folder_arg(a.web, WAYMARK_WEB_DIR, "--web");
    if (!std::filesystem::is_regular_file(web / "index.html"))
      throw UsageError("--web " + web.string() + " has no index.html");
    const web::Api api(data);

    limits.max_body_bytes = api.limits().max_body_bytes;
    limits.max_body_memory = static_cast<std::size_t>(a.max_body_memory) << mib_shift;
    limits.max_client_connections = static_cast<unsigned>(a.max_client_connections);
    limits.post_threads = a.threads == 0 ? default_server_threads : a.threads;
    limits.request_timeout = limits.idle_timeout = std::chrono::seconds(a.request_timeout);
    HttpServer server(api, web, *compress, limits);
    const int port = server.listen(a.host, a.port);
    // SIGINT and SIGTERM are blocked in every thread (the server's inherit the mask) and
    // waited for here: the server then answers what it has read and closes.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    server.start();
    std::cout << "waymark: serving http://" << url_host(a.host) << ":" << port << "/ (web " << web.string() << ", data "
              << data.string() << "); Ctrl-C stops" << std::endl;
    int signal = 0;
    sigwait(&signals, &signal);
    std::cerr << "waymark: stopping (signal " << signal << ")\n";
    server.stop();
    std::cout << "waymark: stopped" << std::endl;
    return exit_ok;
  });
}

}  // namespace waymark::cli
