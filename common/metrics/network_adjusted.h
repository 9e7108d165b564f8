// Network-adjusted latencies (AIPerf 0.13 network_adjusted_analyzer): with a run-level mean
// network RTT, each request-start-anchored latency (request latency, TTFT, TTFO) gets a
// separate network_adjusted_* result computed from max(value - rtt, 0) per record, plus a
// single-value network_rtt result. The raw metrics are untouched. Inter-token and inter-chunk
// latencies are not adjusted: the RTT cancels in their differences.
#pragma once
#include <functional>
#include <string_view>
#include <vector>

#include "results.pb.h"

namespace aiperf::metrics {

// A record metric's values in base units (ns), or null when the run has none.
using ColumnLookup = std::function<const std::vector<double>*(std::string_view tag)>;

// Appends network_rtt, then network_adjusted_request_latency, _time_to_first_token and
// _time_to_first_output_token (each only when its source has values), in ms with every
// statistic but the sample count (0: the reference's summary has none for them), as the
// reference orders them. Does nothing when rtt_ns <= 0 (adjusted == raw).
void append_network_adjusted(proto::ProfileResults& out, double rtt_ns, const ColumnLookup& column);

}  // namespace aiperf::metrics
