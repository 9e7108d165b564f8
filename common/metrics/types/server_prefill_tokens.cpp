// Server Prefill Tokens (ours, no AIPerf counterpart): the prompt tokens the server processed (llama.cpp timings.prompt_n; tokens reused from its cache are
// not in it, see server_cached_tokens).
// Only where the server sends llama.cpp's `timings`; hidden from the console table (the
// Client vs Server section shows it), in records and the JSON/CSV summary.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor server_prefill_tokens() {
  MetricDescriptor d;
  d.tag = "server_prefill_tokens";
  d.header = "Server Prefill Tokens";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kNoConsole;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.server_timings || !r.server_timings->prompt_n) return std::nullopt;
    return static_cast<double>(*r.server_timings->prompt_n);
  };
  return d;
}

}  // namespace aiperf::metrics::types
