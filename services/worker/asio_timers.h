// Timers (time/timers.h) on an Asio io_context and the system clock: the worker's io thread
// runs the handlers. Used by logic written against the port (video_job.h, worker_core.h).
// Not thread-safe: call from the io_context's thread.
#pragma once
#include <map>
#include <memory>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "time/timers.h"

namespace aiperf::worker {

class AsioTimers final : public Timers {
 public:
  explicit AsioTimers(boost::asio::io_context& io) : io_(io) {}
  ~AsioTimers() override;
  TimerId call_at(Nanos at_ns, Handler fn) override;
  TimerId call_every(Nanos period_ns, Handler fn) override;
  void cancel(TimerId id) override;
  const Clock& clock() const override { return system_clock(); }

 private:
  void arm(TimerId id, Nanos at_ns, Nanos period_ns, Handler fn);

  boost::asio::io_context& io_;
  std::map<TimerId, std::shared_ptr<boost::asio::steady_timer>> timers_;
  TimerId next_id_ = 1;
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);  // handlers run after destruction see it gone
};

}  // namespace aiperf::worker
