// AIPerf 0.13's "Server Metrics: Speculative Decoding" console table: SGLang's scheduler gauges
// sglang:spec_accept_rate (as %) and sglang:spec_accept_length over the profiling window, the
// series of the run's models only and of the leader rank (pp_rank and tp_rank 0: the other ranks
// repeat the same values).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "server_metrics.h"

namespace aiperf::telemetry {

// The table (title line first, every line ending in '\n'), or "" when no matching series shows
// speculation ran (all-zero gauges: SGLang exposes 0 before any draft is accepted). A row per
// series; with several, each label says what tells it apart (endpoint, model_name, other labels,
// else "series=N"). `models`: the run's --model names, matched without case.
std::string sglang_spec_decode_console(const std::vector<ServerSeries>& series, int64_t start_ns,
                                       const std::vector<std::string>& models, bool unicode_box);

}  // namespace aiperf::telemetry
