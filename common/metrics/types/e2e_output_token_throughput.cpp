// E2E Output Token Throughput (AIPerf 0.13): output_sequence_length / request_latency_sec, one
// request's generation rate with TTFT and every overhead in the denominator (unlike
// output_token_throughput_per_user, 1 / ITL). None for a zero latency.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor e2e_output_token_throughput() {
  MetricDescriptor d;
  d.tag = "e2e_output_token_throughput";
  d.header = "E2E Output Token Throughput";
  d.short_header = "E2E Output TPS/User";
  d.unit = units::kTokensPerSecondPerUser;
  d.display_unit = units::kTokensPerSecondPerUser;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter;
  d.display_order = 510;
  d.value_type = ValueType::kFloat;
  d.required = {"output_sequence_length", "request_latency"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    auto osl = v.get("output_sequence_length");
    auto latency = v.get("request_latency");
    if (!osl || !latency || *latency <= 0) return std::nullopt;
    return *osl / (*latency / 1e9);
  };
  return d;
}

}  // namespace aiperf::metrics::types
