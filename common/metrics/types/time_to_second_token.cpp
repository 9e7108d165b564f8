// Time to Second Token (TTST): content[1] - content[0]; needs at least two content responses.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor time_to_second_token() {
  MetricDescriptor d;
  d.tag = "time_to_second_token";
  d.header = "Time to Second Token";
  d.short_header = "TTST";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kStreamingTokensOnly;
  d.display_order = 200;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (r.responses.size() < 2) return std::nullopt;
    return static_cast<double>(r.responses[1].perf_ns - r.responses[0].perf_ns);
  };
  return d;
}

}  // namespace aiperf::metrics::types
