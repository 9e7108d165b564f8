// Acceptance Length: the request's mean tokens per verify step, bonus token
// included (1 + accepted / steps), as the server reports it (mean_acceptance_length).
// No value without an acceptance record (spec decode off, or the payload was malformed).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor spec_decode_acceptance_length() {
  MetricDescriptor d;
  d.tag = "spec_decode_acceptance_length";
  d.header = "Acceptance Length";
  d.short_header = "Acceptance Length";
  d.unit = units::kRatio;
  d.display_unit = units::kRatio;
  d.flags = flags::kLargerIsBetter;
  d.display_order = 5000;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kSpecDecode;
  d.value_type = ValueType::kFloat;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.spec_decode) return std::nullopt;
    return r.spec_decode->mean_acceptance_length;
  };
  return d;
}

}  // namespace aiperf::metrics::types
