// HTTP Total Time: the sum of the six phases (blocked, dns_lookup, connecting, sending, waiting,
// receiving), a missing phase counting 0, so the breakdown reconciles exactly.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_total() {
  MetricDescriptor d;
  d.tag = "http_req_total";
  d.header = "HTTP Total Time";
  d.short_header = "Total";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2130;
  d.value_type = ValueType::kInt;
  d.required = {"http_req_blocked", "http_req_dns_lookup", "http_req_connecting",
                "http_req_sending", "http_req_waiting", "http_req_receiving"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    double total = 0;
    for (const char* phase : {"http_req_blocked", "http_req_dns_lookup", "http_req_connecting",
                              "http_req_sending", "http_req_waiting", "http_req_receiving"}) {
      total += v.get(phase).value_or(0);
    }
    return total;
  };
  return d;
}

}  // namespace aiperf::metrics::types
