// Inter Chunk Latency (ICL), a list metric: [content[i] - content[i-1]] for i >= 1. Each gap is
// one element of the run-level array (flattened), so percentiles describe single chunk gaps.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor inter_chunk_latency() {
  MetricDescriptor d;
  d.tag = "inter_chunk_latency";
  d.header = "Inter Chunk Latency";
  d.short_header = "ICL";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kStreamingTokensOnly | flags::kNoConsole;
  d.value_type = ValueType::kInt;
  d.list = [](const ParsedRecord& r, const RecordValues&) {
    std::vector<double> gaps;
    for (std::size_t i = 1; i < r.responses.size(); ++i) {
      gaps.push_back(static_cast<double>(r.responses[i].perf_ns - r.responses[i - 1].perf_ns));
    }
    return gaps;
  };
  return d;
}

}  // namespace aiperf::metrics::types
