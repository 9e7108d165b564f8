#include "bus/reactor.h"

#include <cerrno>
#include <algorithm>

namespace aiperf::bus {

void Reactor::add_socket(zmq::socket_t& socket, Handler on_readable) {
  items_.push_back({socket.handle(), 0, ZMQ_POLLIN, 0});
  handlers_.push_back(std::move(on_readable));
}

void Reactor::add_fd(int fd, Handler on_readable) {
  items_.push_back({nullptr, fd, ZMQ_POLLIN, 0});
  handlers_.push_back(std::move(on_readable));
}

Reactor::TimerId Reactor::call_at(Nanos at_ns, Handler fn) {
  TimerId id = next_id_++;
  timers_.emplace(id, Timer{std::move(fn), 0});
  schedule_.emplace(at_ns, id);
  return id;
}

Reactor::TimerId Reactor::call_every(Nanos period_ns, Handler fn) {
  TimerId id = next_id_++;
  timers_.emplace(id, Timer{std::move(fn), period_ns});
  schedule_.emplace(clock_.steady_now() + period_ns, id);
  return id;
}

void Reactor::cancel(TimerId id) { timers_.erase(id); }

void Reactor::run_due_timers() {
  const Nanos now = clock_.steady_now();
  while (!schedule_.empty() && schedule_.begin()->first <= now && !stopped_) {
    auto [due, id] = *schedule_.begin();
    schedule_.erase(schedule_.begin());
    auto it = timers_.find(id);
    if (it == timers_.end()) continue;  // cancelled
    Handler fn = it->second.fn;         // copy: fn may cancel or add timers
    if (it->second.period_ns > 0) {
      schedule_.emplace(std::max(due + it->second.period_ns, now), id);
    } else {
      timers_.erase(it);
    }
    fn();
  }
}

void Reactor::run() {
  stopped_ = false;
  while (!stopped_) {
    long timeout_ms = 1000;
    if (!schedule_.empty()) {
      Nanos wait = schedule_.begin()->first - clock_.steady_now();
      // Round up so a timer is never polled early and spun on; sub-ms precision is the
      // timing service's business (it spins for the final stretch itself).
      timeout_ms = wait <= 0 ? 0 : std::min<long>(1000, (wait + 999'999) / 1'000'000);
    }
    try {
      zmq::poll(items_.data(), items_.size(), std::chrono::milliseconds(timeout_ms));
    } catch (const zmq::error_t& e) {
      if (e.num() != EINTR) throw;
      continue;  // a signal: its handler wrote to a pipe the next poll will see
    }
    for (size_t i = 0; i < items_.size() && !stopped_; ++i) {
      if (items_[i].revents & ZMQ_POLLIN) handlers_[i]();
    }
    run_due_timers();
  }
}

}  // namespace aiperf::bus
