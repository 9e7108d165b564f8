// Error Request Count: number of error records (ERROR_ONLY: shown in files, not the console).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor error_request_count() {
  MetricDescriptor d;
  d.tag = "error_request_count";
  d.header = "Error Request Count";
  d.short_header = "Errors";
  d.unit = units::kRequests;
  d.display_unit = units::kRequests;
  d.flags = flags::kErrorOnly | flags::kNoIndividualRecords;
  d.kind = MetricKind::kAggregate;
  d.value_type = ValueType::kInt;
  d.aggregate_op = AggregateOp::kSum;
  d.aggregate = [](const proto::MetricRecord&, const MetricContext&) -> std::optional<double> { return 1.0; };
  return d;
}

}  // namespace aiperf::metrics::types
