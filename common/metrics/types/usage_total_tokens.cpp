// Usage Total Tokens: the server's last reported usage.total_tokens (valid records).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_total_tokens() {
  MetricDescriptor d;
  d.tag = "usage_total_tokens";
  d.header = "Usage Total Tokens";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter;
  d.display_order = 1200;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.usage || !r.usage->total_tokens) return std::nullopt;
    return static_cast<double>(*r.usage->total_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
