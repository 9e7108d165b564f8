// Total Usage Accepted Prediction Tokens: sum of usage_accepted_prediction_tokens over valid records (no value when no
// record had one).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_usage_accepted_prediction_tokens() {
  MetricDescriptor d;
  d.tag = "total_usage_accepted_prediction_tokens";
  d.header = "Total Usage Accepted Prediction Tokens";
  d.short_header = "Total Usage Accepted Pred";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly |
            flags::kLargerIsBetter;  // usage_accepted_prediction_tokens's, as AIPerf's DerivedSumMetric inherits them
  d.display_order = 2130;            // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"usage_accepted_prediction_tokens"};
  d.derive = [](const ResultValues& v) { return v.sum("usage_accepted_prediction_tokens"); };
  return d;
}

}  // namespace aiperf::metrics::types
