// Input Token Throughput: total_isl / duration_sec (benchmark_duration; a timeslice's window
// length), the system-wide prefill rate: the input half of total_token_throughput (AIPerf 0.13).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor input_token_throughput() {
  MetricDescriptor d;
  d.tag = "input_token_throughput";
  d.header = "Input Token Throughput";
  d.short_header = "Input TPS";
  d.unit = units::kTokensPerSecond;
  d.display_unit = units::kTokensPerSecond;
  d.flags = flags::kLargerIsBetter;
  d.display_order = 805;  // right after output_token_throughput, as in AIPerf's console table
  d.kind = MetricKind::kDerived;
  d.required = {"total_isl", "benchmark_duration"};
  d.derive = [](const ResultValues& v) -> std::optional<double> {
    return per_second(v.scalar("total_isl"), observation_duration(v));
  };
  return d;
}

}  // namespace aiperf::metrics::types
