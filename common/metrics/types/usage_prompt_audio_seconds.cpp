// Usage Prompt Audio Seconds: the input audio's length as Mistral reports it
// (prompt_audio_seconds): a duration in seconds, not a token count.
// No value when the request's last usage block lacks it.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_prompt_audio_seconds() {
  MetricDescriptor d;
  d.tag = "usage_prompt_audio_seconds";
  d.header = "Usage Prompt Audio Seconds";
  d.short_header = "Usage Prompt Audio Sec";
  d.unit = units::kSeconds;
  d.display_unit = units::kSeconds;
  d.flags = flags::kLargerIsBetter | flags::kSupportsAudioOnly;
  d.display_order = 1040;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.value_type = ValueType::kFloat;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.usage || !r.usage->prompt_audio_seconds) return std::nullopt;
    return *r.usage->prompt_audio_seconds;
  };
  return d;
}

}  // namespace aiperf::metrics::types
