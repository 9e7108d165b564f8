// Image Throughput: num_images / request latency in seconds (images/sec), per record.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor image_throughput() {
  MetricDescriptor d;
  d.tag = "image_throughput";
  d.header = "Image Throughput";
  d.short_header = "Image Throughput";
  d.unit = units::kImagesPerSecond;
  d.display_unit = units::kImagesPerSecond;
  d.flags = flags::kSupportsImageOnly;
  d.display_order = 860;
  d.value_type = ValueType::kFloat;
  d.required = {"num_images", "request_latency"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    auto images = v.get("num_images");
    auto latency = v.get("request_latency");
    if (!images || !latency) return std::nullopt;
    const double seconds = units::convert(*latency, units::kNanoseconds, units::kSeconds);
    if (seconds == 0) return std::nullopt;
    return *images / seconds;
  };
  return d;
}

}  // namespace aiperf::metrics::types
