// Usage Prompt Cache Write Tokens: prompt tokens written to the cache (Anthropic's
// cache_creation_input_tokens, Bedrock's cacheWriteInputTokens). Not larger-is-better: writes
// cost more than plain input but make later reads cheap.
// No value when the request's last usage block lacks it.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_prompt_cache_write_tokens() {
  MetricDescriptor d;
  d.tag = "usage_prompt_cache_write_tokens";
  d.header = "Usage Prompt Cache Write Tokens";
  d.short_header = "Usage Prompt Cache Write";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kNone;
  d.display_order = 1015;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.usage || !r.usage->prompt_cache_write_tokens) return std::nullopt;
    return static_cast<double>(*r.usage->prompt_cache_write_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
