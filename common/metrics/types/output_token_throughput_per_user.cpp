// Output Token Throughput Per User: 1 / ITL_seconds, the decode speed one user experiences.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor output_token_throughput_per_user() {
  MetricDescriptor d;
  d.tag = "output_token_throughput_per_user";
  d.header = "Output Token Throughput Per User";
  d.short_header = "Output TPS/User";
  d.unit = units::kTokensPerSecondPerUser;
  d.display_unit = units::kTokensPerSecondPerUser;
  d.flags = flags::kStreamingTokensOnly | flags::kLargerIsBetter;
  d.display_order = 500;
  d.value_type = ValueType::kFloat;
  d.required = {"inter_token_latency"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    auto itl = v.get("inter_token_latency");
    if (!itl || *itl <= 0) return std::nullopt;
    return 1.0 / (*itl / 1e9);
  };
  return d;
}

}  // namespace aiperf::metrics::types
