// HTTP Data Sent (k6 data_sent per request): request body bytes, as aiohttp's request chunks
// count them (the head is not a chunk).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_data_sent() {
  MetricDescriptor d;
  d.tag = "http_req_data_sent";
  d.header = "HTTP Data Sent";
  d.short_header = "Sent";
  d.unit = units::kBytes;
  d.display_unit = units::kKilobytes;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2070;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.http) return std::nullopt;
    return static_cast<double>(r.http->request_bytes);
  };
  return d;
}

}  // namespace aiperf::metrics::types
