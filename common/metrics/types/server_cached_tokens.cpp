// Server Cached Tokens (ours, no AIPerf counterpart): the prompt tokens the server reused from its cache (llama.cpp timings.cache_n).
// Only where the server sends llama.cpp's `timings`; hidden from the console table (the
// Client vs Server section shows it), in records and the JSON/CSV summary.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor server_cached_tokens() {
  MetricDescriptor d;
  d.tag = "server_cached_tokens";
  d.header = "Server Cached Tokens";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kNoConsole;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.server_timings || !r.server_timings->cache_n) return std::nullopt;
    return static_cast<double>(*r.server_timings->cache_n);
  };
  return d;
}

}  // namespace aiperf::metrics::types
