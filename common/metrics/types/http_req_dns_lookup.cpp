// HTTP DNS Lookup (k6 http_req_looking_up): DNS end - start; 0 for a cache hit, a reused
// connection or an IP literal (no lookup at all).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor http_req_dns_lookup() {
  MetricDescriptor d;
  d.tag = "http_req_dns_lookup";
  d.header = "HTTP DNS Lookup";
  d.short_header = "DNS";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kHttpTraceOnly | flags::kNoConsole;
  d.display_order = 2010;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.http) return std::nullopt;
    const HttpTiming& t = *r.http;
    if (t.dns_cache_hit_ns != 0 || t.connection_reused_ns != 0 || t.dns_start_ns == 0) return 0.0;
    return phase_ns(t.dns_start_ns, t.dns_end_ns);
  };
  return d;
}

}  // namespace aiperf::metrics::types
