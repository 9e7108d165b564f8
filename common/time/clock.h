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

// Both clocks read at (nearly) one instant, for mapping steady timestamps to wall time: a
// thread preempted between two plain reads would shift every wall time derived from the pair
// by the length of the preemption. Promise: the wall reading lies between two steady readings
// at most 1 µs apart (retried up to 16 times; the tightest pair otherwise), `steady` is their
// midpoint.
struct ClockPair {
  Nanos steady;
  Nanos wall;
};
ClockPair paired_now();

}  // namespace aiperf
