// Maximum Response Timestamp: max over valid records of request_start_ns + request_latency,
// the wall time of the last content response (trailing [DONE]/usage chunks excluded, unlike
// request_end_ns). The end of benchmark_duration.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor max_response_timestamp() {
  MetricDescriptor d;
  d.tag = "max_response_timestamp";
  d.header = "Maximum Response Timestamp";
  d.short_header = "Max Resp";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kNanoseconds;
  d.flags = flags::kNoConsole | flags::kNoIndividualRecords | flags::kInternal;
  d.kind = MetricKind::kAggregate;
  d.value_type = ValueType::kInt;
  d.required = {"request_latency"};
  d.aggregate_op = AggregateOp::kMax;
  d.aggregate = [](const proto::MetricRecord& rec, const MetricContext&) -> std::optional<double> {
    auto latency = find_value(rec, "request_latency");
    if (!latency) return std::nullopt;
    return static_cast<double>(rec.metadata().request_start_ns()) + *latency;
  };
  return d;
}

}  // namespace aiperf::metrics::types
