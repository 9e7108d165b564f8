// Server Inter Token Latency (ours, no AIPerf counterpart): the server's decode time per generated token after the first (llama.cpp
// timings.predicted_per_token_ms), in ns, shown in ms. No value when the server generated fewer than
// two tokens (llama.cpp then reports 0, which is no measurement).
// Only where the server sends llama.cpp's `timings`; hidden from the console table (the
// Client vs Server section shows it), in records and the JSON/CSV summary.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor server_inter_token_latency() {
  MetricDescriptor d;
  d.tag = "server_inter_token_latency";
  d.header = "Server Inter Token Latency";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kNoConsole;
  d.value_type = ValueType::kFloat;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.server_timings || !r.server_timings->predicted_per_token_ms) return std::nullopt;
    if (!r.server_timings->predicted_n || *r.server_timings->predicted_n < 2) return std::nullopt;
    return *r.server_timings->predicted_per_token_ms * 1e6;
  };
  return d;
}

}  // namespace aiperf::metrics::types
