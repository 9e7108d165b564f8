// Number of Images: the images the request sent, as its endpoint counts them (image_retrieval's
// input parts); no value for a record without images. Exported, not on the console.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor num_images() {
  MetricDescriptor d;
  d.tag = "num_images";
  d.header = "Number of Images";
  d.short_header = "Num Images";
  d.unit = units::kImages;
  d.display_unit = units::kImages;
  d.flags = flags::kSupportsImageOnly | flags::kNoConsole;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.num_images || *r.num_images <= 0) return std::nullopt;
    return static_cast<double>(*r.num_images);
  };
  return d;
}

}  // namespace aiperf::metrics::types
