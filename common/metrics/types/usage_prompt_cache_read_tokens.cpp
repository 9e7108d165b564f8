// Usage Prompt Cache Read Tokens: prompt tokens the server served from its cache, as
// its usage reports them (prompt_tokens_details.cached_tokens, cache_read_input_tokens, ...).
// No value when the request's last usage block lacks it.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_prompt_cache_read_tokens() {
  MetricDescriptor d;
  d.tag = "usage_prompt_cache_read_tokens";
  d.header = "Usage Prompt Cache Read Tokens";
  d.short_header = "Usage Prompt Cache Read";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kLargerIsBetter;
  d.display_order = 1010;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.usage || !r.usage->prompt_cache_read_tokens) return std::nullopt;
    return static_cast<double>(*r.usage->prompt_cache_read_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
