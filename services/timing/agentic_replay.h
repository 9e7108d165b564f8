// AGENTIC_REPLAY (AIPerf 0.13's AgenticReplayStrategy, selected by --scenario
// inferencex-agentx-mvp): the two phases' starting sessions, from the trajectories
// (trajectory_source.h). PhaseRunner runs them (PhaseConfig::replay_starts).
//
// Warmup ("agentic.warmup"): every lane whose t* has a turn before it replays that turn alone,
// priming the server's cache with the session's context as it was at t*. Spread (default): the
// requests are aligned on t*, so each lane's t* lands at the same instant: a warmed turn whose
// timestamp is `lead` = t* - ts before its t* starts at max_lead - lead (the furthest before its
// t* at 0). --burst-phase-starts: all at 0. A lane without timestamps starts at 0. The phase ends
// when every warmup request has returned (no grace unless --agentic-warmup-grace-period).
//
// Profiling: every lane resumes at its first turn at or after t*, `offset` = ts - t* after the
// phase start (spread), or at once (--burst-phase-starts; and a lane without timestamps); later
// turns follow the recorded delays. With --trace-idle-gap-cap-seconds C, a warmup lead is at most
// C and a profiling offset above C loses the excess. When a lane's session ends, the lane starts
// a fresh session at turn 0 of the next trace of the sampling order (recycling), until the
// phase's duration or request count stops it. Concurrency = the lanes built.
//
// --system-idle-gap-cap-seconds S (PhaseConfig::system_idle_cap_ns, both phases): whenever no
// request is in flight, the pending timers (starts and think times) all move earlier by the same
// amount so the next one is due at most S - (time idle so far) from now; order and spacing among
// them are kept.
//
// Not done (docs/load-modes.md): subagents as spawned children of their trace (ours are sessions
// of their own, as in every mode here), --agentic-cache-warmup-duration's accelerated cache
// warmup, the context-overflow classification of error responses.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "phase_runner.h"
#include "trajectory_source.h"

namespace aiperf::timing {

struct AgenticOptions {
  bool burst_phase_starts = false;
  std::optional<double> trace_idle_gap_cap_s;  // --trace-idle-gap-cap-seconds
};

struct AgenticPhases {
  std::vector<ReplayStart> warmup;     // empty: nothing precedes any t*, no warmup phase
  std::vector<ReplayStart> profiling;  // one per lane
};

AgenticPhases plan_agentic_phases(const std::vector<Trajectory>& lanes, const AgenticOptions& options);

}  // namespace aiperf::timing
