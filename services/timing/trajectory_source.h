// Trajectories of AGENTIC_REPLAY (AIPerf 0.13's TrajectorySource): one per concurrency lane,
// each a trace seen at a sampled instant t*. Turns before t* are history (the last of them is
// replayed in the warmup phase to prime the server's cache), turns at or after t* are profiled.
//
//  - Lanes draw traces from the dataset's sampling order (sequential: 0, 1, ... wrapping;
//    shuffle: a shuffled pass, reshuffled each pass; random: with replacement); a trace with no
//    turn, or no usable split, is skipped and the next one drawn, at most lanes + 2 * traces
//    draws in all (so a lane count above the usable traces builds fewer lanes).
//  - A trace with timestamps: t* = lo + u (hi - lo), u uniform in [0, 1), lo/hi = first +
//    min/max ratio * (last - first) over its turns' timestamps. The first profiled turn is the
//    first whose timestamp is >= t*; the warmed turn the one before it (none when it is turn 0).
//  - A trace without timestamps: k uniform among [min(int(min * n), n - 2), min(int(max * n),
//    n - 2)] (just 0 when n = 2; n <= 1 is skipped); turn k is warmed, turn k + 1 profiled.
//  - Each lane keeps one session id (X-Correlation-ID) across both phases, so a per-session
//    cache-bust marker primes exactly the prefix the profiled turns extend.
//
// Draws are seeded (reproducible with --random-seed) but are not AIPerf's numpy draws, so the
// same seed picks other instants than AIPerf does.
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "phase_runner.h"

namespace aiperf::timing {

struct Trajectory {
  size_t conversation = 0;
  std::string correlation_id;
  std::optional<double> t_star_ms;    // unset: a trace without timestamps
  uint32_t next_turn = 0;             // the first profiled turn
  std::optional<uint32_t> warm_turn;  // next_turn - 1, when there is one
  std::optional<double> warm_ts_ms;   // its timestamp (unset without timestamps)
  std::optional<double> next_ts_ms;   // the first profiled turn's timestamp
};

struct TrajectoryOptions {
  uint32_t lanes = 1;
  double start_min_ratio = 0.25;
  double start_max_ratio = 0.75;
  Sampling sampling = Sampling::kSequential;
};

struct TrajectorySet {
  std::vector<Trajectory> lanes;
  uint64_t draws = 0;  // traces drawn from the sampling order (the profiling phase goes on from there)
};

TrajectorySet build_trajectories(const std::vector<ConversationInfo>& conversations, const TrajectoryOptions& options,
                                 std::mt19937_64& rng);

}  // namespace aiperf::timing
