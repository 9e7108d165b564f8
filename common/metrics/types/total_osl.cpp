// Total Output Sequence Length: sum of OSL over valid records (numerator of output throughput).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_osl() {
  MetricDescriptor d;
  d.tag = "total_osl";
  d.header = "Total Output Sequence Length";
  d.short_header = "Total OSL";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kProducesTokensOnly | flags::kLargerIsBetter | flags::kNoConsole;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"output_sequence_length"};
  d.derive = [](const ResultValues& v) { return v.sum("output_sequence_length"); };
  return d;
}

}  // namespace aiperf::metrics::types
