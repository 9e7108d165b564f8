// Effective Prefill Throughput (AIPerf 0.13 sweep line, metrics/sweep_line.h): Input tokens per second being prefilled,
// time-weighted over the window: each request's ISL spread over [request start, first token). Statistics: avg, min,
// max, p50, p90, p95, p99, std (no count or sum: not per record). The summary's window is the profiling phase; a
// timeslice weighs the whole run's curve over its own window. Printed in
// the console's Effective table, as AIPerf 0.13's.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor effective_prefill_throughput() {
  MetricDescriptor d;
  d.tag = "effective_prefill_throughput";
  d.header = "Effective Prefill Throughput";
  d.unit = units::kTokensPerSecond;
  d.display_unit = units::kTokensPerSecond;
  d.flags = flags::kNoIndividualRecords;
  d.display_order = 1220;
  d.console_group = ConsoleGroup::kEffective;
  d.kind = MetricKind::kSweep;
  d.sweep = SweepCurve::kPrefillThroughput;
  d.sweep_scale = 1e9;  // tokens/ns -> tokens/sec
  return d;
}

}  // namespace aiperf::metrics::types
