// Request Throughput: request_count / duration_sec (benchmark_duration; a timeslice's window length) (valid requests only).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor request_throughput() {
  MetricDescriptor d;
  d.tag = "request_throughput";
  d.header = "Request Throughput";
  d.short_header = "Req/sec";
  d.unit = units::kRequestsPerSecond;
  d.display_unit = units::kRequestsPerSecond;
  d.flags = flags::kLargerIsBetter;
  d.display_order = 900;
  d.kind = MetricKind::kDerived;
  d.required = {"request_count", "benchmark_duration"};
  d.derive = [](const ResultValues& v) -> std::optional<double> {
    return per_second(v.scalar("request_count"), observation_duration(v));
  };
  return d;
}

}  // namespace aiperf::metrics::types
