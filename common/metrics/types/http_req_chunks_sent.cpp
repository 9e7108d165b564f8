// HTTP Chunks Sent: request body writes.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_chunks_sent() {
  MetricDescriptor d;
  d.tag = "http_req_chunks_sent";
  d.header = "HTTP Chunks Sent";
  d.short_header = "Chunks Sent";
  d.unit = units::kCount;
  d.display_unit = units::kCount;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2080;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.http) return std::nullopt;
    return static_cast<double>(r.http->request_chunks);
  };
  return d;
}

}  // namespace aiperf::metrics::types
