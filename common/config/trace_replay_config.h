// Trace replay controls honoured by the baseten_trace loader only (AIPerf 0.13 "Conversation
// Input" group): --replay-speedup, --open-loop-replay/--no-open-loop-replay, --open-loop-strict,
// --omit-kv-hints, --force-min-tokens/--no-force-min-tokens, --trace-session-sample-ratio,
// --max-idle-gap-cap-seconds; plus --inter-turn-delay-cap-seconds (closed-loop think times).
#pragma once
#include <optional>
#include <string>

#include "config/json_optional.h"

namespace aiperf::config {

struct TraceReplayConfig {
  std::optional<double> replay_speedup;               // > 0; divides normalized timestamps
  bool open_loop_replay = true;                       // false: continuation turns get think times
  bool open_loop_strict = false;                      // every row its own one-turn session
  bool omit_kv_hints = false;                         // no hash_ids / block_size in bodies
  bool force_min_tokens = true;                       // min_tokens = recorded output length
  std::optional<double> trace_session_sample_ratio;   // (0, 1]: whole sessions kept
  std::optional<double> max_idle_gap_cap_seconds;     // > 0: replay gaps shortened to this
  std::optional<double> inter_turn_delay_cap_seconds; // >= 0: think times clamped to this
  // AIPERF_DATASET_BASETEN_SESSION_COLUMN (read by the CLI): the session column preferred when a
  // file has both provided_session_id and poor_man_session_id.
  std::string session_column = "provided_session_id";
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TraceReplayConfig, replay_speedup, open_loop_replay,
                                                open_loop_strict, omit_kv_hints, force_min_tokens,
                                                trace_session_sample_ratio, max_idle_gap_cap_seconds,
                                                inter_turn_delay_cap_seconds, session_column)

}  // namespace aiperf::config
