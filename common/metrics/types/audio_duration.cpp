// Audio Duration: the request's input audio length in seconds (set for synthetic audio); no
// value without a positive length. Exported, not on the console (RTFx is the headline).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor audio_duration() {
  MetricDescriptor d;
  d.tag = "audio_duration";
  d.header = "Audio Duration";
  d.short_header = "Audio Dur";
  d.unit = units::kSeconds;
  d.display_unit = units::kSeconds;
  d.flags = flags::kSupportsAudioOnly | flags::kNoConsole;
  d.display_order = 870;
  d.value_type = ValueType::kFloat;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.audio_duration_seconds || *r.audio_duration_seconds <= 0) return std::nullopt;
    return *r.audio_duration_seconds;
  };
  return d;
}

}  // namespace aiperf::metrics::types
