// The machinery behind HttpClient: TLS context, idle pool, DNS cache and the request flow
// (one coroutine per request). Shared-owned so that request coroutines still running
// after the HttpClient is destroyed keep it alive until they unwind.
#pragma once
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>

#include "http/connection_pool.h"
#include "http/dns_cache.h"
#include "http/http_client.h"
#include "http/request_state.h"
#include "http/url.h"

namespace aiperf::http {

class ClientCore : public std::enable_shared_from_this<ClientCore> {
 public:
  ClientCore(net::io_context& io, ClientOptions options);

  CancelHandlePtr send(Request request, SendOptions options, std::function<void(Result&&)> done);
  void close_idle() {
    pool_.clear();
    sticky_.clear();
  }
  // The HttpClient is being destroyed: abort every in-flight request without calling back.
  void shutdown();

 private:
  // How one request/response exchange on a connection ended.
  enum class Outcome {
    kReusable,  // complete; the connection may carry another request
    kClose,     // complete; the server closes (or reuse is off)
    kStale,     // a pooled connection was dead before any response byte: retry
    kFailed,    // result.error is set
  };

  net::awaitable<void> run(std::shared_ptr<RequestState> st);
  net::awaitable<std::unique_ptr<Connection>> connect(RequestState& s, const ParsedUrl& url);
  // Connects `socket` to the first endpoint that accepts, bound to the next source address
  // of the endpoint's family when ClientOptions::local_addresses has any.
  net::awaitable<std::pair<error_code, tcp::endpoint>> connect_any(tcp::socket& socket,
                                                                   const DnsCache::Endpoints& endpoints);
  net::awaitable<std::optional<DnsCache::Endpoints>> resolve(RequestState& s, const ParsedUrl& url);
  net::awaitable<Outcome> exchange(RequestState& s, Connection& c, const std::string& head,
                                   bool reused);
  void arm_deadline(const std::shared_ptr<RequestState>& st);
  // Takes a connection slot, queueing while the limit is reached; false if the request was
  // cancelled or timed out while it waited.
  net::awaitable<bool> acquire_slot(RequestState& s);
  // Hands the slot to the longest waiter, or frees it.
  void release_slot(RequestState& s);
  // Ends the request (first call only): stops the deadline and calls back.
  void finish(RequestState& s);
  void fail(RequestState& s, Error error);

  net::io_context& io_;
  ClientOptions options_;
  net::ssl::context tls_;
  std::optional<Error> tls_setup_error_;  // a bad ca_file fails every https request
  ConnectionPool pool_;
  // kStickySessions: each session's connection between its requests, keyed by session and
  // origin.
  std::unordered_map<std::string, std::unique_ptr<Connection>> sticky_;
  DnsCache dns_;
  RequestState* inflight_ = nullptr;      // head of the in-flight list
  size_t slots_used_ = 0;                 // requests holding a connection slot
  // A pooled connection turned out closed: from then on every reuse peeks first (a server
  // that closes after each response would otherwise cost every request a retry).
  bool seen_stale_ = false;
  // Whether to peek at an idle connection before reusing it: after a stale one, or when it
  // sat idle long enough for a server's keep-alive timeout (seconds) to have closed it. A
  // connection reused at once skips the syscall: at most one request per client pays a retry.
  bool peek_before_reuse(const Connection& c) const;
  std::deque<RequestState*> slot_waiters_;  // queued for a slot, oldest first
  std::vector<net::ip::address> sources_v4_, sources_v6_;  // ClientOptions::local_addresses
  size_t next_source_ = 0;
};

}  // namespace aiperf::http
