// Request Latency: content[last] - start. Trailing usage-only chunks and [DONE] are not
// content responses, so they do not lengthen the latency.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor request_latency() {
  MetricDescriptor d;
  d.tag = "request_latency";
  d.header = "Request Latency";
  d.short_header = "Req Latency";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kNone;
  d.display_order = 300;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (r.responses.empty()) return std::nullopt;
    return static_cast<double>(r.responses.back().perf_ns - r.start_perf_ns);
  };
  return d;
}

}  // namespace aiperf::metrics::types
