// Time to First Token (TTFT): content[0] - start, the first content of any kind (reasoning
// included), i.e. how long the user waits before anything streams back.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor time_to_first_token() {
  MetricDescriptor d;
  d.tag = "time_to_first_token";
  d.header = "Time to First Token";
  d.short_header = "TTFT";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kStreamingTokensOnly;
  d.display_order = 100;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (r.responses.empty()) return std::nullopt;
    return static_cast<double>(r.responses.front().perf_ns - r.start_perf_ns);
  };
  return d;
}

}  // namespace aiperf::metrics::types
