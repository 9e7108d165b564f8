// Usage Tool Use Prompt Tokens: tokens of the tool declarations in the prompt
// (Gemini's toolUsePromptTokenCount); other vendors fold them into the prompt tokens.
// No value when the request's last usage block lacks it.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_tool_use_prompt_tokens() {
  MetricDescriptor d;
  d.tag = "usage_tool_use_prompt_tokens";
  d.header = "Usage Tool Use Prompt Tokens";
  d.short_header = "Usage Tool Prompt";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kNone;
  d.display_order = 1030;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.usage || !r.usage->tool_use_prompt_tokens) return std::nullopt;
    return static_cast<double>(*r.usage->tool_use_prompt_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
