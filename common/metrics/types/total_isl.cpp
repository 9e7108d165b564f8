// Total Input Sequence Length: sum of ISL over valid records.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_isl() {
  MetricDescriptor d;
  d.tag = "total_isl";
  d.header = "Total Input Sequence Length";
  d.short_header = "Total ISL";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kTokenizesInputOnly | flags::kLargerIsBetter | flags::kNoConsole;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"input_sequence_length"};
  d.derive = [](const ResultValues& v) { return v.sum("input_sequence_length"); };
  return d;
}

}  // namespace aiperf::metrics::types
