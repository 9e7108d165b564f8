// Usage Accepted Prediction Tokens: tokens of a predicted output (OpenAI's
// Predicted Outputs) the model used: completion_tokens_details.accepted_prediction_tokens.
// No value when the request's last usage block lacks it.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_accepted_prediction_tokens() {
  MetricDescriptor d;
  d.tag = "usage_accepted_prediction_tokens";
  d.header = "Usage Accepted Prediction Tokens";
  d.short_header = "Usage Accepted Pred";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter;
  d.display_order = 1130;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.usage || !r.usage->accepted_prediction_tokens) return std::nullopt;
    return static_cast<double>(*r.usage->accepted_prediction_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
