// Total Usage Completion Tokens: sum of usage_completion_tokens over valid records.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_usage_completion_tokens() {
  MetricDescriptor d;
  d.tag = "total_usage_completion_tokens";
  d.header = "Total Usage Completion Tokens";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter;
  d.display_order = 2100;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"usage_completion_tokens"};
  d.derive = [](const ResultValues& v) { return v.sum("usage_completion_tokens"); };
  return d;
}

}  // namespace aiperf::metrics::types
