// Active Prefill Throughput Per User (AIPerf 0.13 sweep line, metrics/sweep_line.h): Prefill throughput per user
// weighted over only the time some request was prefilling. Statistics: avg, min, max, p50, p90, p95, p99, std (no count
// or sum: not per record). The summary's window is the profiling phase; a timeslice weighs the whole run's curve over
// its own window. Printed in the console's Active table, as AIPerf 0.13's.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor active_prefill_throughput_per_user() {
  MetricDescriptor d;
  d.tag = "active_prefill_throughput_per_user";
  d.header = "Active Prefill Throughput Per User";
  d.unit = units::kTokensPerSecondPerUser;
  d.display_unit = units::kTokensPerSecondPerUser;
  d.flags = flags::kNoIndividualRecords;
  d.display_order = 1330;
  d.console_group = ConsoleGroup::kActive;
  d.kind = MetricKind::kSweep;
  d.sweep = SweepCurve::kPrefillThroughputPerUser;
  d.sweep_active_while = SweepCurve::kPrefillConcurrency;
  d.sweep_scale = 1e9;  // tokens/ns -> tokens/sec
  return d;
}

}  // namespace aiperf::metrics::types
