// HTTP Connection Reused: 1 when the request went out on an idle pooled connection, else 0.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_connection_reused() {
  MetricDescriptor d;
  d.tag = "http_req_connection_reused";
  d.header = "HTTP Connection Reused";
  d.short_header = "Conn Reused";
  d.unit = units::kRatio;
  d.display_unit = units::kRatio;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2060;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.http) return std::nullopt;
    return r.http->connection_reused_ns != 0 ? 1.0 : 0.0;
  };
  return d;
}

}  // namespace aiperf::metrics::types
