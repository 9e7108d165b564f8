// Inverse Real-Time Factor (RTFx): audio_duration / request latency in seconds; 10 means the
// server transcribed 10 s of audio per second. Larger is better.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor rtfx() {
  MetricDescriptor d;
  d.tag = "rtfx";
  d.header = "Inverse Real-Time Factor (RTFx)";
  d.short_header = "RTFx";
  d.unit = units::kRatio;
  d.display_unit = units::kRatio;
  d.flags = flags::kSupportsAudioOnly | flags::kLargerIsBetter;
  d.display_order = 850;
  d.value_type = ValueType::kFloat;
  d.required = {"audio_duration", "request_latency"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    auto duration = v.get("audio_duration");
    auto latency = v.get("request_latency");
    if (!duration || !latency) return std::nullopt;
    const double seconds = units::convert(*latency, units::kNanoseconds, units::kSeconds);
    if (seconds <= 0) return std::nullopt;
    return *duration / seconds;
  };
  return d;
}

}  // namespace aiperf::metrics::types
