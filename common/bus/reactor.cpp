#include "bus/reactor.h"

#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace aiperf::bus {

Reactor::Reactor(const Clock& clock) : clock_(clock) {
  // Default timer slack (50 us) would blur sub-millisecond schedules; ask for the minimum.
  prctl(PR_SET_TIMERSLACK, 1UL);
  timer_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (timer_fd_ >= 0) {
    items_.push_back({nullptr, timer_fd_, ZMQ_POLLIN, 0});
    handlers_.push_back([this] {
      uint64_t expirations;
      (void)!::read(timer_fd_, &expirations, sizeof expirations);
      armed_at_ = -1;
    });
  }
}

Reactor::~Reactor() {
  if (timer_fd_ >= 0) ::close(timer_fd_);
}

void Reactor::arm_timerfd() {
  const Nanos next = schedule_.empty() ? -1 : schedule_.begin()->first;
  if (next == armed_at_ || timer_fd_ < 0) return;
  itimerspec spec{};
  if (next >= 0) {
    const Nanos at = std::max<Nanos>(next, 1);  // 0 would disarm
    spec.it_value.tv_sec = at / 1'000'000'000;
    spec.it_value.tv_nsec = at % 1'000'000'000;
  }
  timerfd_settime(timer_fd_, TFD_TIMER_ABSTIME, &spec, nullptr);
  armed_at_ = next;
}

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
    run_due_timers();
    if (stopped_) break;
    // Without a timerfd, fall back to millisecond poll timeouts (rounded up, never early).
    long timeout_ms = 1000;
    if (timer_fd_ >= 0) {
      arm_timerfd();
    } else if (!schedule_.empty()) {
      const Nanos wait = schedule_.begin()->first - clock_.steady_now();
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
  }
}

}  // namespace aiperf::bus
