// HTTP Connecting (k6 http_req_connecting): connection ready - connect start, TCP plus the TLS
// handshake for https; 0 on a reused connection.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_connecting() {
  MetricDescriptor d;
  d.tag = "http_req_connecting";
  d.header = "HTTP Connecting";
  d.short_header = "Connecting";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2020;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.http) return std::nullopt;
    const HttpTiming& t = *r.http;
    if (t.connection_reused_ns != 0) return 0.0;
    if (t.connect_start_ns == 0) return std::nullopt;
    return phase_ns(t.connect_start_ns, t.connect_end_ns);
  };
  return d;
}

}  // namespace aiperf::metrics::types
