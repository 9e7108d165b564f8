// HTTP Connection Overhead: blocked + dns_lookup + connecting, a missing phase counting 0 (as
// AIPerf's record_metrics.get(tag, 0)).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_connection_overhead() {
  MetricDescriptor d;
  d.tag = "http_req_connection_overhead";
  d.header = "HTTP Connection Overhead";
  d.short_header = "Conn Overhead";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2110;
  d.value_type = ValueType::kInt;
  d.required = {"http_req_blocked", "http_req_dns_lookup", "http_req_connecting"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    return v.get("http_req_blocked").value_or(0) + v.get("http_req_dns_lookup").value_or(0) +
           v.get("http_req_connecting").value_or(0);
  };
  return d;
}

}  // namespace aiperf::metrics::types
