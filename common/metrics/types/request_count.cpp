// Request Count: number of valid (non-error) records.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor request_count() {
  MetricDescriptor d;
  d.tag = "request_count";
  d.header = "Request Count";
  d.short_header = "Requests";
  d.unit = units::kRequests;
  d.display_unit = units::kRequests;
  d.flags = flags::kLargerIsBetter | flags::kNoIndividualRecords;
  d.display_order = 1100;
  d.kind = MetricKind::kAggregate;
  d.value_type = ValueType::kInt;
  d.aggregate_op = AggregateOp::kSum;
  d.aggregate = [](const proto::MetricRecord&, const MetricContext&) -> std::optional<double> { return 1.0; };
  return d;
}

}  // namespace aiperf::metrics::types
