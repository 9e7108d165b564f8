// Usage Prompt Tokens: the server's last reported usage.prompt_tokens (valid records).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_prompt_tokens() {
  MetricDescriptor d;
  d.tag = "usage_prompt_tokens";
  d.header = "Usage Prompt Tokens";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kTokenizesInputOnly | flags::kLargerIsBetter;
  d.display_order = 1000;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.usage || !r.usage->prompt_tokens) return std::nullopt;
    return static_cast<double>(*r.usage->prompt_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
