// Usage Prompt Diff %: abs(usage_prompt_tokens - input_sequence_length)
// / input_sequence_length * 100, how far the server's count is from ours. No value when either count is
// missing or ours is 0 (a percentage of nothing).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_prompt_tokens_diff_pct() {
  MetricDescriptor d;
  d.tag = "usage_prompt_tokens_diff_pct";
  d.header = "Usage Prompt Diff %";
  d.unit = units::kPercent;
  d.display_unit = units::kPercent;
  d.flags = flags::kTokenizesInputOnly | flags::kUsageDiffOnly | flags::kNoConsole;
  d.required = {"usage_prompt_tokens", "input_sequence_length"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    return percent_diff(v.get("usage_prompt_tokens"), v.get("input_sequence_length"));
  };
  return d;
}

}  // namespace aiperf::metrics::types
