// The worker core's collaborators (worker_core.h), as small interfaces: the service implements
// them on its ZeroMQ sockets, HttpClient and io thread; unit tests use tests/fakes/fake_worker_links.h
// and fake_transport.h. Time and timers come from the Timers port (time/timers.h).
#pragma once
#include <functional>

#include "credit.pb.h"
#include "http/http_client.h"
#include "raw_record.pb.h"
#include "time/clock.h"
#include "time/send_lead.h"
#include "video_job.h"

namespace aiperf::worker {

// What the worker says to the other services, and its event loop's end-of-pass hook.
class WorkerLinks {
 public:
  virtual ~WorkerLinks() = default;
  // To the timing service: returns, first-token notices.
  virtual void send_credit_message(const proto::CreditMessage& msg) = 0;
  // To the dataset service; the answer comes back through WorkerCore::on_conversation.
  virtual void ask_conversation(const std::string& conversation_id) = 0;
  // To a record processor, without blocking. False: nobody can take it now (none connected);
  // the core keeps the batch and offers it again later.
  virtual bool send_raw_records(const proto::RawRecordBatch& batch) = 0;
  // Runs `fn` on this thread once the events being handled now are done, so what they all
  // produced travels in one message.
  virtual void post(std::function<void()> fn) = 0;
};

// Starts one request of the endpoint (one HTTP exchange, or a whole polled video job), as
// http::HttpClient::send promises: `done` runs exactly once on the caller's thread, possibly
// before send() returns when the request fails at once; cancelling through the handle ends it
// with a cancelled result. The same port a video job sends its steps through (video_job.h).
using Transport = HttpSender;

// Busy-waits to a steady instant (the last stretch before a scheduled send): the real one
// spins the CPU; a fake moves its fake clock there.
class Spinner {
 public:
  virtual ~Spinner() = default;
  virtual void spin_until(Nanos steady_ns) = 0;
};

class CpuSpinner final : public Spinner {
 public:
  void spin_until(Nanos steady_ns) override { aiperf::spin_until(steady_ns); }
};

}  // namespace aiperf::worker
