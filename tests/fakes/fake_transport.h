// A fake of the worker's Transport (services/worker/worker_ports.h) for unit tests: it keeps
// each request with its options and completion, and the test finishes them with scripted
// results (a body, a transport error, a cancellation). Cancel handles only note the cancel,
// as a real client's would before its callback runs. Header-only.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "worker_ports.h"

namespace aiperf::testing {

class FakeTransport final : public worker::Transport {
 public:
  struct Handle final : http::CancelHandle {
    void cancel() override { ++cancels; }
    int cancels = 0;
  };
  struct Sent {
    http::Request request;
    http::SendOptions options;
    std::function<void(http::Result&&)> done;  // null once completed
    std::shared_ptr<Handle> handle;
  };

  http::CancelHandlePtr send(http::Request request, http::SendOptions options,
                             std::function<void(http::Result&&)> done) override {
    auto handle = std::make_shared<Handle>();
    sent.push_back(Sent{std::move(request), std::move(options), std::move(done), handle});
    if (fail_at_once) finish(sent.size() - 1, error_result(*fail_at_once));
    return handle;
  }

  // The request was fully written (SendOptions::on_request_sent).
  void request_sent(size_t i, Nanos now) {
    if (sent.at(i).options.on_request_sent) sent.at(i).options.on_request_sent(now);
  }
  // Completes request `i` with `result` (once).
  void finish(size_t i, http::Result result) {
    auto done = std::move(sent.at(i).done);
    sent.at(i).done = nullptr;
    done(std::move(result));
  }
  // A 200 answer with one body chunk, from `start` to `end` (steady ns).
  void respond(size_t i, const std::string& body, Nanos start, Nanos end) {
    http::Result r;
    r.status = 200;
    r.reason = "OK";
    r.content_type = "application/json";
    r.start_perf_ns = start;
    r.start_wall_ns = 1'000 + start;
    r.ack_perf_ns = end;
    r.end_perf_ns = end;
    r.chunks.push_back(http::Chunk{end, body});
    finish(i, std::move(r));
  }
  // Ends request `i` as the client ends a cancelled one.
  void cancelled(size_t i, Nanos end) {
    http::Result r = error_result(http::Error{499, "RequestCancellationError", "Request cancelled"});
    r.cancelled = true;
    r.end_perf_ns = end;
    finish(i, std::move(r));
  }
  static http::Result error_result(http::Error error) {
    http::Result r;
    r.error = std::move(error);
    return r;
  }
  bool pending(size_t i) const { return static_cast<bool>(sent.at(i).done); }

  std::vector<Sent> sent;
  // Set: every request fails inside send() with this error (as a refused URL can).
  std::optional<http::Error> fail_at_once;
};

}  // namespace aiperf::testing
