#pragma once
// `waymark serve`: the web viewer. Serves the page in web/ and the JSON API of src/web over
// HTTP (apps/waymark/http_server.hpp, on GNU libmicrohttpd), on 127.0.0.1 unless told
// otherwise, until Ctrl-C.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace waymark::cli {

inline constexpr int default_serve_port = 8080;

struct ServeArgs {
  int port = default_serve_port;  ///< 0: any free port (printed)
  std::string host = "127.0.0.1";
  std::string data;  ///< empty: the repository's data/ (WAYMARK_DATA_DIR at build time)
  std::string web;   ///< empty: the repository's web/ (WAYMARK_WEB_DIR at build time)
  int threads = 0;   ///< 0: the server's default
  std::string compress = "auto";  ///< web::compression_names
  int request_timeout = 10;       ///< seconds a request may take to arrive, or a connection idle
  std::int64_t max_body_memory = 256;   ///< MiB all request bodies in flight may hold (HttpLimits::max_body_memory)
  std::int64_t max_client_connections = 64;  ///< connections one remote address may hold (HttpLimits)
};

CLI::App* add_serve_command(CLI::App& app, ServeArgs& args);
int run_serve(const ServeArgs& args);

}  // namespace waymark::cli
