// Request Error Rate (AIPerf 0.13): 100 * error_request_count / (request_count +
// error_request_count), in %. Either count may be absent (a clean run has no error count, an
// all-error run no request count): absent counts as 0. No value when nothing completed.
// Run-level only (NO_INDIVIDUAL_RECORDS); shown on the console. --error-rate-sla filters on it.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor request_error_rate() {
  MetricDescriptor d;
  d.tag = "request_error_rate";
  d.header = "Request Error Rate";
  d.short_header = "Err %";
  d.unit = units::kPercent;
  d.display_unit = units::kPercent;
  d.flags = flags::kNoIndividualRecords;
  d.display_order = 1080;
  d.kind = MetricKind::kDerived;
  d.derive = [](const ResultValues& v) -> std::optional<double> {
    const double successes = v.scalar("request_count").value_or(0);
    const double errors = v.scalar("error_request_count").value_or(0);
    if (successes + errors <= 0) return std::nullopt;
    return 100.0 * errors / (successes + errors);
  };
  return d;
}

}  // namespace aiperf::metrics::types
