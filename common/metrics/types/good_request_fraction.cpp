// Good Request Fraction (AIPerf 0.13): good_request_count / (request_count +
// error_request_count), the share of attempted requests meeting every --goodput SLO (failed
// requests count against it); 0 when nothing was attempted. max-goodput-under-slo's feasibility
// gate (good_request_fraction:avg:ge:<attainment>). In the files, not on the console.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor good_request_fraction() {
  MetricDescriptor d;
  d.tag = "good_request_fraction";
  d.header = "GoodRequestFraction";
  d.short_header = "GoodReqFrac";
  d.unit = units::kRatio;
  d.display_unit = units::kRatio;
  d.flags = flags::kGoodput | flags::kLargerIsBetter | flags::kNoConsole;
  d.kind = MetricKind::kDerived;
  // request_count and error_request_count are read when present (each may be absent: no valid
  // request, or no error), so only the count of good ones is a dependency.
  d.required = {"good_request_count"};
  d.derive = [](const ResultValues& v) -> std::optional<double> {
    const double good = v.scalar("good_request_count").value_or(0);
    const double attempted = v.scalar("request_count").value_or(0) + v.scalar("error_request_count").value_or(0);
    return attempted == 0 ? 0.0 : good / attempted;
  };
  return d;
}

}  // namespace aiperf::metrics::types
