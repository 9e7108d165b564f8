// Everything one in-flight request owns: what to send, what was received so far, its
// deadline and what to abort when it is cancelled or times out. Doubles as the request's
// CancelHandle. Lives on the client's io thread only.
#pragma once
#include <functional>
#include <optional>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "http/connection.h"
#include "http/http_client.h"

namespace aiperf::http {

struct RequestState final : CancelHandle {
  RequestState(net::io_context& io, Request req, SendOptions opts,
               std::function<void(Result&&)> on_done)
      : request(std::move(req)), options(std::move(opts)), done(std::move(on_done)),
        deadline(io) {}

  void cancel() override {
    if (finished) return;
    cancelled = true;
    abort_io();
  }

  // Makes whatever the request is waiting on complete now (with operation_aborted).
  void abort_io() {
    if (slot_wait) slot_wait->cancel();
    if (resolver) resolver->cancel();
    if (active) active->close();
  }

  bool aborted() const { return cancelled || timed_out; }

  Request request;
  SendOptions options;
  std::function<void(Result&&)> done;
  Result result;

  net::steady_timer deadline;
  std::optional<tcp::resolver> resolver;  // set only while resolving
  std::optional<net::steady_timer> slot_wait;  // set only while queued for a connection slot
  bool holds_slot = false;                // counted in the client's connection limit
  Connection* active = nullptr;           // the connection in use, owned by the request flow
  bool cancelled = false;
  bool timed_out = false;
  bool detached = false;                  // the client is gone: never call back
  bool finished = false;

  // Intrusive list of the client's in-flight requests (no allocation per request).
  RequestState* prev = nullptr;
  RequestState* next = nullptr;
};

}  // namespace aiperf::http
