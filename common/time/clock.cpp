#include "time/clock.h"

#include <time.h>

namespace aiperf {

Nanos steady_now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return Nanos(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

Nanos wall_now_ns() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return Nanos(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

ClockPair paired_now() {
  constexpr Nanos kTight = 1'000;
  ClockPair best{0, 0};
  Nanos best_gap = -1;
  for (int attempt = 0; attempt < 16; ++attempt) {
    const Nanos before = steady_now_ns();
    const Nanos wall = wall_now_ns();
    const Nanos gap = steady_now_ns() - before;
    if (best_gap < 0 || gap < best_gap) {
      best = {before + gap / 2, wall};
      best_gap = gap;
    }
    if (gap <= kTight) break;
  }
  return best;
}

namespace {
class SystemClock final : public Clock {
 public:
  Nanos steady_now() const override { return steady_now_ns(); }
  Nanos wall_now() const override { return wall_now_ns(); }
};
}  // namespace

Clock& system_clock() {
  static SystemClock clock;
  return clock;
}

}  // namespace aiperf
