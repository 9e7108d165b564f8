// Total Usage Completion Audio Tokens: sum of usage_completion_audio_tokens over valid records (no value when no record
// had one).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_usage_completion_audio_tokens() {
  MetricDescriptor d;
  d.tag = "total_usage_completion_audio_tokens";
  d.header = "Total Usage Completion Audio Tokens";
  d.short_header = "Total Usage Comp Audio";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter |
            flags::kSupportsAudioOnly;  // usage_completion_audio_tokens's, as AIPerf's DerivedSumMetric inherits them
  d.display_order = 2120;               // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"usage_completion_audio_tokens"};
  d.derive = [](const ResultValues& v) { return v.sum("usage_completion_audio_tokens"); };
  return d;
}

}  // namespace aiperf::metrics::types
