// TTFT Server Gap (ours, no AIPerf counterpart): time_to_first_token - server_prefill_time,
// the part of the client's TTFT the server did not
// spend on prefill (network both ways, queueing for a slot, tokenization, the first decode step).
// Streaming only (TTFT is), in ns, shown in ms.
// Only where the server sends llama.cpp's `timings`; hidden from the console table (the
// Client vs Server section shows it), in records and the JSON/CSV summary.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor ttft_server_gap() {
  MetricDescriptor d;
  d.tag = "ttft_server_gap";
  d.header = "TTFT Server Gap";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kNoConsole;
  d.value_type = ValueType::kFloat;
  d.required = {"time_to_first_token", "server_prefill_time"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    const auto ttft = v.get("time_to_first_token");
    const auto prefill = v.get("server_prefill_time");
    if (!ttft || !prefill) return std::nullopt;
    return *ttft - *prefill;
  };
  return d;
}

}  // namespace aiperf::metrics::types
