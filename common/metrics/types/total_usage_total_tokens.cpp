// Total Usage Total Tokens: sum of usage_total_tokens over valid records.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_usage_total_tokens() {
  MetricDescriptor d;
  d.tag = "total_usage_total_tokens";
  d.header = "Total Usage Total Tokens";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter;
  d.display_order = 2200;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"usage_total_tokens"};
  d.derive = [](const ResultValues& v) { return v.sum("usage_total_tokens"); };
  return d;
}

}  // namespace aiperf::metrics::types
