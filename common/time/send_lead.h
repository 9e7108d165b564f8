// The contract between the timing service and the workers for scheduled credits: a credit
// leaves the timing service kSendLeadNs before its intended send time, and the worker waits
// for that instant on its own timer, so the ZeroMQ hop is not part of the schedule lag.
#pragma once
#include <algorithm>

#include "time/clock.h"

namespace aiperf {

inline constexpr Nanos kSendLeadNs = 2'000'000;

// Longest a worker will hold a credit. The intended time is wall time (the only timeline
// shared across hosts), so a wall clock stepped backwards, or a host whose clock is behind,
// would otherwise make a worker sit on a credit for as long as the clock error: a hang.
inline constexpr Nanos kMaxSendWaitNs = kSendLeadNs + 8'000'000;

// How long to wait before sending a credit intended for `intended_wall_ns` (0: unscheduled).
// Never negative and never longer than kMaxSendWaitNs.
inline Nanos send_wait_ns(Nanos intended_wall_ns, Nanos wall_now) {
  if (intended_wall_ns <= 0) return 0;
  return std::clamp<Nanos>(intended_wall_ns - wall_now, 0, kMaxSendWaitNs);
}

}  // namespace aiperf
