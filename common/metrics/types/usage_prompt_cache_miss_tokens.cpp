// Usage Prompt Cache Miss Tokens: prompt tokens that missed the cache, as DeepSeek
// reports them (prompt_cache_miss_tokens); other vendors report no miss count.
// No value when the request's last usage block lacks it.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_prompt_cache_miss_tokens() {
  MetricDescriptor d;
  d.tag = "usage_prompt_cache_miss_tokens";
  d.header = "Usage Prompt Cache Miss Tokens";
  d.short_header = "Usage Prompt Cache Miss";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kNone;
  d.display_order = 1017;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.usage || !r.usage->prompt_cache_miss_tokens) return std::nullopt;
    return static_cast<double>(*r.usage->prompt_cache_miss_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
