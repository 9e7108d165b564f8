// Usage Completion Tokens: the server's last reported usage.completion_tokens (valid records).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_completion_tokens() {
  MetricDescriptor d;
  d.tag = "usage_completion_tokens";
  d.header = "Usage Completion Tokens";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter;
  d.display_order = 1100;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.usage || !r.usage->completion_tokens) return std::nullopt;
    return static_cast<double>(*r.usage->completion_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
