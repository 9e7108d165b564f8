// Peak In-Flight Requests (ours): the most requests that were on the wire at one instant,
// from request start (after any wait for a connection slot) to the last response byte or
// failure, over every worker. A run at --concurrency N that delivered it reports N here; a
// client queueing its own requests would show less.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor peak_in_flight_requests() {
  MetricDescriptor d;
  d.tag = "peak_in_flight_requests";
  d.header = "Peak In-Flight Requests";
  d.short_header = "Peak In-Flight";
  d.unit = units::kRequests;
  d.display_unit = units::kRequests;
  d.flags = flags::kNoIndividualRecords;
  d.display_order = 1150;
  d.kind = MetricKind::kOverlap;
  d.value_type = ValueType::kInt;
  d.interval = [](const proto::MetricRecord& rec) -> std::optional<std::pair<int64_t, int64_t>> {
    const proto::RecordMetadata& m = rec.metadata();
    if (m.request_start_ns() == 0 || m.request_end_ns() == 0) return std::nullopt;
    return std::pair{m.request_start_ns() + m.queued_ns(), m.request_end_ns()};
  };
  return d;
}

}  // namespace aiperf::metrics::types
