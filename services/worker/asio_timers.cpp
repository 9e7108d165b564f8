#include "asio_timers.h"

#include <chrono>

namespace aiperf::worker {

AsioTimers::~AsioTimers() {
  for (auto& [id, timer] : timers_) timer->cancel();
}

Timers::TimerId AsioTimers::call_at(Nanos at_ns, Handler fn) {
  const TimerId id = next_id_++;
  arm(id, at_ns, 0, std::move(fn));
  return id;
}

Timers::TimerId AsioTimers::call_every(Nanos period_ns, Handler fn) {
  const TimerId id = next_id_++;
  arm(id, clock().steady_now() + period_ns, period_ns, std::move(fn));
  return id;
}

void AsioTimers::cancel(TimerId id) {
  if (auto it = timers_.find(id); it != timers_.end()) {
    it->second->cancel();
    timers_.erase(it);
  }
}

// The wait is relative (now -> at_ns on our clock), so it does not assume that Asio's
// steady_clock and system_clock().steady_now() share an epoch.
void AsioTimers::arm(TimerId id, Nanos at_ns, Nanos period_ns, Handler fn) {
  const Nanos delay = std::max<Nanos>(0, at_ns - clock().steady_now());
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::nanoseconds(delay));
  timers_[id] = timer;
  timer->async_wait([this, id, at_ns, period_ns, fn = std::move(fn), weak = std::weak_ptr(timer),
                     alive = std::weak_ptr(alive_)](const boost::system::error_code& ec) mutable {
    if (ec || alive.expired()) return;
    auto it = timers_.find(id);
    if (ec || it == timers_.end() || it->second != weak.lock()) return;  // cancelled or replaced
    if (period_ns > 0) {
      Handler again = fn;
      arm(id, at_ns + period_ns, period_ns, std::move(again));
    } else {
      timers_.erase(it);
    }
    fn();
  });
}

}  // namespace aiperf::worker
