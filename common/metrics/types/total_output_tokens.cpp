// Total Output Tokens: sum of output_token_count over valid records.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_output_tokens() {
  MetricDescriptor d;
  d.tag = "total_output_tokens";
  d.header = "Total Output Tokens";
  d.short_header = "Total Output";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter | flags::kNoConsole;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"output_token_count"};
  d.derive = [](const ResultValues& v) { return v.sum("output_token_count"); };
  return d;
}

}  // namespace aiperf::metrics::types
