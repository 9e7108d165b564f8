// Video Peak Memory: the peak GPU memory a video job's server reports (peak_memory_mb of the
// first job response carrying it, SGLang's field), in MB. No value when the server reports
// none. Only for endpoint types that produce videos.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor video_peak_memory() {
  MetricDescriptor d;
  d.tag = "video_peak_memory";
  d.header = "Video Peak Memory";
  d.short_header = "Peak Memory";
  d.unit = units::kMegabytes;
  d.display_unit = units::kMegabytes;
  d.flags = flags::kProducesVideoOnly;
  d.display_order = 311;  // after video_inference_time, as AIPerf
  d.value_type = ValueType::kFloat;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    return r.video_peak_memory_mb;
  };
  return d;
}

}  // namespace aiperf::metrics::types
