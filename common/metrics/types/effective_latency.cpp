// Effective Latency (CO-aware) (AIPerf 0.13): request end - the time the request's credit was
// issued (or was due, issued_when_due), clamped at 0: the latency a user sees when the load
// generator's own queue is counted (coordinated omission), request_latency plus the
// credit-to-start wait. Every record of the phase (errors too) that carries both times; count,
// sum and percentiles like a record metric, but not written per record nor per timeslice.
// Printed in the console's Effective table, as AIPerf 0.13's.
#include <algorithm>

#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor effective_latency() {
  MetricDescriptor d;
  d.tag = "effective_latency";
  d.header = "Effective Latency (CO-aware)";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kNoIndividualRecords;
  d.display_order = 1290;
  d.console_group = ConsoleGroup::kEffective;
  d.kind = MetricKind::kRecordTimes;
  d.times = [](const proto::MetricRecord& rec) -> std::optional<double> {
    const proto::RecordMetadata& m = rec.metadata();
    if (m.credit_issued_ns() <= 0 || m.request_end_ns() <= 0) return std::nullopt;
    return static_cast<double>(std::max<int64_t>(m.request_end_ns() - issued_when_due(m), 0));
  };
  return d;
}

}  // namespace aiperf::metrics::types
