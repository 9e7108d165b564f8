// HTTP Waiting (k6 http_req_waiting, time to first byte): first response body chunk - request
// send end. Not TTFT: the first body bytes need not carry a token.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_waiting() {
  MetricDescriptor d;
  d.tag = "http_req_waiting";
  d.header = "HTTP Waiting (TTFB)";
  d.short_header = "TTFB";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2040;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.http || r.http->send_end_ns == 0 || r.http->first_chunk_ns == 0) return std::nullopt;
    return phase_ns(r.http->send_end_ns, r.http->first_chunk_ns);
  };
  return d;
}

}  // namespace aiperf::metrics::types
