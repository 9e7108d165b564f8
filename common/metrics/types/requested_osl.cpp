// Requested OSL: the turn's max_tokens, what the benchmark asked the server to generate.
// INTERNAL: an input of the OSL mismatch metrics, not exported by itself.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor requested_osl() {
  MetricDescriptor d;
  d.tag = "requested_osl";
  d.header = "Requested OSL";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kNoConsole | flags::kInternal;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.requested_osl) return std::nullopt;
    return static_cast<double>(*r.requested_osl);
  };
  return d;
}

}  // namespace aiperf::metrics::types
