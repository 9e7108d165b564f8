// HTTP Blocked (k6 http_req_blocked): time queued for a connection slot, pool wait end - start;
// 0 when the request never queued.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_blocked() {
  MetricDescriptor d;
  d.tag = "http_req_blocked";
  d.header = "HTTP Blocked";
  d.short_header = "Blocked";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2000;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.http) return std::nullopt;
    const HttpTiming& t = *r.http;
    if (t.pool_wait_start_ns == 0) return 0.0;
    return phase_ns(t.pool_wait_start_ns, t.pool_wait_end_ns);
  };
  return d;
}

}  // namespace aiperf::metrics::types
