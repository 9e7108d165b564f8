// Server Decode Time (ours, no AIPerf counterpart): the server's decode time for the request, from the first generated token to the last
// (llama.cpp timings.predicted_ms), in ns, shown in ms.
// Only where the server sends llama.cpp's `timings`; hidden from the console table (the
// Client vs Server section shows it), in records and the JSON/CSV summary.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor server_decode_time() {
  MetricDescriptor d;
  d.tag = "server_decode_time";
  d.header = "Server Decode Time";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kNoConsole;
  d.value_type = ValueType::kFloat;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.server_timings || !r.server_timings->predicted_ms) return std::nullopt;
    return *r.server_timings->predicted_ms * 1e6;
  };
  return d;
}

}  // namespace aiperf::metrics::types
