// Total Reasoning Tokens: sum of reasoning_token_count over valid records.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_reasoning_tokens() {
  MetricDescriptor d;
  d.tag = "total_reasoning_tokens";
  d.header = "Total Reasoning Tokens";
  d.short_header = "Total Reasoning";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter | flags::kNoConsole;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"reasoning_token_count"};
  d.derive = [](const ResultValues& v) { return v.sum("reasoning_token_count"); };
  return d;
}

}  // namespace aiperf::metrics::types
