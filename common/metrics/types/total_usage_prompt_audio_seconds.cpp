// Total Usage Prompt Audio Seconds: sum of usage_prompt_audio_seconds over valid records (no value when no record had
// one).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_usage_prompt_audio_seconds() {
  MetricDescriptor d;
  d.tag = "total_usage_prompt_audio_seconds";
  d.header = "Total Usage Prompt Audio Seconds";
  d.short_header = "Total Usage Prompt Audio Sec";
  d.unit = units::kSeconds;
  d.display_unit = units::kSeconds;
  d.flags = flags::kLargerIsBetter |
            flags::kSupportsAudioOnly;  // usage_prompt_audio_seconds's, as AIPerf's DerivedSumMetric inherits them
  d.display_order = 2040;               // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kFloat;
  d.required = {"usage_prompt_audio_seconds"};
  d.derive = [](const ResultValues& v) { return v.sum("usage_prompt_audio_seconds"); };
  return d;
}

}  // namespace aiperf::metrics::types
