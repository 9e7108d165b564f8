// Good Request Count: valid records meeting every --goodput SLO (value >= threshold for
// larger-is-better metrics, else value <= threshold). A record lacking an SLO's metric is
// not good: it cannot be shown to meet it.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor good_request_count() {
  MetricDescriptor d;
  d.tag = "good_request_count";
  d.header = "Good Request Count";
  d.unit = units::kRequests;
  d.display_unit = units::kRequests;
  d.flags = flags::kGoodput | flags::kNoConsole;
  d.kind = MetricKind::kAggregate;
  d.value_type = ValueType::kInt;
  d.aggregate_op = AggregateOp::kSum;
  d.aggregate = [](const proto::MetricRecord& rec, const MetricContext& ctx) -> std::optional<double> {
    for (const GoodputSlo& slo : ctx.goodput_slos) {
      std::optional<double> v = find_value(rec, slo.tag);
      if (!v) return 0.0;
      if (slo.larger_is_better ? *v < slo.threshold : *v > slo.threshold) return 0.0;
    }
    return 1.0;
  };
  return d;
}

}  // namespace aiperf::metrics::types
