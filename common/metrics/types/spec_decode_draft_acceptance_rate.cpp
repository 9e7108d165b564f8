// Draft Acceptance Rate: accepted / proposed draft tokens of the request, in
// percent: the server's draft_acceptance_rate (a 0..1 fraction) x 100. Bonus tokens excluded.
// No value without an acceptance record (spec decode off, or the payload was malformed).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor spec_decode_draft_acceptance_rate() {
  MetricDescriptor d;
  d.tag = "spec_decode_draft_acceptance_rate";
  d.header = "Draft Acceptance Rate";
  d.short_header = "Draft Accept Rate";
  d.unit = units::kPercent;
  d.display_unit = units::kPercent;
  d.flags = flags::kLargerIsBetter;
  d.display_order = 5020;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kSpecDecode;
  d.value_type = ValueType::kFloat;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.spec_decode) return std::nullopt;
    return r.spec_decode->draft_acceptance_rate * 100.0;
  };
  return d;
}

}  // namespace aiperf::metrics::types
