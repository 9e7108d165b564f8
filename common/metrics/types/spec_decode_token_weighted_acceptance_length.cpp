// Token-Weighted Acceptance Length: 1 + total_accepted_draft_tokens /
// total_spec_decode_steps, every verify step weighing the same (spec_decode_acceptance_length
// averages requests instead). No value without verify steps.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor spec_decode_token_weighted_acceptance_length() {
  MetricDescriptor d;
  d.tag = "spec_decode_token_weighted_acceptance_length";
  d.header = "Token-Weighted Acceptance Length";
  d.short_header = "Token-Wtd Accept Len";
  d.unit = units::kRatio;
  d.display_unit = units::kRatio;
  d.flags = flags::kLargerIsBetter;
  d.display_order = 5010;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kSpecDecode;
  d.kind = MetricKind::kDerived;
  d.required = {"total_accepted_draft_tokens", "total_spec_decode_steps"};
  d.derive = [](const ResultValues& v) -> std::optional<double> {
    const std::optional<double> steps = v.scalar("total_spec_decode_steps");
    const std::optional<double> accepted = v.scalar("total_accepted_draft_tokens");
    if (!steps || !accepted || *steps == 0) return std::nullopt;
    return 1.0 + *accepted / *steps;
  };
  return d;
}

}  // namespace aiperf::metrics::types
