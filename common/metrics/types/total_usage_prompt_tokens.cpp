// Total Usage Prompt Tokens: sum of usage_prompt_tokens over valid records.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_usage_prompt_tokens() {
  MetricDescriptor d;
  d.tag = "total_usage_prompt_tokens";
  d.header = "Total Usage Prompt Tokens";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kTokenizesInputOnly | flags::kLargerIsBetter;
  d.display_order = 2000;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"usage_prompt_tokens"};
  d.derive = [](const ResultValues& v) { return v.sum("usage_prompt_tokens"); };
  return d;
}

}  // namespace aiperf::metrics::types
