// HTTP Chunks Received: response body reads (transport reads, not SSE messages).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_chunks_received() {
  MetricDescriptor d;
  d.tag = "http_req_chunks_received";
  d.header = "HTTP Chunks Received";
  d.short_header = "Chunks Recv";
  d.unit = units::kCount;
  d.display_unit = units::kCount;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2100;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.http) return std::nullopt;
    return static_cast<double>(r.http->response_chunks);
  };
  return d;
}

}  // namespace aiperf::metrics::types
