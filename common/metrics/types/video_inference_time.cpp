// Video Inference Time: the generation time a video job's server reports (inference_time_s of
// the first job response carrying it, SGLang's field), in seconds, shown in ms. No value when
// the server reports none. Only for endpoint types that produce videos.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor video_inference_time() {
  MetricDescriptor d;
  d.tag = "video_inference_time";
  d.header = "Video Inference Time";
  d.short_header = "Inference Time";
  d.unit = units::kSeconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kProducesVideoOnly;
  d.display_order = 310;  // after request_latency (300), as AIPerf
  d.value_type = ValueType::kFloat;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    return r.video_inference_time_s;
  };
  return d;
}

}  // namespace aiperf::metrics::types
