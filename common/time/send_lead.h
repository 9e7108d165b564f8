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

// Timer wake-ups on a busy or virtualised host come tens of microseconds late, so a worker
// arms its timer this much before the intended instant and spins the rest of the way.
inline constexpr Nanos kSendSpinNs = 150'000;

// How long to wait before sending a credit intended for `intended_wall_ns` (0: unscheduled).
// Never negative and never longer than kMaxSendWaitNs.
inline Nanos send_wait_ns(Nanos intended_wall_ns, Nanos wall_now) {
  if (intended_wall_ns <= 0) return 0;
  return std::clamp<Nanos>(intended_wall_ns - wall_now, 0, kMaxSendWaitNs);
}

// Spinning costs a core while it lasts, and at high rates the io thread's time is worth more
// for sending and reading: spins draw on a budget that refills at a tenth of elapsed time
// (at most 10% of one core), capped so that an idle spell cannot bank a long burst.
class SpinBudget {
 public:
  static constexpr Nanos kCapNs = 5'000'000;
  static constexpr Nanos kRefillDivisor = 10;

  // True if a spin of up to `spin_ns` may start at `now`.
  bool allows(Nanos spin_ns, Nanos now) {
    refill(now);
    return budget_ns_ >= spin_ns;
  }
  // Records a spin that lasted `spent_ns`.
  void spend(Nanos spent_ns) { budget_ns_ -= spent_ns; }

 private:
  void refill(Nanos now) {
    if (last_ns_) budget_ns_ = std::min(kCapNs, budget_ns_ + (now - last_ns_) / kRefillDivisor);
    last_ns_ = now;
  }
  Nanos budget_ns_ = kCapNs;
  Nanos last_ns_ = 0;
};

// Busy-waits until the steady clock reaches `target_ns` (at most kSendSpinNs when used as
// intended); returns at once if it already has.
inline void spin_until(Nanos target_ns) {
  while (steady_now_ns() < target_ns) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();  // kinder to a sibling hyper-thread than a bare loop
#endif
  }
}

}  // namespace aiperf
