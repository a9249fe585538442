#pragma once
// `waymark serve`'s HTTP server, on GNU libmicrohttpd (event-driven: one thread polls every
// connection, so a slow or idle client holds a socket, not a thread). A request is read whole
// by that thread, within the limits below, and refused before its body is read when it is over
// one; only then is it answered, by a pool of worker threads (API requests that POST) or of
// file threads (the page's files and the API's GETs), while the poll thread goes on with the
// other connections. No exception leaves a libmicrohttpd callback or a worker: out of memory is
// 503, anything else 500. docs/viewer.md, "The server under attack", has the limits and what
// each hostile pattern gets.

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

#include "web/encoding.hpp"

namespace waymark::web {
class Api;
}

namespace waymark::cli {

/// What one connection and one request may cost the server. [Limit: each is checked before
/// the memory it guards is allocated.]
struct HttpLimits {
  /// Largest request body, bytes: a larger Content-Length is refused (413) before any of it is
  /// read. Bodies come with a Content-Length only: chunked ones are refused (411) and encoded
  /// ones (Content-Encoding: gzip, ...) too (415), so a small body never inflates.
  std::size_t max_body_bytes = std::size_t{16} << 20;
  /// Memory every request body being read or answered may hold together, bytes
  /// (`--max-body-memory`, MiB). A body grows as its bytes arrive, never reserved from its
  /// Content-Length; one that does not fit is refused, 503 with Retry-After: at its head when
  /// its declared length is over what is left, else when a chunk would take the bodies over
  /// (the rest of it is then read and dropped). [Limit: >= max_body_bytes]
  std::size_t max_body_memory = std::size_t{256} << 20;
  /// The share of max_body_memory one client's (one remote address's) bodies may hold, and at
  /// least one largest body, so that one client holding bodies open cannot have every other's
  /// refused. [Limit: (0, 1]; else 1]
  double max_client_body_share = 0.5;
  /// Memory for one connection's request line, headers and read buffer, bytes (libmicrohttpd's
  /// connection pool): a request head larger than this, in one line or in a million short
  /// ones, is refused (431 or 414) as it arrives.
  std::size_t max_head_bytes = std::size_t{64} << 10;
  /// Connections held at once (more wait in the kernel's accept queue); lowered to what the
  /// process's file limit allows.
  unsigned max_connections = 1000;
  /// Connections one client (one remote address) may hold at once (`--max-client-connections`);
  /// libmicrohttpd closes more as soon as they are accepted, unanswered
  /// (MHD_OPTION_PER_IP_CONNECTION_LIMIT). A browser opens at most 6 to one server.
  unsigned max_client_connections = 64;
  /// A connection that sends or reads nothing for this long is closed.
  std::chrono::seconds idle_timeout{10};
  /// A request must arrive whole, head and body, within this of its first byte (or of the end
  /// of the connection's previous reply); a client trickling it slower is cut off.
  std::chrono::seconds request_timeout{10};
  /// Threads answering API POSTs (`--threads`), and threads answering files and API GETs: kept
  /// apart, so that the page loads while every POST thread is busy.
  int post_threads = 8;
  int get_threads = 2;
  /// Largest file of the page the server sends, bytes.
  std::size_t max_file_bytes = std::size_t{64} << 20;
};

/// A host as a URL writes it: an IPv6 address (it has colons) in brackets, "[::1]" (RFC 3986).
[[nodiscard]] std::string url_host(const std::string& host);

/// The server: listen(), then start(); stop() (or the destructor) answers what has been read
/// and closes every connection.
class HttpServer {
 public:
  /// Serves `api` under /api/ and the files of `web_root` elsewhere ("/" is index.html; the
  /// folder's tests/ and names starting with "." are not served), replies encoded per `mode`.
  HttpServer(const web::Api& api, std::filesystem::path web_root, web::Compression mode, HttpLimits limits);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// Binds `host` ("127.0.0.1", "::1", "0.0.0.0", a name) at `port` (0: any free one) and
  /// returns the port; throws UsageError when it cannot.
  int listen(const std::string& host, int port);
  /// Starts answering on the server's own threads; throws UsageError when it cannot.
  void start();
  /// Stops accepting, answers every request already read, and closes the connections.
  void stop();

  /// Connections cut off so far for trickling a request slower than request_timeout.
  [[nodiscard]] std::size_t cut_off() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace waymark::cli
