// Aggregator: folds per-record MetricRecords into run-level ProfileResults (records service
// side). Record metrics are stored columnar (one std::vector<double> per tag, list metrics
// flattened) so a million records cost ~8 bytes per value; aggregates fold as they arrive.
// Not thread-safe: one instance per consumer thread.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "metric_record.pb.h"
#include "metrics/metric_context.h"
#include "metrics/metric_descriptor.h"
#include "metrics/sweep_line.h"
#include "results.pb.h"

namespace aiperf::metrics {

class Aggregator {
 public:
  explicit Aggregator(MetricContext ctx);

  // Accumulates one profiling record (success or error). Warmup records are ignored: they
  // must not move benchmark_duration or the counts. Unknown or inapplicable tags are ignored.
  void add(const proto::MetricRecord& rec);

  // Statistics of everything added so far, in display units (spec §6.3): record metrics get
  // avg/min/max/sum/p1..p99/std and count; aggregate and derived metrics only avg, count 1.
  // Metrics without any value are left out. Also fills error_summary (grouped by identical
  // code/type/message, first-seen order) and completed. Can be called repeatedly.
  proto::ProfileResults finalize() const;
  // The run-level mean network RTT (--network-latency-*): finalize() then appends network_rtt
  // and the network_adjusted_* results (metrics/network_adjusted.h). 0 = none.
  void set_network_rtt_ns(double rtt_ns) { network_rtt_ns_ = rtt_ns; }
  // A fixed observation window (a timeslice's [start, end) in ns): the throughputs then
  // divide by its length instead of benchmark_duration, as AIPerf's observation_duration
  // does for windowed results. 0 = none (the run's own benchmark_duration).
  void set_observation_window_ns(double duration_ns) { observation_window_ns_ = duration_ns; }
  // The window the sweep-line metrics are weighted over (wall ns): the profiling phase, as
  // AIPerf's records manager passes it. Unset: from the first request start to the last end.
  void set_sweep_window_ns(double start_ns, double end_ns) { sweep_window_ = {start_ns, end_ns}; }
  // A timeslice's aggregation: the run-wide metrics (record-times and sweep-line metrics, which
  // AIPerf does not recompute per slice from the slice's own records) are left out. Call before
  // add(); the caller appends the sweep metrics from the whole run's curves
  // (append_sweep_results).
  void set_per_timeslice() { per_timeslice_ = true; }

 private:
  struct Column {
    const MetricDescriptor* metric;
    std::vector<double> values;  // base units, arrival order
  };
  struct Running {
    const MetricDescriptor* metric;
    double value = 0;
    bool seen = false;  // an aggregate nobody contributed to is not reported
  };
  struct Overlap {  // a kOverlap metric's intervals, as +1/-1 events
    const MetricDescriptor* metric;
    std::vector<std::pair<int64_t, int>> events;  // (ns, +1 start / -1 end)
  };
  struct ErrorGroup {
    proto::ErrorDetails details;
    uint64_t count = 0;
  };

  Column* column_at(int position, const std::string& tag);
  void add_error(const proto::ErrorDetails& details);

  MetricContext ctx_;
  std::vector<const MetricDescriptor*> metrics_;  // applicable, dependencies first
  std::vector<Column> columns_;
  std::unordered_map<std::string, std::size_t> column_index_;
  // Records from one processor list metrics in the same order; remembering which column the
  // i-th value went to turns the per-value hash lookup into one string compare.
  std::vector<std::size_t> column_by_position_;
  std::vector<Running> aggregates_;
  std::vector<Overlap> overlaps_;
  std::vector<Column> times_;                    // kRecordTimes values, base units
  std::vector<const MetricDescriptor*> sweeps_;  // kSweep metrics, catalogue order
  std::vector<SweepRecord> sweep_records_;       // ICL offsets into the ICL column
  std::optional<std::size_t> icl_column_;        // index in columns_
  std::optional<std::pair<double, double>> sweep_window_;
  bool per_timeslice_ = false;
  std::vector<ErrorGroup> errors_;
  std::unordered_map<std::string, std::size_t> error_index_;
  uint64_t completed_ = 0;
  // Valid records' speculative-decoding acceptance histograms, summed bucket by bucket (AIPerf
  // 0.13's pooled histogram, outside the metric machinery).
  std::vector<int64_t> spec_decode_pool_;
  double network_rtt_ns_ = 0;
  double observation_window_ns_ = 0;
};

// Appends the statistics of every applicable kSweep metric over [window_start, window_end] to
// `out` (nothing when the curves are empty): the timeslices weigh the run's curves per slice.
void append_sweep_results(proto::ProfileResults& out, const MetricContext& ctx, const SweepCurves& curves,
                          double window_start, double window_end);

}  // namespace aiperf::metrics
