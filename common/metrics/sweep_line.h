// Sweep lines over the records' times (AIPerf 0.13's sweep-line metrics): each record holds a
// quantity (1 request, a token rate, tokens) over an interval of its life (request start, first
// token, end); summing every record's +/- events in time order gives a step function, and the
// kSweep metrics report its time-weighted statistics over a window (the profiling phase, or a
// timeslice). All times are wall-clock ns as doubles (AIPerf's float64 column store); NaN marks
// a missing time or count.
#pragma once
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "metric_record.pb.h"
#include "metrics/metric_descriptor.h"

namespace aiperf::metrics {

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// One record as the sweep sees it.
struct SweepRecord {
  double start_ns = kNoValue;
  double generation_start_ns = kNoValue;  // start + time_to_first_token (streaming only)
  double end_ns = kNoValue;
  double input_tokens = kNoValue;   // input_sequence_length
  double output_tokens = kNoValue;  // output_sequence_length
  // Its inter_chunk_latency values (ns, in order): [icl_offset, icl_offset + icl_count) of the
  // flat array given to SweepCurves.
  std::size_t icl_offset = 0;
  std::size_t icl_count = 0;
};

// The record's times and counts from its metadata and metrics (ICL not filled in).
SweepRecord sweep_record_of(const proto::MetricRecord& rec);

// A step function: values[i] holds from ts[i] to ts[i + 1] (ts ascending; where a time
// repeats, its last value holds); 0 before ts[0].
struct StepFunction {
  std::vector<double> ts;
  std::vector<double> values;
  bool empty() const { return ts.empty(); }
  // The value holding at t.
  double at(double t) const;
};

// Events (time, delta) summed in time order, ends (delta <= 0) before starts at equal times,
// equal events in the order given (the order decides the rounding); running sums within 1e-9 of
// the largest magnitude snap to 0. One step per distinct time, holding the sum after all of its
// events; or, kEachEvent, a step per event as AIPerf's own arrays have them (a picture of them).
enum class StepsAt { kDistinctTimes, kEachEvent };
StepFunction sweep_cumsum(std::vector<std::pair<double, double>> events, StepsAt steps = StepsAt::kDistinctTimes);
// num / den on the union of their times; 0 where den <= 0.
StepFunction divide_steps(const StepFunction& num, const StepFunction& den);

struct SweepStats {
  double avg = 0, min = 0, max = 0, p50 = 0, p90 = 0, p95 = 0, p99 = 0, std = 0;
};
// Time-weighted statistics of f over [window_start, window_end]: the average divides by the
// window's length; a percentile is the smallest value whose share of the time reaches it. All
// 0 when f or the window is empty.
SweepStats time_weighted_stats(const StepFunction& f, double window_start, double window_end);
// The same over only the parts of the window where `active` is positive (each part's length
// its weight, the average dividing by their total). All 0 when there are none.
SweepStats active_weighted_stats(const StepFunction& rate, const StepFunction& active, double window_start,
                                 double window_end);

// Every curve of the records, built once. Where any record has inter-chunk latencies, the
// decode throughput and the tokens in flight follow each response's chunks; otherwise each
// request's output is spread evenly over [first token, end).
class SweepCurves {
 public:
  SweepCurves(std::span<const SweepRecord> records, std::span<const double> icl_values);
  const StepFunction& curve(SweepCurve c) const;
  // No record with both a start and an end: no sweep metric has a value.
  bool empty() const { return concurrency_.empty(); }
  // The first and last time any request was in flight (the window when none is given).
  double first_ns() const { return concurrency_.ts.front(); }
  double last_ns() const { return concurrency_.ts.back(); }

 private:
  StepFunction concurrency_, decode_throughput_, prefill_throughput_, decode_concurrency_, prefill_concurrency_,
      total_throughput_, decode_per_user_, prefill_per_user_, tokens_in_flight_;
};

// The statistics of a kSweep metric over the window, in its display unit.
SweepStats sweep_stats(const MetricDescriptor& m, const SweepCurves& curves, double window_start, double window_end);

}  // namespace aiperf::metrics
