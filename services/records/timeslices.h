// Timeslices (--slice-duration S, spec §6.6): every profiling record goes to the slice
// int(request_start_ns / (S·1e9)) of the wall clock (epoch-aligned, so the first and last
// slices are usually partial), and each slice gets the full metric computation of a run of
// its own (its own benchmark_duration, throughputs, counts).
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "config/run_config.h"
#include "metric_record.pb.h"
#include "metrics/aggregator.h"
#include "results.pb.h"

namespace aiperf::records {

class Timeslices {
 public:
  Timeslices(metrics::MetricContext ctx, double slice_duration_s);

  // AIPerf's int(start_ns / slice_ns): Python divides the integers into the correctly
  // rounded float, so a start a few ns before a boundary can land in the next slice.
  static int64_t slice_index(int64_t request_start_ns, int64_t slice_ns);

  void add(const proto::MetricRecord& rec);
  // The run's mean network RTT: every slice then reports network_rtt and network_adjusted_*
  // too, as AIPerf injects them per timeslice.
  void set_network_rtt_ns(double rtt_ns);

  // One result per non-empty slice in time order; position = the exported timeslice index.
  std::vector<proto::ProfileResults> finalize() const;

 private:
  metrics::MetricContext ctx_;
  int64_t slice_ns_;
  std::map<int64_t, metrics::Aggregator> slices_;  // by epoch slice index
};

// Writes profile_export_aiperf_timeslices.csv and .json (names follow
// --profile-export-prefix); nothing when there are no slices. Throws std::runtime_error on
// I/O failure.
void write_timeslice_files(const config::RunConfig& config, const std::vector<proto::ProfileResults>& slices);

}  // namespace aiperf::records
