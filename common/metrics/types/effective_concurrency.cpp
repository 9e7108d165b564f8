// Effective Concurrency (AIPerf 0.13 sweep line, metrics/sweep_line.h): Requests in flight (request start to end),
// time-weighted over the window. Statistics: avg, min, max, p50, p90, p95, p99, std (no count or sum: not per record).
// The summary's window is the profiling phase; a timeslice weighs the whole run's curve over its own window. Printed in
// the console's Effective table, as AIPerf 0.13's.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor effective_concurrency() {
  MetricDescriptor d;
  d.tag = "effective_concurrency";
  d.header = "Effective Concurrency";
  d.unit = units::kRequests;
  d.display_unit = units::kRequests;
  d.flags = flags::kNoIndividualRecords;
  d.display_order = 1200;
  d.console_group = ConsoleGroup::kEffective;
  d.kind = MetricKind::kSweep;
  d.sweep = SweepCurve::kConcurrency;
  return d;
}

}  // namespace aiperf::metrics::types
