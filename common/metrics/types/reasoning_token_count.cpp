// Reasoning Token Count: tokens of the concatenated reasoning text; absent for answers
// without reasoning.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor reasoning_token_count() {
  MetricDescriptor d;
  d.tag = "reasoning_token_count";
  d.header = "Reasoning Token Count";
  d.short_header = "Reasoning Tokens";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter | flags::kSupportsReasoning |
            flags::kNoConsole;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.reasoning_tokens) return std::nullopt;
    return static_cast<double>(*r.reasoning_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
