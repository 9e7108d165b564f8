// Usage Reasoning Tokens: usage.completion_tokens_details.reasoning_tokens as last reported (valid records).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_reasoning_tokens() {
  MetricDescriptor d;
  d.tag = "usage_reasoning_tokens";
  d.header = "Usage Reasoning Tokens";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter | flags::kSupportsReasoning;
  d.display_order = 1110;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.usage || !r.usage->reasoning_tokens) return std::nullopt;
    return static_cast<double>(*r.usage->reasoning_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
