// Benchmark Duration: max_response_timestamp - min_request_timestamp over valid records,
// exported in seconds. The denominator of every throughput.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor benchmark_duration() {
  MetricDescriptor d;
  d.tag = "benchmark_duration";
  d.header = "Benchmark Duration";
  d.short_header = "Duration";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kSeconds;
  d.flags = flags::kNoConsole;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"min_request_timestamp", "max_response_timestamp"};
  d.derive = [](const ResultValues& v) -> std::optional<double> {
    auto first = v.scalar("min_request_timestamp");
    auto last = v.scalar("max_response_timestamp");
    if (!first || !last) return std::nullopt;
    return *last - *first;
  };
  return d;
}

}  // namespace aiperf::metrics::types
