// Total Error Input Sequence Length: sum of error_isl over error records.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_error_isl() {
  MetricDescriptor d;
  d.tag = "total_error_isl";
  d.header = "Total Error Input Sequence Length";
  d.short_header = "Total Error ISL";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kTokenizesInputOnly | flags::kLargerIsBetter | flags::kNoConsole |
            flags::kErrorOnly;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"error_isl"};
  d.derive = [](const ResultValues& v) { return v.sum("error_isl"); };
  return d;
}

}  // namespace aiperf::metrics::types
