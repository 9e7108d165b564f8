#include "shiftable_timers.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace aiperf::timing {

void ShiftableTimers::call_at(int64_t at_ns, std::function<void(int64_t)> fn) {
  queue_.emplace(at_ns, std::move(fn));
  arm();
}

void ShiftableTimers::arm() {
  if (queue_.empty()) return;
  const int64_t earliest = queue_.begin()->first;
  if (armed_ && armed_at_ <= earliest) return;  // the armed timer comes first anyway
  armed_ = true;
  armed_at_ = earliest;
  const uint64_t generation = ++generation_;
  sink_.call_at(earliest, [this, generation] { fire(generation); });
}

void ShiftableTimers::fire(uint64_t generation) {
  if (generation != generation_) return;  // armed before a shift or an earlier arm
  armed_ = false;
  const int64_t until = armed_at_;
  // Everything due by the armed deadline, in deadline order; a callback may add timers.
  while (!queue_.empty() && queue_.begin()->first <= until) {
    auto it = queue_.begin();
    const int64_t due = it->first;
    auto fn = std::move(it->second);
    queue_.erase(it);
    fn(due);
  }
  arm();
}

int64_t ShiftableTimers::cap_pending_delay(int64_t max_delay_ns) {
  if (queue_.empty()) return 0;
  const int64_t now = sink_.now_ns();
  const int64_t shift = queue_.begin()->first - now - std::max<int64_t>(0, max_delay_ns);
  if (shift <= 0) return 0;
  std::multimap<int64_t, std::function<void(int64_t)>> moved;
  for (auto& [at, fn] : queue_) moved.emplace(std::max(now, at - shift), std::move(fn));
  queue_ = std::move(moved);
  armed_ = false;  // the armed timer is stale now
  arm();
  return shift;
}

}  // namespace aiperf::timing
