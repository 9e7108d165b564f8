// HttpClient: one worker's HTTP/1.1 client (Boost.Beast over Asio), with keep-alive pooling
// per scheme://host:port, HTTPS with SNI and certificate verification, and per-chunk
// monotonic receive timestamps. Runs entirely on the io_context given at construction;
// every method must be called from that io_context's thread.
//
// Failures are data, never exceptions: connection refused, TLS errors, timeouts, resets and
// cancellation all complete the request with Result::error set.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace boost::asio { class io_context; }

namespace aiperf::http {

struct Error {
  std::optional<int> code;  // HTTP status for status errors, 499 for cancellation
  std::string type;         // e.g. "ClientConnectorError", "TimeoutError", "Not Found"
  std::string message;
};

struct Chunk {
  int64_t perf_ns;          // steady clock when these bytes were read
  std::string data;         // de-chunked body bytes
};

struct Request {
  std::string method = "POST";
  std::string url;          // absolute: http(s)://host[:port]/path[?query]
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

using Headers = std::vector<std::pair<std::string, std::string>>;

// What AIPerf's aiohttp trace records about one request beyond the body chunks (steady ns,
// 0 = did not happen). The body chunks' own timestamps are Result::chunks. Phases follow the
// request's last attempt: a pooled connection found dead is replaced by a fresh one, and the
// trace then describes the fresh connection.
struct Trace {
  // Only when the request queued for a connection slot (ClientOptions::connection_limit
  // requests were already using connections); 0 otherwise.
  int64_t pool_wait_start_perf_ns = 0;
  int64_t pool_wait_end_perf_ns = 0;
  int64_t connection_reused_perf_ns = 0;  // an idle pooled connection was taken
  // New connections to a host name only (an IP literal needs no lookup, as in aiohttp).
  int64_t dns_cache_hit_perf_ns = 0;
  int64_t dns_cache_miss_perf_ns = 0;
  int64_t dns_start_perf_ns = 0;          // getaddrinfo started (cache miss)
  int64_t dns_end_perf_ns = 0;
  int64_t tcp_connect_start_perf_ns = 0;  // after DNS
  int64_t tcp_connect_end_perf_ns = 0;    // TCP established (before any TLS handshake)
  int64_t tls_start_perf_ns = 0;
  int64_t tls_end_perf_ns = 0;
  int64_t send_start_perf_ns = 0;   // request head starts going out (after any connect)
  int64_t send_end_perf_ns = 0;     // request head and body fully written
  uint64_t bytes_sent = 0;          // head + body
  uint64_t body_bytes_sent = 0;     // body only (what aiohttp's request chunks count)
  int64_t error_perf_ns = 0;        // a transport failure, timeout or cancellation ended it
  // The connection's addresses (set once it exists; IPv4 text fits the small-string buffer).
  std::string local_ip, remote_ip;
  uint16_t local_port = 0, remote_port = 0;
  Headers request_headers;          // the request's headers (Host/Content-Length the client adds are not listed)
  Headers response_headers;         // as received, in order
};

struct Result {
  int status = 0;           // 0 = no response
  std::string reason;
  std::string content_type;
  int64_t start_perf_ns = 0;  // taken right before pool acquisition / connect / send
  int64_t start_wall_ns = 0;  // wall clock taken together with start_perf_ns
  int64_t ack_perf_ns = 0;    // response headers parsed (0 = never)
  int64_t end_perf_ns = 0;    // body complete or failure
  std::vector<Chunk> chunks;  // body as received (for status != 200: the error body)
  std::optional<Error> error; // set on any failure, including HTTP status != 2xx
  bool connection_reused = false;
  bool cancelled = false;
  Trace trace;
};

// kPooled: idle connections are shared by every request to the origin; kNever: one connection
// per request; kStickySessions: one connection per SendOptions::session, kept across its
// requests and closed after its last one, an error or a cancellation (AIPerf 0.13's
// sticky-user-sessions, so a load balancer sees every turn of a conversation on one connection).
enum class ConnectionReuse { kPooled, kNever, kStickySessions };

struct ClientOptions {
  bool verify_tls = true;               // AIPERF_HTTP_SSL_VERIFY
  std::string ca_file;                  // extra CA bundle (tests); empty = system default
  ConnectionReuse reuse = ConnectionReuse::kPooled;
  size_t max_idle_per_host = 4096;
  // At most this many requests use a connection at once (as aiohttp's TCPConnector limit);
  // later ones wait, first come first served, for one to be released, and their Trace says
  // how long. This bounds the connections a worker ever opens (its open-file capacity).
  // 0 = no limit.
  size_t connection_limit = 0;
  // Source addresses new connections bind to, in turn (only those of the server address's
  // family are used); empty = the kernel picks. Invalid entries are ignored.
  std::vector<std::string> local_addresses;
  // Fill Trace::response_headers. Off spares the io thread copying every response's headers
  // when nothing will print them.
  bool keep_response_headers = true;
};

// Handle to cancel one in-flight request; cancelling a finished request is a no-op.
class CancelHandle {
 public:
  virtual ~CancelHandle() = default;
  virtual void cancel() = 0;
};
using CancelHandlePtr = std::shared_ptr<CancelHandle>;

struct SendOptions {
  double timeout_seconds = 21600;       // total: connect + send + receive
  // ConnectionReuse::kStickySessions: the session the request belongs to (empty: none, its
  // connection is closed after it), and whether it is the session's last request.
  std::string session;
  bool last_of_session = false;
  // Called on the io thread for each body chunk as it arrives (e.g. first-token notice).
  // Only for 2xx responses: an error body is not output.
  std::function<void(int64_t perf_ns, const std::string& data)> on_chunk;
  // Called once on the io thread when the request (head and body) is fully written, e.g. to
  // start a cancellation delay from the moment the server has the whole request.
  std::function<void(int64_t perf_ns)> on_request_sent;
};

class HttpClient {
 public:
  HttpClient(boost::asio::io_context& io, ClientOptions options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Starts the request; `done` runs exactly once on the io thread with the result.
  CancelHandlePtr send(Request request, SendOptions options, std::function<void(Result&&)> done);

  // Closes idle pooled connections.
  void close_idle();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aiperf::http
