// Overall Draft Acceptance Rate: total_accepted_draft_tokens / total_draft_tokens
// * 100, requests weighing by their draft volume (spec_decode_draft_acceptance_rate averages
// requests instead). No value without proposed drafts.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor spec_decode_overall_draft_acceptance_rate() {
  MetricDescriptor d;
  d.tag = "spec_decode_overall_draft_acceptance_rate";
  d.header = "Overall Draft Acceptance Rate";
  d.short_header = "Overall Draft Accept Rate";
  d.unit = units::kPercent;
  d.display_unit = units::kPercent;
  d.flags = flags::kLargerIsBetter;
  d.display_order = 5025;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kSpecDecode;
  d.kind = MetricKind::kDerived;
  d.required = {"total_accepted_draft_tokens", "total_draft_tokens"};
  d.derive = [](const ResultValues& v) -> std::optional<double> {
    const std::optional<double> drafted = v.scalar("total_draft_tokens");
    const std::optional<double> accepted = v.scalar("total_accepted_draft_tokens");
    if (!drafted || !accepted || *drafted == 0) return std::nullopt;
    return *accepted / *drafted * 100.0;
  };
  return d;
}

}  // namespace aiperf::metrics::types
