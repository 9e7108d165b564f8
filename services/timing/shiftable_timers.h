// Timers whose pending deadlines can all move earlier together: AGENTIC_REPLAY's global idle cap
// (--system-idle-gap-cap-seconds) shifts every pending start and think time by the same amount
// when nothing is in flight. Built on CreditSink::call_at, which cannot cancel: one sink timer is
// armed for the earliest deadline at a time, and a timer armed before a shift is ignored when it
// fires (a generation number tells).
#pragma once
#include <cstdint>
#include <functional>
#include <map>

#include "phase_runner.h"

namespace aiperf::timing {

class ShiftableTimers {
 public:
  explicit ShiftableTimers(CreditSink& sink) : sink_(sink) {}

  // Runs fn(due) at steady time `at_ns` (at once if past); `due` is the deadline it ran for,
  // `at_ns` or earlier after a shift.
  void call_at(int64_t at_ns, std::function<void(int64_t due_ns)> fn);
  // When the earliest pending deadline is more than max_delay_ns from now, moves every pending
  // deadline earlier by that excess (none before now): order and spacing are kept. Returns the
  // shift in ns (0: none needed or nothing pending).
  int64_t cap_pending_delay(int64_t max_delay_ns);
  size_t pending() const { return queue_.size(); }

 private:
  void arm();
  void fire(uint64_t generation);

  CreditSink& sink_;
  std::multimap<int64_t, std::function<void(int64_t)>> queue_;
  uint64_t generation_ = 0;
  bool armed_ = false;
  int64_t armed_at_ = 0;
};

}  // namespace aiperf::timing
