// Completed Requests (Success + Error) (AIPerf 0.13): request_count + error_request_count, the
// whole completion volume (request_count alone counts only the valid ones). Either count may
// be absent (no valid request, or no error): absent counts as 0. No value when nothing
// completed. Run-level only (NO_INDIVIDUAL_RECORDS); shown on the console.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor completed_request_count() {
  MetricDescriptor d;
  d.tag = "completed_request_count";
  d.header = "Completed Requests (Success + Error)";
  d.short_header = "Completed";
  d.unit = units::kRequests;
  d.display_unit = units::kRequests;
  d.flags = flags::kNoIndividualRecords;
  d.display_order = 1075;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.derive = [](const ResultValues& v) -> std::optional<double> {
    const double completed = v.scalar("request_count").value_or(0) + v.scalar("error_request_count").value_or(0);
    if (completed <= 0) return std::nullopt;
    return completed;
  };
  return d;
}

}  // namespace aiperf::metrics::types
