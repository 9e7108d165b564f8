// Goodput: good_request_count / duration_sec (benchmark_duration; a timeslice's window length), the rate of requests meeting every
// --goodput SLO.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor goodput() {
  MetricDescriptor d;
  d.tag = "goodput";
  d.header = "Goodput";
  d.unit = units::kRequestsPerSecond;
  d.display_unit = units::kRequestsPerSecond;
  d.flags = flags::kGoodput;
  d.display_order = 1000;
  d.kind = MetricKind::kDerived;
  d.required = {"good_request_count", "benchmark_duration"};
  d.derive = [](const ResultValues& v) -> std::optional<double> {
    return per_second(v.scalar("good_request_count"), observation_duration(v));
  };
  return d;
}

}  // namespace aiperf::metrics::types
