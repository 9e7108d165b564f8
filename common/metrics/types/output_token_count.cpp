// Output Token Count: tokens of the concatenated non-reasoning text.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor output_token_count() {
  MetricDescriptor d;
  d.tag = "output_token_count";
  d.header = "Output Token Count";
  d.short_header = "Output Tokens";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter | flags::kNoConsole;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.output_tokens) return std::nullopt;
    return static_cast<double>(*r.output_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
