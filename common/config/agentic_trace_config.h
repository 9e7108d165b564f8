// Weka agentic trace replay controls (AIPerf 0.13 "Input" group): --use-think-time-only,
// --ignore-trace-delays, --max-context-length, --trace-idle-gap-cap-seconds, read by the
// weka_trace loader (services/dataset/weka_trace.h).
#pragma once
#include <cstdint>
#include <optional>

#include "config/json_optional.h"

namespace aiperf::config {

struct AgenticTraceConfig {
  bool use_think_time_only = false;                  // delay = recorded think_time where present
  bool ignore_trace_delays = false;                  // no timestamps, no delays
  std::optional<uint64_t> max_context_length;        // traces whose peak in + out exceeds it are dropped
  std::optional<double> trace_idle_gap_cap_seconds;  // request-start gaps within a trace shortened to this
  // tracelab subagent join (AIPERF_DATASET_TRACELAB_SUBAGENT_JOIN, ..._CODEX_SUBAGENT_JOIN,
  // ..._MIN_SPAWN_MS, read by the CLI): services/dataset/tracelab_trace.h.
  bool tracelab_subagent_join = true;
  bool tracelab_codex_subagent_join = true;
  uint64_t tracelab_min_spawn_ms = 10000;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AgenticTraceConfig, use_think_time_only, ignore_trace_delays,
                                                max_context_length, trace_idle_gap_cap_seconds, tracelab_subagent_join,
                                                tracelab_codex_subagent_join, tracelab_min_spawn_ms)

}  // namespace aiperf::config
