// HTTP Receiving (k6 http_req_receiving): last response body chunk - first; 0 for one chunk.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_receiving() {
  MetricDescriptor d;
  d.tag = "http_req_receiving";
  d.header = "HTTP Receiving";
  d.short_header = "Receiving";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2050;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.http || r.http->response_chunks == 0) return std::nullopt;
    if (r.http->response_chunks == 1) return 0.0;
    return phase_ns(r.http->first_chunk_ns, r.http->last_chunk_ns);
  };
  return d;
}

}  // namespace aiperf::metrics::types
