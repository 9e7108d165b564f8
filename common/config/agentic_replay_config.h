// AIPerf 0.13's AGENTIC_REPLAY timing mode (selected by --scenario inferencex-agentx-mvp) and the
// scenario lock's outcome. The CLI fills both (cli/options_scenario.cpp); the timing service
// reads the replay settings (services/timing/agentic_replay.h), the controller writes the outcome
// into profile_export_aiperf.json's "metadata".
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/json_optional.h"

namespace aiperf::config {

struct AgenticReplayConfig {
  bool enabled = false;                      // the profiling phase runs AGENTIC_REPLAY
  double trajectory_start_min_ratio = 0.25;  // t* drawn in [min, max] of each trace's duration
  double trajectory_start_max_ratio = 0.75;
  // When nothing is in flight, pending timers move earlier so the next one is at most this far.
  std::optional<double> system_idle_gap_cap_seconds;
  std::optional<double> cache_warmup_duration;  // --agentic-cache-warmup-duration (> 0)
  std::optional<double> warmup_grace_period;    // --agentic-warmup-grace-period (unset = wait)
  // An error answer whose message holds one of these (any case) is a context overflow
  // (AIPERF_AGENTX_CONTEXT_OVERFLOW_SUBSTRINGS, a JSON list): it ends its lane's session, and
  // more than `context_overflow_rate_limit` of the answers (AIPERF_AGENTX_CONTEXT_OVERFLOW_RATE_LIMIT)
  // makes a scenario run invalid.
  std::vector<std::string> context_overflow_substrings = {"context length", "maximum context",
                                                          "context_length_exceeded", "prompt is too long"};
  double context_overflow_rate_limit = 0.01;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AgenticReplayConfig, enabled, trajectory_start_min_ratio,
                                                trajectory_start_max_ratio, system_idle_gap_cap_seconds,
                                                cache_warmup_duration, warmup_grace_period, context_overflow_substrings,
                                                context_overflow_rate_limit)

// AIPerf's is_context_overflow_response: `text` (an error message or body) holds one of
// `substrings`, compared without regard to ASCII case; none with an empty list.
inline bool is_context_overflow(std::string_view text, const std::vector<std::string>& substrings) {
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return out;
  };
  const std::string haystack = lower(text);
  for (const std::string& needle : substrings)
    if (!needle.empty() && haystack.find(lower(needle)) != std::string::npos) return true;
  return false;
}

// What --scenario decided (AIPerf's ScenarioOutcome): empty name = no scenario.
struct ScenarioOutcome {
  std::string name;
  bool unsafe_override = false;
  std::vector<std::string> applied_locks;
  std::vector<std::string> violations;  // downgraded to warnings by --unsafe-override
  bool submission_valid = false;
  std::vector<std::string> submission_invalid_reasons;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ScenarioOutcome, name, unsafe_override, applied_locks, violations,
                                                submission_valid, submission_invalid_reasons)

}  // namespace aiperf::config
