// Total Usage Tool Use Prompt Tokens: sum of usage_tool_use_prompt_tokens over valid records (no value when no record
// had one).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_usage_tool_use_prompt_tokens() {
  MetricDescriptor d;
  d.tag = "total_usage_tool_use_prompt_tokens";
  d.header = "Total Usage Tool Use Prompt Tokens";
  d.short_header = "Total Usage Tool Prompt";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kNone;  // usage_tool_use_prompt_tokens's, as AIPerf's DerivedSumMetric inherits them
  d.display_order = 2030;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"usage_tool_use_prompt_tokens"};
  d.derive = [](const ResultValues& v) { return v.sum("usage_tool_use_prompt_tokens"); };
  return d;
}

}  // namespace aiperf::metrics::types
