#include "agentic_replay.h"

#include <algorithm>
#include <cmath>

namespace aiperf::timing {
namespace {
int64_t agentic_ms_to_ns(double ms) { return static_cast<int64_t>(std::llround(ms * 1e6)); }
}  // namespace

AgenticPhases plan_agentic_phases(const std::vector<Trajectory>& lanes, const AgenticOptions& options) {
  AgenticPhases out;
  const std::optional<double> cap_ms =
      options.trace_idle_gap_cap_s ? std::optional<double>(*options.trace_idle_gap_cap_s * 1000) : std::nullopt;

  // Warmup: leads before each lane's t*, aligned on the largest.
  std::vector<std::optional<double>> leads;
  double max_lead = 0;
  for (const Trajectory& t : lanes) {
    std::optional<double> lead;
    if (t.warm_turn && !options.burst_phase_starts && t.t_star_ms && t.warm_ts_ms) {
      lead = *t.t_star_ms - *t.warm_ts_ms;
      if (cap_ms) lead = std::min(*lead, *cap_ms);
      max_lead = std::max(max_lead, *lead);
    }
    leads.push_back(lead);
  }
  for (size_t i = 0; i < lanes.size(); ++i) {
    const Trajectory& t = lanes[i];
    if (!t.warm_turn) continue;
    ReplayStart s;
    s.conversation = t.conversation;
    s.correlation_id = t.correlation_id;
    s.first_turn = *t.warm_turn;
    s.end_turn = *t.warm_turn + 1;  // the warmed turn alone
    s.offset_ns = leads[i] ? agentic_ms_to_ns(max_lead - *leads[i]) : 0;
    out.warmup.push_back(std::move(s));
  }

  // Profiling: each lane at its first turn's offset after t*, the leading idle capped.
  for (const Trajectory& t : lanes) {
    ReplayStart s;
    s.conversation = t.conversation;
    s.correlation_id = t.correlation_id;
    s.first_turn = t.next_turn;
    if (t.t_star_ms && t.next_ts_ms && !options.burst_phase_starts) {
      double offset = std::max(0.0, *t.next_ts_ms - *t.t_star_ms);
      if (cap_ms) offset -= std::max(0.0, offset - *cap_ms);
      s.offset_ns = agentic_ms_to_ns(offset);
    }
    out.profiling.push_back(std::move(s));
  }
  return out;
}

}  // namespace aiperf::timing
