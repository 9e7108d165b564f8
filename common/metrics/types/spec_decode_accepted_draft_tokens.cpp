// Accepted Draft Tokens: the request's accepted draft tokens, bonus tokens
// excluded (num_accepted_draft_tokens). Exported, not on the console.
// No value without an acceptance record (spec decode off, or the payload was malformed).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor spec_decode_accepted_draft_tokens() {
  MetricDescriptor d;
  d.tag = "spec_decode_accepted_draft_tokens";
  d.header = "Accepted Draft Tokens";
  d.short_header = "Accepted Draft";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kNoConsole;
  d.display_order = 5050;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kDefault;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.spec_decode) return std::nullopt;
    return static_cast<double>(r.spec_decode->num_accepted_draft_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
