// Accepted per Verified: tokens emitted over tokens verified, each step's bonus
// token counted on both sides: (accepted + steps) / (drafted + steps). No value when both are 0.
// No value without an acceptance record (spec decode off, or the payload was malformed).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor spec_decode_accepted_per_verified() {
  MetricDescriptor d;
  d.tag = "spec_decode_accepted_per_verified";
  d.header = "Accepted per Verified";
  d.short_header = "Accepted / Verified";
  d.unit = units::kRatio;
  d.display_unit = units::kRatio;
  d.flags = flags::kLargerIsBetter;
  d.display_order = 5030;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kSpecDecode;
  d.value_type = ValueType::kFloat;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.spec_decode) return std::nullopt;
    const auto& s = *r.spec_decode;
    const int64_t verified = s.num_draft_tokens + s.num_spec_steps;
    if (verified == 0) return std::nullopt;
    return static_cast<double>(s.num_accepted_draft_tokens + s.num_spec_steps) / static_cast<double>(verified);
  };
  return d;
}

}  // namespace aiperf::metrics::types
