// HTTP Sending (k6 http_req_sending): last request body chunk written - send start.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_sending() {
  MetricDescriptor d;
  d.tag = "http_req_sending";
  d.header = "HTTP Sending";
  d.short_header = "Sending";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2030;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.http || r.http->send_start_ns == 0) return std::nullopt;
    return phase_ns(r.http->send_start_ns, r.http->send_end_ns);
  };
  return d;
}

}  // namespace aiperf::metrics::types
