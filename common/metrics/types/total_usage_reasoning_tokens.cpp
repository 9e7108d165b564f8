// Total Usage Reasoning Tokens: sum of usage_reasoning_tokens over valid records (no value when no record had one).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_usage_reasoning_tokens() {
  MetricDescriptor d;
  d.tag = "total_usage_reasoning_tokens";
  d.header = "Total Usage Reasoning Tokens";
  d.short_header = "Total Usage Reasoning";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter |
            flags::kSupportsReasoning;  // usage_reasoning_tokens's, as AIPerf's DerivedSumMetric inherits them
  d.display_order = 2110;               // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"usage_reasoning_tokens"};
  d.derive = [](const ResultValues& v) { return v.sum("usage_reasoning_tokens"); };
  return d;
}

}  // namespace aiperf::metrics::types
