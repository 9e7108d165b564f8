// Usage Completion Audio Tokens: completion_tokens_details.audio_tokens
// (or output_tokens_details.audio_tokens). Audio-capable endpoints only.
// No value when the request's last usage block lacks it.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_completion_audio_tokens() {
  MetricDescriptor d;
  d.tag = "usage_completion_audio_tokens";
  d.header = "Usage Completion Audio Tokens";
  d.short_header = "Usage Completion Audio";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter | flags::kSupportsAudioOnly;
  d.display_order = 1120;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.usage || !r.usage->completion_audio_tokens) return std::nullopt;
    return static_cast<double>(*r.usage->completion_audio_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
