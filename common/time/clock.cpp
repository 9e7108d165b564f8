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
