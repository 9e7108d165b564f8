// Inter Token Latency (ITL): (request_latency - ttft) / (osl - 1), the mean gap between output
// tokens after the first. Requires osl >= 2 (one token has no gap). With --per-chunk-usage, the
// first content chunk's server-reported token count k replaces the 1: (osl - k), unless k <= 0
// or osl - k < 1 (inconsistent: osl - 1, warned once), as AIPerf 0.13.
#include <atomic>

#include "log/log.h"
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor inter_token_latency() {
  MetricDescriptor d;
  d.tag = "inter_token_latency";
  d.header = "Inter Token Latency";
  d.short_header = "ITL";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kStreamingTokensOnly;
  d.display_order = 400;
  d.value_type = ValueType::kFloat;
  d.required = {"request_latency", "time_to_first_token", "output_sequence_length"};
  d.record = [](const ParsedRecord& r, const RecordValues& v) -> std::optional<double> {
    auto latency = v.get("request_latency");
    auto ttft = v.get("time_to_first_token");
    auto osl = v.get("output_sequence_length");
    if (!latency || !ttft || !osl || *osl < 2) return std::nullopt;
    double decode_tokens = *osl - 1;
    if (r.first_content_chunk_tokens) {
      const double k = static_cast<double>(*r.first_content_chunk_tokens);
      if (k > 0 && *osl - k >= 1) {
        decode_tokens = *osl - k;
      } else {
        static std::atomic<bool> warned{false};
        if (!warned.exchange(true))
          AIPERF_LOG(kWarning) << "Inter-token latency: server-reported first content chunk token count (" << k
                               << ") is inconsistent with output sequence length (" << *osl
                               << "); falling back to (OSL - 1). Check --per-chunk-usage server support.";
      }
    }
    return (*latency - *ttft) / decode_tokens;
  };
  return d;
}

}  // namespace aiperf::metrics::types
