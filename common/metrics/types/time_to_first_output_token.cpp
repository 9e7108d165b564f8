// Time to First Output Token (TTFOT): first response with non-empty non-reasoning text - start.
// Differs from TTFT for reasoning models, whose first tokens are reasoning.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor time_to_first_output_token() {
  MetricDescriptor d;
  d.tag = "time_to_first_output_token";
  d.header = "Time to First Output Token";
  d.short_header = "TTFOT";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kStreamingTokensOnly | flags::kSupportsReasoning;
  d.display_order = 210;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    for (const auto& resp : r.responses) {
      if (!resp.text.empty()) return static_cast<double>(resp.perf_ns - r.start_perf_ns);
    }
    return std::nullopt;
  };
  return d;
}

}  // namespace aiperf::metrics::types
