// Usage Prompt Audio Tokens: prompt_tokens_details.audio_tokens (or
// input_tokens_details.audio_tokens). Audio-capable endpoints only.
// No value when the request's last usage block lacks it.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_prompt_audio_tokens() {
  MetricDescriptor d;
  d.tag = "usage_prompt_audio_tokens";
  d.header = "Usage Prompt Audio Tokens";
  d.short_header = "Usage Prompt Audio";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kLargerIsBetter | flags::kSupportsAudioOnly;
  d.display_order = 1020;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.usage || !r.usage->prompt_audio_tokens) return std::nullopt;
    return static_cast<double>(*r.usage->prompt_audio_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
