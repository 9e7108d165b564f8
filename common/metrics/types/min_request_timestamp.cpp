// Minimum Request Timestamp: min over valid records of the wall-clock request start (ns).
// The start of benchmark_duration.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor min_request_timestamp() {
  MetricDescriptor d;
  d.tag = "min_request_timestamp";
  d.header = "Minimum Request Timestamp";
  d.short_header = "Min Req";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kNanoseconds;
  d.flags = flags::kNoConsole | flags::kNoIndividualRecords | flags::kInternal;
  d.kind = MetricKind::kAggregate;
  d.value_type = ValueType::kInt;
  d.aggregate_op = AggregateOp::kMin;
  d.aggregate = [](const proto::MetricRecord& rec, const MetricContext&) -> std::optional<double> {
    return static_cast<double>(rec.metadata().request_start_ns());
  };
  return d;
}

}  // namespace aiperf::metrics::types
