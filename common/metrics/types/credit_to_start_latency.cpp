// Credit-to-Start Latency (AIPerf 0.13): request start - the time the timing service issued the
// request's credit (wall clocks, the same host; a scheduled credit sent ahead counts from its
// intended send time, issued_when_due), clamped at 0: how long a credit waited (the hop to a
// worker, the worker's queue) before its request went out. Every record of the phase
// (errors too) that carries both times; count, sum and percentiles like a record metric, but
// not written per record nor per timeslice. Hidden from the console, as in AIPerf.
#include <algorithm>

#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor credit_to_start_latency() {
  MetricDescriptor d;
  d.tag = "credit_to_start_latency";
  d.header = "Credit-to-Start Latency";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kNoConsole | flags::kNoIndividualRecords;
  d.display_order = 1400;
  d.kind = MetricKind::kRecordTimes;
  d.times = [](const proto::MetricRecord& rec) -> std::optional<double> {
    const proto::RecordMetadata& m = rec.metadata();
    if (m.credit_issued_ns() <= 0 || m.request_start_ns() <= 0) return std::nullopt;
    return static_cast<double>(std::max<int64_t>(m.request_start_ns() - issued_when_due(m), 0));
  };
  return d;
}

}  // namespace aiperf::metrics::types
