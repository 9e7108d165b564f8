// Error Input Sequence Length: ISL of a failed request (ERROR_ONLY), so the prompt load sent
// to failing requests stays visible.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor error_isl() {
  MetricDescriptor d;
  d.tag = "error_isl";
  d.header = "Error Input Sequence Length";
  d.short_header = "Error ISL";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kTokenizesInputOnly | flags::kLargerIsBetter | flags::kNoConsole |
            flags::kErrorOnly;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (!r.input_tokens) return std::nullopt;
    return static_cast<double>(*r.input_tokens);
  };
  return d;
}

}  // namespace aiperf::metrics::types
