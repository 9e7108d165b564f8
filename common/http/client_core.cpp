#include "http/client_core.h"

#include <algorithm>
#include <chrono>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "http/transport_errors.h"
#include "time/clock.h"

namespace aiperf::http {

ClientCore::ClientCore(net::io_context& io, ClientOptions options)
    : io_(io),
      options_(std::move(options)),
      tls_(net::ssl::context::tls_client),
      pool_(options_.max_idle_per_host) {
  error_code ec;
  tls_.set_default_verify_paths(ec);  // a host without a system store still works with ca_file
  if (!options_.ca_file.empty()) {
    tls_.load_verify_file(options_.ca_file, ec);
    if (ec) {
      tls_setup_error_ = Error{std::nullopt, "ClientConnectorSSLError",
                               "Cannot load CA file " + options_.ca_file + ": " + ec.message()};
    }
  }
  tls_.set_verify_mode(options_.verify_tls ? net::ssl::verify_peer : net::ssl::verify_none);
  for (const auto& text : options_.local_addresses) {
    const net::ip::address a = net::ip::make_address(text, ec);
    if (!ec) (a.is_v4() ? sources_v4_ : sources_v6_).push_back(a);
  }
}

CancelHandlePtr ClientCore::send(Request request, SendOptions options,
                                 std::function<void(Result&&)> done) {
  auto st = std::make_shared<RequestState>(io_, std::move(request), std::move(options),
                                           std::move(done));
  st->next = inflight_;
  if (inflight_) inflight_->prev = st.get();
  inflight_ = st.get();
  // The handler owns the core and the state for as long as the coroutine runs. An exception
  // escaping the flow (only bad_alloc and the like) still completes the request.
  net::co_spawn(io_, run(st), [self = shared_from_this(), st](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      self->fail(*st, Error{std::nullopt, "ClientError", ex.what()});
    } catch (...) {
      self->fail(*st, Error{std::nullopt, "ClientError", "unknown exception"});
    }
  });
  return st;
}

void ClientCore::shutdown() {
  pool_.clear();
  for (RequestState* s = inflight_; s; s = s->next) {
    s->detached = true;
    s->cancel();
  }
}

void ClientCore::arm_deadline(const std::shared_ptr<RequestState>& st) {
  // Clamp so absurd timeouts (e.g. 1e300 s) cannot overflow the clock's representation.
  const double seconds = std::clamp(st->options.timeout_seconds, 0.0, 1e9);
  st->deadline.expires_after(std::chrono::duration_cast<net::steady_timer::duration>(
      std::chrono::duration<double>(seconds)));
  st->deadline.async_wait([st](const error_code& ec) {
    if (ec || st->finished) return;
    st->timed_out = true;
    st->abort_io();
  });
}

net::awaitable<bool> ClientCore::acquire_slot(RequestState& s) {
  const size_t limit = options_.connection_limit;
  if (limit == 0 || (slots_used_ < limit && slot_waiters_.empty())) {
    ++slots_used_;
    s.holds_slot = true;
    co_return true;
  }
  Trace& trace = s.result.trace;
  trace.pool_wait_start_perf_ns = steady_now_ns();
  s.slot_wait.emplace(io_, net::steady_timer::time_point::max());
  slot_waiters_.push_back(&s);
  co_await s.slot_wait->async_wait(net::as_tuple(net::use_awaitable));  // woken by release or abort
  s.slot_wait.reset();
  trace.pool_wait_end_perf_ns = steady_now_ns();
  if (!s.holds_slot) {  // aborted while queued: leave the queue (the state may soon be freed)
    if (auto it = std::find(slot_waiters_.begin(), slot_waiters_.end(), &s); it != slot_waiters_.end()) {
      slot_waiters_.erase(it);
    }
    co_return false;
  }
  co_return !s.aborted();  // a slot granted together with an abort is released by finish()
}

void ClientCore::release_slot(RequestState& s) {
  if (!s.holds_slot) return;
  s.holds_slot = false;
  while (!slot_waiters_.empty()) {
    RequestState* next = slot_waiters_.front();
    slot_waiters_.pop_front();
    if (next->aborted()) continue;  // its own wake-up takes it out; nothing to grant
    next->holds_slot = true;        // the slot passes over without being freed
    next->slot_wait->cancel();
    return;
  }
  --slots_used_;
}

void ClientCore::fail(RequestState& s, Error error) {
  s.result.error = std::move(error);
  finish(s);
}

void ClientCore::finish(RequestState& s) {
  if (s.finished) return;
  s.finished = true;
  s.active = nullptr;
  s.resolver.reset();
  release_slot(s);
  s.deadline.cancel();
  if (s.aborted()) {
    // An abort wins over whatever failure it caused (e.g. operation_aborted on a read).
    s.result.error = s.cancelled ? cancelled_error() : timeout_error(s.options.timeout_seconds);
    s.result.cancelled = s.cancelled;
  }
  if (s.result.end_perf_ns == 0) s.result.end_perf_ns = steady_now_ns();
  // aiohttp's on_request_exception: transport failures, not HTTP status errors (those carry
  // the status as their code).
  Result& r = s.result;
  if (r.error && !(r.status != 0 && r.error->code == r.status)) r.trace.error_perf_ns = r.end_perf_ns;
  // The request is done with its headers: hand them over instead of copying.
  s.result.trace.request_headers = std::move(s.request.headers);

  if (s.prev) s.prev->next = s.next;
  if (s.next) s.next->prev = s.prev;
  if (inflight_ == &s) inflight_ = s.next;
  s.prev = s.next = nullptr;

  if (!s.detached && s.done) {
    auto done = std::move(s.done);
    done(std::move(s.result));
  }
}

}  // namespace aiperf::http
