// Timers: callbacks at steady-clock instants, run on the owner's thread. A service's logic
// takes this port instead of its reactor, so its rules (deadlines, quiet periods, periodic
// reports) run in unit tests on a fake clock. bus::Reactor implements it for the services;
// tests/fakes/manual_timers.h runs timers only when a test advances time.
#pragma once
#include <cstdint>
#include <functional>
#include <utility>

#include "time/clock.h"

namespace aiperf {

class Timers {
 public:
  using Handler = std::function<void()>;
  using TimerId = uint64_t;  // 0 is never a timer: "none"

  virtual ~Timers() = default;
  // Runs `fn` once at steady time `at_ns` (as soon as possible when in the past).
  virtual TimerId call_at(Nanos at_ns, Handler fn) = 0;
  // Runs `fn` every `period_ns`, the first time one period from now.
  virtual TimerId call_every(Nanos period_ns, Handler fn) = 0;
  // Unknown, fired or 0: nothing happens.
  virtual void cancel(TimerId id) = 0;
  // The clock the instants refer to.
  virtual const Clock& clock() const = 0;

  TimerId call_after(Nanos delay_ns, Handler fn) { return call_at(clock().steady_now() + delay_ns, std::move(fn)); }
};

}  // namespace aiperf
