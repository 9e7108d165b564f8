// Fake time for unit tests of service logic: a clock that moves only when the test says so,
// and Timers that fire, in instant order, as it moves past them. Header-only.
#pragma once
#include <algorithm>
#include <map>
#include <utility>

#include "time/clock.h"
#include "time/timers.h"

namespace aiperf::testing {

class ManualClock final : public Clock {
 public:
  Nanos steady_now() const override { return steady_; }
  // Wall time is steady time shifted by a fixed epoch, so the two stay consistent.
  Nanos wall_now() const override { return kWallEpoch + steady_; }
  void set(Nanos steady) { steady_ = steady; }

  static constexpr Nanos kWallEpoch = 1'700'000'000'000'000'000;

 private:
  Nanos steady_ = 0;
};

class ManualTimers final : public Timers {
 public:
  TimerId call_at(Nanos at_ns, Handler fn) override {
    const TimerId id = next_id_++;
    timers_.emplace(id, Timer{std::move(fn), 0});
    schedule_.emplace(at_ns, id);
    return id;
  }
  TimerId call_every(Nanos period_ns, Handler fn) override {
    const TimerId id = next_id_++;
    timers_.emplace(id, Timer{std::move(fn), period_ns});
    schedule_.emplace(clock_.steady_now() + period_ns, id);
    return id;
  }
  void cancel(TimerId id) override { timers_.erase(id); }
  const Clock& clock() const override { return clock_; }

  ManualClock& manual_clock() { return clock_; }
  size_t pending() const { return timers_.size(); }

  // Moves the clock to `t`, firing every timer due on the way at its own instant.
  void advance_to(Nanos t) {
    while (!schedule_.empty() && schedule_.begin()->first <= t) {
      const auto [due, id] = *schedule_.begin();
      schedule_.erase(schedule_.begin());
      auto it = timers_.find(id);
      if (it == timers_.end()) continue;  // cancelled
      clock_.set(std::max(due, clock_.steady_now()));
      Handler fn = it->second.fn;  // copy: fn may cancel or add timers
      if (it->second.period_ns > 0)
        schedule_.emplace(due + it->second.period_ns, id);
      else
        timers_.erase(it);
      fn();
    }
    if (t > clock_.steady_now()) clock_.set(t);
  }
  void advance_by(Nanos d) { advance_to(clock_.steady_now() + d); }

 private:
  struct Timer {
    Handler fn;
    Nanos period_ns;
  };
  ManualClock clock_;
  std::multimap<Nanos, TimerId> schedule_;
  std::map<TimerId, Timer> timers_;
  TimerId next_id_ = 1;
};

}  // namespace aiperf::testing
