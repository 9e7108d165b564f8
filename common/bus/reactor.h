// Reactor: a single-threaded poll loop over ZeroMQ sockets, raw fds and timers. Every
// service's main thread runs one; handlers run on that thread only, so services need no locks
// for state touched by handlers.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include <zmq.hpp>

#include "time/clock.h"
#include "time/timers.h"

namespace aiperf::bus {

class Reactor final : public Timers {
 public:

  // Uses a CLOCK_MONOTONIC timerfd for deadlines, so timers fire with microsecond precision
  // (no millisecond rounding of poll timeouts); `clock` must be that same clock except in
  // tests that never block.
  explicit Reactor(const Clock& clock = system_clock());
  ~Reactor();
  Reactor(const Reactor&) = delete;
  Reactor& operator=(const Reactor&) = delete;

  // `on_readable` runs while the socket has messages; it must read at least one.
  void add_socket(zmq::socket_t& socket, Handler on_readable);
  void add_fd(int fd, Handler on_readable);

  TimerId call_at(Nanos at_ns, Handler fn) override;
  TimerId call_every(Nanos period_ns, Handler fn) override;
  void cancel(TimerId id) override;
  const Clock& clock() const override { return clock_; }

  // Runs until stop() is called from a handler.
  void run();
  void stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }

 private:
  struct Timer {
    Handler fn;
    Nanos period_ns;
  };
  void run_due_timers();
  void arm_timerfd();

  const Clock& clock_;
  int timer_fd_ = -1;
  Nanos armed_at_ = -1;  // deadline the timerfd is set to (-1 = disarmed)
  std::vector<zmq::pollitem_t> items_;
  std::vector<Handler> handlers_;
  std::multimap<Nanos, TimerId> schedule_;
  std::map<TimerId, Timer> timers_;
  TimerId next_id_ = 1;
  bool stopped_ = false;
};

}  // namespace aiperf::bus
