// Output Token Throughput: total_osl / duration_sec (benchmark_duration; a timeslice's window length), the system-wide generation rate.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor output_token_throughput() {
  MetricDescriptor d;
  d.tag = "output_token_throughput";
  d.header = "Output Token Throughput";
  d.short_header = "Output TPS";
  d.unit = units::kTokensPerSecond;
  d.display_unit = units::kTokensPerSecond;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter;
  d.display_order = 800;
  d.kind = MetricKind::kDerived;
  d.required = {"total_osl", "benchmark_duration"};
  d.derive = [](const ResultValues& v) -> std::optional<double> {
    return per_second(v.scalar("total_osl"), observation_duration(v));
  };
  return d;
}

}  // namespace aiperf::metrics::types
