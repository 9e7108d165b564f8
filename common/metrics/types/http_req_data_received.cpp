// HTTP Data Received (k6 data_received per request): response body bytes.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_data_received() {
  MetricDescriptor d;
  d.tag = "http_req_data_received";
  d.header = "HTTP Data Received";
  d.short_header = "Received";
  d.unit = units::kBytes;
  d.display_unit = units::kKilobytes;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2090;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.http) return std::nullopt;
    return static_cast<double>(r.http->response_bytes);
  };
  return d;
}

}  // namespace aiperf::metrics::types
