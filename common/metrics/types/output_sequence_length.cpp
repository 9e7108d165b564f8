// Output Sequence Length (OSL): output_token_count + reasoning_token_count, a missing count
// being 0. No value when neither count exists (nothing was tokenized).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor output_sequence_length() {
  MetricDescriptor d;
  d.tag = "output_sequence_length";
  d.header = "Output Sequence Length";
  d.short_header = "OSL";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter;
  d.display_order = 600;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.output_tokens && !r.reasoning_tokens) return std::nullopt;
    return static_cast<double>(r.output_tokens.value_or(0) + r.reasoning_tokens.value_or(0));
  };
  return d;
}

}  // namespace aiperf::metrics::types
