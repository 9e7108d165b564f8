// Prefill Throughput Per User: ISL / ttft_seconds, prompt tokens processed per second before
// the first token.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor prefill_throughput_per_user() {
  MetricDescriptor d;
  d.tag = "prefill_throughput_per_user";
  d.header = "Prefill Throughput Per User";
  d.short_header = "Prefill TPS/User";
  d.unit = units::kTokensPerSecondPerUser;
  d.display_unit = units::kTokensPerSecondPerUser;
  d.flags = flags::kStreamingTokensOnly | flags::kTokenizesInputOnly | flags::kLargerIsBetter |
            flags::kNoConsole;
  d.value_type = ValueType::kFloat;
  d.required = {"input_sequence_length", "time_to_first_token"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    auto isl = v.get("input_sequence_length");
    auto ttft = v.get("time_to_first_token");
    if (!isl || !ttft || *ttft <= 0) return std::nullopt;
    return *isl / (*ttft / 1e9);
  };
  return d;
}

}  // namespace aiperf::metrics::types
