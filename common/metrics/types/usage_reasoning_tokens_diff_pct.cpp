// Usage Reasoning Diff %: abs(usage_reasoning_tokens - reasoning_token_count)
// / reasoning_token_count * 100, how far the server's count is from ours. No value when either count is
// missing or ours is 0 (a percentage of nothing).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_reasoning_tokens_diff_pct() {
  MetricDescriptor d;
  d.tag = "usage_reasoning_tokens_diff_pct";
  d.header = "Usage Reasoning Diff %";
  d.unit = units::kPercent;
  d.display_unit = units::kPercent;
  d.flags = flags::kProducesTokensOnly | flags::kUsageDiffOnly | flags::kNoConsole | flags::kSupportsReasoning;
  d.required = {"usage_reasoning_tokens", "reasoning_token_count"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    return percent_diff(v.get("usage_reasoning_tokens"), v.get("reasoning_token_count"));
  };
  return d;
}

}  // namespace aiperf::metrics::types
