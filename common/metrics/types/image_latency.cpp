// Image Latency: request latency in ms / num_images (ms/image), per record.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor image_latency() {
  MetricDescriptor d;
  d.tag = "image_latency";
  d.header = "Image Latency";
  d.short_header = "Image Latency";
  d.unit = units::kMillisecondsPerImage;
  d.display_unit = units::kMillisecondsPerImage;
  d.flags = flags::kSupportsImageOnly;
  d.display_order = 861;
  d.value_type = ValueType::kFloat;
  d.required = {"num_images", "request_latency"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    auto images = v.get("num_images");
    auto latency = v.get("request_latency");
    if (!images || !latency || *images == 0) return std::nullopt;
    return units::convert(*latency, units::kNanoseconds, units::kMilliseconds) / *images;
  };
  return d;
}

}  // namespace aiperf::metrics::types
