// Tokens In Flight (AIPerf 0.13 sweep line, metrics/sweep_line.h): Tokens the server holds for the requests in flight
// (a KV-cache load): each request's ISL from its start, its output from the first token (chunk by chunk when
// inter-chunk latencies exist), freed at its end; time-weighted over the window. Statistics: avg, min, max, p50, p90,
// p95, p99, std (no count or sum: not per record). The summary's window is the profiling phase; a timeslice weighs the
// whole run's curve over its own window. Printed in the console's Effective table, as AIPerf 0.13's.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor tokens_in_flight() {
  MetricDescriptor d;
  d.tag = "tokens_in_flight";
  d.header = "Tokens In Flight";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kNoIndividualRecords;
  d.display_order = 1280;
  d.console_group = ConsoleGroup::kEffective;
  d.kind = MetricKind::kSweep;
  d.sweep = SweepCurve::kTokensInFlight;
  return d;
}

}  // namespace aiperf::metrics::types
