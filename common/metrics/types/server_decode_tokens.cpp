// Server Decode Tokens (ours, no AIPerf counterpart): the tokens the server generated (llama.cpp timings.predicted_n).
// Only where the server sends llama.cpp's `timings`; hidden from the console table (the
// Client vs Server section shows it), in records and the JSON/CSV summary.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor server_decode_tokens() {
  MetricDescriptor d;
  d.tag = "server_decode_tokens";
  d.header = "Server Decode Tokens";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kNoConsole;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.server_timings || !r.server_timings->predicted_n) return std::nullopt;
    return static_cast<double>(*r.server_timings->predicted_n);
  };
  return d;
}

}  // namespace aiperf::metrics::types
