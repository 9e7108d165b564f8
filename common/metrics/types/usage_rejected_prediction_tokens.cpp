// Usage Rejected Prediction Tokens: tokens of a predicted output the model did not
// use: completion_tokens_details.rejected_prediction_tokens.
// No value when the request's last usage block lacks it.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_rejected_prediction_tokens() {
  MetricDescriptor d;
  d.tag = "usage_rejected_prediction_tokens";
  d.header = "Usage Rejected Prediction Tokens";
  d.short_header = "Usage Rejected Pred";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly;
  d.display_order = 1140;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.usage || !r.usage->rejected_prediction_tokens) return std::nullopt;
    return static_cast<double>(*r.usage->rejected_prediction_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
