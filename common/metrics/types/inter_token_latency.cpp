// Inter Token Latency (ITL): (request_latency - ttft) / (osl - 1), the mean gap between output
// tokens after the first. Requires osl >= 2 (one token has no gap).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor inter_token_latency() {
  MetricDescriptor d;
  d.tag = "inter_token_latency";
  d.header = "Inter Token Latency";
  d.short_header = "ITL";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kStreamingTokensOnly;
  d.display_order = 400;
  d.value_type = ValueType::kFloat;
  d.required = {"request_latency", "time_to_first_token", "output_sequence_length"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    auto latency = v.get("request_latency");
    auto ttft = v.get("time_to_first_token");
    auto osl = v.get("output_sequence_length");
    if (!latency || !ttft || !osl || *osl < 2) return std::nullopt;
    return (*latency - *ttft) / (*osl - 1);
  };
  return d;
}

}  // namespace aiperf::metrics::types
