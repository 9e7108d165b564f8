// The life of one request, as one coroutine: pool or connect, write, read and parse, with
// every socket read turned into one timestamped chunk.
#include <algorithm>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/status.hpp>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "http/chunk_body.h"
#include "http/client_core.h"
#include "http/request_head.h"
#include "http/transport_errors.h"
#include "time/clock.h"

namespace aiperf::http {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;

namespace {

constexpr uint32_t kHeaderLimit = 64 * 1024;
// In-flight requests up to which a waiting connection holds a read buffer (receive below).
constexpr size_t kBufferedWaits = 4096;

using ResponseParser = bhttp::response_parser<ChunkBody>;

bool is_eof(const error_code& ec) {
  return ec == net::error::eof || ec == net::ssl::error::stream_truncated;
}

// Parses everything buffered; body bytes accumulate in the parser's body string.
error_code parse_buffered(ResponseParser& parser, beast::flat_buffer& buffer) {
  while (buffer.size() > 0 && !parser.is_done()) {
    error_code ec;
    const size_t used = parser.put(buffer.data(), ec);
    buffer.consume(used);
    if (ec == bhttp::error::need_more) return {};
    if (ec) return ec;
    if (used == 0) return {};
  }
  return {};
}

// Status errors carry the reason phrase as type and the body as message, like aiohttp.
void set_status_error(Result& r) {
  if (r.status >= 200 && r.status < 300) return;
  Error e{r.status, r.reason, {}};
  if (e.type.empty()) e.type = std::string(bhttp::obsolete_reason(bhttp::int_to_status(r.status)));
  for (const Chunk& c : r.chunks) e.message += c.data;
  r.error = std::move(e);
}

}  // namespace

net::awaitable<void> ClientCore::run(std::shared_ptr<RequestState> st) {
  RequestState& s = *st;
  std::optional<ParsedUrl> url = parse_url(s.request.url);
  const ClockPair start = paired_now();  // every wall time of the request derives from this pair
  s.result.start_perf_ns = start.steady;
  s.result.start_wall_ns = start.wall;
  std::optional<Error> early;
  std::optional<std::string> head;
  if (!url) {
    early = Error{std::nullopt, "InvalidURL", s.request.url};
  } else if (!(head = build_request_head(s.request, *url))) {
    early = Error{std::nullopt, "InvalidHeader", "a header contains CR, LF or NUL"};
  } else if (url->tls && tls_setup_error_) {
    early = tls_setup_error_;
  }
  if (early || s.aborted()) {
    // co_spawn starts the flow inside send(): never call back before send() has returned.
    co_await net::post(io_, net::use_awaitable);
    fail(s, early.value_or(Error{}));
    co_return;
  }
  arm_deadline(st);
  if (!co_await acquire_slot(s)) co_return finish(s);

  // Pooled (or a session's sticky) connections the server closed while idle are dropped before use. One whose write
  // fails (the server's RST came first, so nothing was received), or that the server closes
  // (FIN) before any byte of answer, is retried on a fresh one; fresh ones are never stale, so
  // the loop runs at most twice. A reset (RST) after the request was written is the server's
  // answer: never sent again, it becomes an error record.
  const bool sticky = options_.reuse == ConnectionReuse::kStickySessions && !s.options.session.empty();
  const std::string sticky_key = sticky ? s.options.session + '\n' + url->origin : std::string();
  for (bool fresh_only = options_.reuse == ConnectionReuse::kNever;; fresh_only = true) {
    std::unique_ptr<Connection> conn;
    if (!fresh_only && sticky) {
      if (auto held = sticky_.find(sticky_key); held != sticky_.end()) {
        conn = std::move(held->second);
        sticky_.erase(held);
        if (!conn->usable_when_idle(peek_before_reuse(*conn))) conn.reset();  // closed between turns
      }
    } else if (!fresh_only) {
      while ((conn = pool_.take(url->origin)) && !conn->usable_when_idle(peek_before_reuse(*conn))) conn->close();
    }
    const bool reused = conn != nullptr;
    Trace& trace = s.result.trace;
    if (reused) {
      trace.connection_reused_perf_ns = steady_now_ns();
    } else {
      trace.connection_reused_perf_ns = 0;  // a stale pooled one was not used after all
      conn = co_await connect(s, *url);
      if (!conn) co_return finish(s);
    }
    trace.local_ip = conn->local_ip;
    trace.local_port = conn->local_endpoint.port();
    trace.remote_ip = conn->remote_ip;
    trace.remote_port = conn->remote_endpoint.port();
    s.result.connection_reused = reused;
    s.active = conn.get();
    const Outcome outcome = co_await exchange(s, *conn, *head, reused);
    s.active = nullptr;
    if (outcome == Outcome::kStale) {
      seen_stale_ = true;
      continue;
    }
    // Pool before calling back: a follow-up request sent from `done` can take it.
    if (outcome == Outcome::kReusable) conn->idle_since_ns = steady_now_ns();
    if (outcome == Outcome::kReusable && options_.reuse == ConnectionReuse::kPooled) {
      pool_.put(url->origin, std::move(conn));
    } else if (outcome == Outcome::kReusable && sticky && !s.options.last_of_session) {
      sticky_[sticky_key] = std::move(conn);  // a failed or cancelled request's is closed
    }
    co_return finish(s);
  }
}

net::awaitable<std::optional<DnsCache::Endpoints>> ClientCore::resolve(RequestState& s,
                                                                       const ParsedUrl& url) {
  error_code not_ip;
  const auto address = net::ip::make_address(url.host, not_ip);
  if (!not_ip) co_return DnsCache::Endpoints{tcp::endpoint(address, url.port)};
  const std::string key = url.host + ":" + std::to_string(url.port);
  const int64_t now = steady_now_ns();
  Trace& trace = s.result.trace;
  if (const auto* cached = dns_.find(key, now)) {
    trace.dns_cache_hit_perf_ns = now;
    co_return *cached;
  }
  trace.dns_cache_miss_perf_ns = now;
  trace.dns_start_perf_ns = now;
  s.resolver.emplace(io_);
  auto [rec, results] = co_await s.resolver->async_resolve(url.host, std::to_string(url.port), use_ec);
  trace.dns_end_perf_ns = steady_now_ns();
  s.resolver.reset();
  if (s.aborted()) co_return std::nullopt;
  if (rec) {
    s.result.error = connect_error(url, rec, /*dns=*/true);
    co_return std::nullopt;
  }
  DnsCache::Endpoints endpoints(results.begin(), results.end());
  // IPv4 first, as aiohttp's connector (family=AF_INET) would only use those.
  std::stable_partition(endpoints.begin(), endpoints.end(),
                        [](const tcp::endpoint& e) { return e.address().is_v4(); });
  dns_.store(key, endpoints, now);
  co_return endpoints;
}

net::awaitable<std::pair<error_code, tcp::endpoint>> ClientCore::connect_any(
    tcp::socket& socket, const DnsCache::Endpoints& endpoints) {
  error_code ec = net::error::host_not_found;
  for (const tcp::endpoint& endpoint : endpoints) {
    error_code ignored;
    socket.close(ignored);
    socket.open(endpoint.protocol(), ec);
    if (ec) continue;
    const auto& sources = endpoint.address().is_v4() ? sources_v4_ : sources_v6_;
    if (!sources.empty()) {
      // Without IP_BIND_ADDRESS_NO_PORT, bind() would reserve a port for the address alone;
      // with it the port is picked at connect() for the whole four-tuple, so each source
      // address offers the full ephemeral range towards each server.
      const int one = 1;
      ::setsockopt(socket.native_handle(), IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
      socket.bind(tcp::endpoint(sources[next_source_++ % sources.size()], 0), ec);
      if (ec) continue;
    }
    std::tie(ec) = co_await socket.async_connect(endpoint, net::as_tuple(net::use_awaitable));
    if (!ec) co_return std::pair{ec, endpoint};
  }
  co_return std::pair{ec, tcp::endpoint{}};
}

net::awaitable<std::unique_ptr<Connection>> ClientCore::connect(RequestState& s,
                                                                const ParsedUrl& url) {
  // A copy (one or two addresses): the cache entry may be replaced while connecting.
  const std::optional<DnsCache::Endpoints> endpoints = co_await resolve(s, url);
  if (!endpoints) co_return nullptr;

  auto conn = url.tls ? std::make_unique<Connection>(io_.get_executor(), tls_)
                      : std::make_unique<Connection>(io_.get_executor());
  s.active = conn.get();
  Trace& trace = s.result.trace;
  trace.tcp_connect_start_perf_ns = steady_now_ns();
  auto [ec, endpoint] = co_await connect_any(conn->socket(), *endpoints);
  if (s.aborted()) co_return nullptr;
  if (ec) {
    s.result.error = connect_error(url, ec, /*dns=*/false);
    co_return nullptr;
  }
  trace.tcp_connect_end_perf_ns = steady_now_ns();
  error_code ignored;
  conn->socket().set_option(tcp::no_delay(true), ignored);
  if (!conn->tls()) conn->socket().non_blocking(true, ignored);  // Connection::receive reads without waiting
  conn->remote_endpoint = endpoint;
  conn->local_endpoint = conn->socket().local_endpoint(ignored);
  conn->local_ip = conn->local_endpoint.address().to_string();
  conn->remote_ip = endpoint.address().to_string();

  if (auto* tls = conn->tls()) {
    SSL* ssl = tls->native_handle();
    error_code not_ip;
    net::ip::make_address(url.host, not_ip);
    // SNI is for names only (RFC 6066). The peer name is checked by OpenSSL itself, which
    // also records why it failed (hostname mismatch) for the error message.
    if (not_ip) SSL_set_tlsext_host_name(ssl, url.host.c_str());
    if (options_.verify_tls) {
      X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
      if (not_ip) {
        X509_VERIFY_PARAM_set1_host(param, url.host.c_str(), url.host.size());
      } else {
        X509_VERIFY_PARAM_set1_ip_asc(param, url.host.c_str());
      }
    }
    trace.tls_start_perf_ns = steady_now_ns();
    auto [hec] = co_await tls->async_handshake(net::ssl::stream_base::client, use_ec);
    if (s.aborted()) co_return nullptr;
    if (hec) {
      s.result.error = tls_error(url, hec, ssl);
      co_return nullptr;
    }
    trace.tls_end_perf_ns = steady_now_ns();
  }
  co_return conn;
}

bool ClientCore::peek_before_reuse(const Connection& c) const {
  constexpr int64_t kIdleBeforePeekNs = 1'000'000'000;  // below any server's keep-alive timeout
  return seen_stale_ || steady_now_ns() - c.idle_since_ns >= kIdleBeforePeekNs;
}

net::awaitable<ClientCore::Outcome> ClientCore::exchange(RequestState& s, Connection& c,
                                                         const std::string& head, bool reused) {
  Trace& trace = s.result.trace;
  trace.send_start_perf_ns = steady_now_ns();
  auto [wec, written] = co_await c.write({net::buffer(head), net::buffer(s.request.body)});
  if (s.aborted()) co_return Outcome::kFailed;
  if (wec) {
    if (reused) co_return Outcome::kStale;
    s.result.error = io_error(wec);
    co_return Outcome::kFailed;
  }
  trace.send_end_perf_ns = steady_now_ns();
  trace.bytes_sent = written;
  trace.body_bytes_sent = s.request.body.size();
  if (s.options.on_request_sent) {
    s.options.on_request_sent(trace.send_end_perf_ns);
    if (s.aborted()) co_return Outcome::kFailed;  // cancelled from the callback
  }

  ResponseParser parser;
  parser.eager(true);
  parser.body_limit(boost::none);
  parser.header_limit(kHeaderLimit);
  if (s.request.method == "HEAD") parser.skip(true);
  Result& r = s.result;
  beast::flat_buffer& buffer = c.buffer();

  for (;;) {
    // With few requests in flight a waiting connection holds a small read buffer, so that
    // asio reads without re-arming epoll for each wait; with many (100 000 streams) those
    // buffers would be most of the memory: a response not begun waits without one, and a
    // begun one (a stream's next chunks, or its first after the headers) reads 1 KiB at a time.
    const size_t read_size = slots_used_ <= kBufferedWaits ? 4096 : parser.got_some() ? 1024 : 0;
    auto [ec, n] = co_await c.receive(read_size);
    const int64_t now = steady_now_ns();
    if (s.aborted()) co_return Outcome::kFailed;
    if (ec) {
      // A FIN before any byte of answer: the server closed the connection without reading or
      // answering (llama.cpp does so after each stream, though it said keep-alive). On a
      // reused connection that is the idle-close race, retried on a fresh one; a reset (RST)
      // is an answer and is not retried.
      if (is_eof(ec) && !parser.got_some()) {
        if (reused) co_return Outcome::kStale;
        r.error = io_error(ec);
        co_return Outcome::kFailed;
      }
      error_code eof_ec;
      if (is_eof(ec)) parser.put_eof(eof_ec);
      if (is_eof(ec) && !eof_ec && parser.is_done()) {
        r.end_perf_ns = now;  // body delimited by connection close (HTTP/1.0 style)
        set_status_error(r);
        co_return Outcome::kClose;
      }
      r.error = io_error(ec);
      co_return Outcome::kFailed;
    }
    if (const error_code pec = parse_buffered(parser, buffer)) {
      r.error = protocol_error(pec);
      co_return Outcome::kFailed;
    }
    if (r.ack_perf_ns == 0 && parser.is_header_done()) {
      const auto& msg = parser.get();
      r.ack_perf_ns = now;
      r.status = msg.result_int();
      r.reason = std::string(msg.reason());
      r.content_type = std::string(msg[bhttp::field::content_type]);
      if (options_.keep_response_headers) {
        for (const auto& field : msg) r.trace.response_headers.emplace_back(field.name_string(), field.value());
      }
    }
    if (std::string& body = parser.get().body(); !body.empty()) {
      r.chunks.push_back(Chunk{now, std::move(body)});
      body.clear();
      if (s.options.on_chunk && r.status >= 200 && r.status < 300) {
        s.options.on_chunk(now, r.chunks.back().data);
        if (s.aborted()) co_return Outcome::kFailed;  // cancelled from the callback
      }
    }
    if (parser.is_done()) {
      r.end_perf_ns = now;
      set_status_error(r);
      if (parser.keep_alive() && buffer.size() == 0) {
        buffer.shrink_to_fit();  // an idle connection keeps no read buffer
        co_return Outcome::kReusable;
      }
      co_return Outcome::kClose;
    }
  }
}

}  // namespace aiperf::http
