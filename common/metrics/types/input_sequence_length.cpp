// Input Sequence Length (ISL): prompt tokens, from the client tokenizer or, with
// --use-server-token-count, the server's usage.prompt_tokens (decided upstream).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor input_sequence_length() {
  MetricDescriptor d;
  d.tag = "input_sequence_length";
  d.header = "Input Sequence Length";
  d.short_header = "ISL";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kTokenizesInputOnly | flags::kLargerIsBetter;
  d.display_order = 700;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.input_tokens) return std::nullopt;
    return static_cast<double>(*r.input_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
