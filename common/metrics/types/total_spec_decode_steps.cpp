// Total Spec Decode Steps: sum of spec_decode_steps over valid records. Exported, not on the console.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_spec_decode_steps() {
  MetricDescriptor d;
  d.tag = "total_spec_decode_steps";
  d.header = "Total Spec Decode Steps";
  d.short_header = "Total Spec Decode Steps";
  d.unit = units::kCount;
  d.display_unit = units::kCount;
  d.flags = flags::kNoConsole;
  d.display_order = 5140;  // AIPerf 0.13's
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"spec_decode_steps"};
  d.derive = [](const ResultValues& v) { return v.sum("spec_decode_steps"); };
  return d;
}

}  // namespace aiperf::metrics::types
