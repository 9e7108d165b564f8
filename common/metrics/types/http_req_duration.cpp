// HTTP Duration (k6 http_req_duration): last response body chunk - send start; connection
// setup excluded.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_duration() {
  MetricDescriptor d;
  d.tag = "http_req_duration";
  d.header = "HTTP Duration (excl. conn)";
  d.short_header = "Dur (excl)";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2120;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.http || r.http->send_start_ns == 0 || r.http->last_chunk_ns == 0) return std::nullopt;
    return phase_ns(r.http->send_start_ns, r.http->last_chunk_ns);
  };
  return d;
}

}  // namespace aiperf::metrics::types
