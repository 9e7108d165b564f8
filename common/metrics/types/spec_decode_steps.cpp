// Spec Decode Steps: the request's verify steps (num_spec_steps; the sum of its
// acceptance histogram).
// No value without an acceptance record (spec decode off, or the payload was malformed).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor spec_decode_steps() {
  MetricDescriptor d;
  d.tag = "spec_decode_steps";
  d.header = "Spec Decode Steps";
  d.short_header = "Spec Decode Steps";
  d.unit = units::kCount;
  d.display_unit = units::kCount;
  d.flags = flags::kNone;
  d.display_order = 5040;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kSpecDecode;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.spec_decode) return std::nullopt;
    return static_cast<double>(r.spec_decode->num_spec_steps);
  };
  return d;
}

}  // namespace aiperf::metrics::types
