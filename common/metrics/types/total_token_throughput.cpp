// Total Token Throughput: (total_isl + total_osl) / duration_sec (benchmark_duration; a timeslice's window length), prompt and
// generated tokens together.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_token_throughput() {
  MetricDescriptor d;
  d.tag = "total_token_throughput";
  d.header = "Total Token Throughput";
  d.short_header = "Total TPS";
  d.unit = units::kTokensPerSecond;
  d.display_unit = units::kTokensPerSecond;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter | flags::kNoConsole;
  d.kind = MetricKind::kDerived;
  d.required = {"total_isl", "total_osl", "benchmark_duration"};
  d.derive = [](const ResultValues& v) -> std::optional<double> {
    auto isl = v.scalar("total_isl");
    auto osl = v.scalar("total_osl");
    if (!isl || !osl) return std::nullopt;
    return per_second(*isl + *osl, observation_duration(v));
  };
  return d;
}

}  // namespace aiperf::metrics::types
