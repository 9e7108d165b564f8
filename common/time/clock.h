// Clock: the one source of time. steady_now() for every duration (monotonic, host-local),
// wall_now() only for exported timestamps. Injected so tests can use a fake.
#pragma once
#include <cstdint>

namespace aiperf {

using Nanos = int64_t;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Nanos steady_now() const = 0;  // CLOCK_MONOTONIC ns
  virtual Nanos wall_now() const = 0;    // CLOCK_REALTIME ns since the epoch
};

// The real clocks. Thread-safe, never null.
Clock& system_clock();

// Free functions for hot paths that do not need injection.
Nanos steady_now_ns();
Nanos wall_now_ns();

}  // namespace aiperf
