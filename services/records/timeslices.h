// Timeslices (--slice-duration S), as AIPerf 0.13 cuts them: the grid is anchored at the
// earliest profiling request start and spans to the latest start or end, in steps of S;
// each record goes to the slice holding its request start (slice edges are float64 ns, as
// numpy computes them); empty slices are dropped (the exported index is the position); the
// last slice ends at the run's last instant (flagged incomplete when that cuts it short).
// Each slice gets the full metric computation of a run of its own, except that the
// throughputs divide by the slice's window length rather than by its benchmark_duration, the
// sweep-line metrics weigh the whole run's curves over the slice's window, and the run-wide
// record-times metrics (credit_to_start_latency, effective_latency) are left out, as AIPerf
// 0.13 does.
#pragma once
#include <cstdint>
#include <vector>

#include "config/run_config.h"
#include "metric_record.pb.h"
#include "metrics/aggregator.h"
#include "results.pb.h"

namespace aiperf::records {

// One non-empty slice: its window [start_ns, end_ns) and its results.
struct TimesliceResult {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  bool complete = true;  // false: the last slice, cut short at the run's end
  proto::ProfileResults results;
};

// The slice grid for records starting in [min_start_ns, …] and ending by max_ns.
struct SliceGrid {
  double origin = 0;     // the earliest request start, as a double
  double last = 0;       // the latest start or end, as a double
  int64_t slice_ns = 1;
  int64_t count = 1;     // int((last - origin) / slice_ns) + 1

  // Edge i = origin + i·slice_ns in double arithmetic (numpy's float + int64 array).
  double edge(int64_t i) const { return origin + static_cast<double>(i * slice_ns); }
  // The slice whose [edge(i), edge(i+1)) holds `start_ns` (numpy.digitize - 1).
  int64_t index_of(int64_t start_ns) const;
};
SliceGrid make_slice_grid(int64_t min_start_ns, int64_t max_ns, int64_t slice_ns);

class Timeslices {
 public:
  Timeslices(metrics::MetricContext ctx, double slice_duration_s);

  // Keeps a profiling record (warmup ones are ignored) until finalize(): the grid's anchor
  // is only known once every record is in.
  void add(const proto::MetricRecord& rec);
  // The run's mean network RTT: every slice then reports network_rtt and network_adjusted_*
  // too, as AIPerf injects them per timeslice.
  void set_network_rtt_ns(double rtt_ns) { network_rtt_ns_ = rtt_ns; }

  // One result per non-empty slice in time order; position = the exported timeslice index.
  std::vector<TimesliceResult> finalize() const;

 private:
  metrics::MetricContext ctx_;
  int64_t slice_ns_;
  double network_rtt_ns_ = 0;
  std::vector<proto::MetricRecord> records_;
};

// Writes profile_export_aiperf_timeslices.csv and .json (names follow
// --profile-export-prefix); nothing when there are no slices. Throws std::runtime_error on
// I/O failure.
void write_timeslice_files(const config::RunConfig& config, const std::vector<TimesliceResult>& slices);

}  // namespace aiperf::records
