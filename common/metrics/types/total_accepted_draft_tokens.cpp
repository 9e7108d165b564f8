// Total Accepted Draft Tokens: sum of spec_decode_accepted_draft_tokens over valid records. Exported, not on the
// console.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_accepted_draft_tokens() {
  MetricDescriptor d;
  d.tag = "total_accepted_draft_tokens";
  d.header = "Total Accepted Draft Tokens";
  d.short_header = "Total Accepted Draft";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kNoConsole;
  d.display_order = 5150;  // AIPerf 0.13's
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"spec_decode_accepted_draft_tokens"};
  d.derive = [](const ResultValues& v) { return v.sum("spec_decode_accepted_draft_tokens"); };
  return d;
}

}  // namespace aiperf::metrics::types
