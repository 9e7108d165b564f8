// Decode Duration (AIPerf 0.13): request_latency - time_to_first_token, the client-observed
// interval from the first to the final content response. Streaming token runs only; none when
// the latency is below the TTFT (AIPerf refuses that record's value).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor decode_duration() {
  MetricDescriptor d;
  d.tag = "decode_duration";
  d.header = "Decode Duration";
  d.short_header = "Decode Duration";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kStreamingTokensOnly;
  d.display_order = 350;
  d.value_type = ValueType::kInt;
  d.required = {"request_latency", "time_to_first_token"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    auto latency = v.get("request_latency");
    auto ttft = v.get("time_to_first_token");
    if (!latency || !ttft || *latency < *ttft) return std::nullopt;
    return *latency - *ttft;
  };
  return d;
}

}  // namespace aiperf::metrics::types
