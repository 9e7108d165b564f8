// Usage Completion Diff %: abs(usage_completion_tokens - output_sequence_length)
// / output_sequence_length * 100, how far the server's count is from ours. No value when either count is
// missing or ours is 0 (a percentage of nothing).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_completion_tokens_diff_pct() {
  MetricDescriptor d;
  d.tag = "usage_completion_tokens_diff_pct";
  d.header = "Usage Completion Diff %";
  d.unit = units::kPercent;
  d.display_unit = units::kPercent;
  d.flags = flags::kProducesTokensOnly | flags::kUsageDiffOnly | flags::kNoConsole;
  d.required = {"usage_completion_tokens", "output_sequence_length"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    return percent_diff(v.get("usage_completion_tokens"), v.get("output_sequence_length"));
  };
  return d;
}

}  // namespace aiperf::metrics::types
