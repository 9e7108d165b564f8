// OSL Mismatch Diff %: (OSL - requested_osl) / requested_osl * 100, signed: negative when
// the server stopped early (ignored max_tokens / hit EOS).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor osl_mismatch_diff_pct() {
  MetricDescriptor d;
  d.tag = "osl_mismatch_diff_pct";
  d.header = "OSL Mismatch Diff %";
  d.unit = units::kPercent;
  d.display_unit = units::kPercent;
  d.flags = flags::kProducesTokensOnly | flags::kNoConsole;
  d.required = {"requested_osl", "output_sequence_length"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    auto requested = v.get("requested_osl");
    auto osl = v.get("output_sequence_length");
    if (!requested || !osl || *requested == 0) return std::nullopt;
    return (*osl - *requested) / *requested * 100.0;
  };
  return d;
}

}  // namespace aiperf::metrics::types
