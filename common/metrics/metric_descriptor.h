// MetricDescriptor: everything AIPerf declares about one metric (tag, header, units, flags,
// order, kind, dependencies) plus the function computing it. One descriptor per file in
// metrics/types/, registered by register_builtin_metrics().
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "metric_record.pb.h"
#include "metrics/metric_context.h"
#include "metrics/metric_flags.h"
#include "metrics/parsed_record.h"

namespace aiperf::metrics {

enum class MetricKind {
  kRecord,     // one value (or list) per request; aggregated as an array with percentiles
  kAggregate,  // running value folded over records (counts, min/max timestamps)
  kDerived,    // computed once at the end from other metrics' final values
  kOverlap,    // the most records whose intervals (IntervalFn) overlap at one instant
  // One value per record that the records service takes from the record's metadata times
  // (TimesFn), summarized like a record metric (count, percentiles); written neither per
  // record nor per timeslice (AIPerf derives these from its column store at summary time).
  kRecordTimes,
  // Time-weighted statistics of a sweep-line step function over every record's start, first
  // token and end (metrics/sweep_line.h); a timeslice weighs the whole run's curve over its
  // own window.
  kSweep,
};

// The step functions of the sweep line (AIPerf's SweepLineCurves), metrics/sweep_line.h.
enum class SweepCurve {
  kNone,
  kConcurrency,               // requests between start and end
  kDecodeThroughput,          // output tokens/ns over [first token, end)
  kPrefillThroughput,         // input tokens/ns over [start, first token)
  kDecodeConcurrency,         // requests between first token and end
  kPrefillConcurrency,        // requests between start and first token
  kTotalThroughput,           // prefill + decode tokens/ns
  kDecodeThroughputPerUser,   // decode throughput / decode concurrency
  kPrefillThroughputPerUser,  // prefill throughput / prefill concurrency
  kTokensInFlight,            // input tokens from start, output tokens from first token, to end
};

// AIPerf's generic value type: int metrics print min/max/sum (and scalar values) without
// decimals when no unit conversion turns them into floats.
enum class ValueType { kInt, kFloat };

// Values already computed for the record being processed, in base units, by tag.
class RecordValues {
 public:
  void set(std::string_view tag, double value) { values_.emplace_back(tag, value); }
  std::optional<double> get(std::string_view tag) const {
    for (const auto& [t, v] : values_) {
      if (t == tag) return v;
    }
    return std::nullopt;
  }

 private:
  std::vector<std::pair<std::string_view, double>> values_;  // a handful: linear scan wins
};

// Final run-level values available to derived metrics, in base units: the scalar value of
// aggregate/derived metrics and the sum of each record metric's array.
class ResultValues {
 public:
  void set_scalar(std::string_view tag, double value) { scalars_.emplace_back(tag, value); }
  void set_sum(std::string_view tag, double value) { sums_.emplace_back(tag, value); }
  std::optional<double> scalar(std::string_view tag) const { return find(scalars_, tag); }
  std::optional<double> sum(std::string_view tag) const { return find(sums_, tag); }

 private:
  using Entries = std::vector<std::pair<std::string, double>>;
  static std::optional<double> find(const Entries& entries, std::string_view tag) {
    for (const auto& [t, v] : entries) {
      if (t == tag) return v;
    }
    return std::nullopt;
  }
  Entries scalars_;
  Entries sums_;
};

// How an aggregate metric folds per-record contributions.
enum class AggregateOp { kSum, kMin, kMax };

// Record metric: nullopt = no value for this record (AIPerf NoMetricValue).
using RecordFn = std::optional<double> (*)(const ParsedRecord&, const RecordValues&);
// List record metric: empty = no value.
using ListFn = std::vector<double> (*)(const ParsedRecord&, const RecordValues&);
// Aggregate contribution of one record (already filtered by ERROR_ONLY); nullopt = none.
// The context carries run settings some aggregates judge records by (goodput SLOs).
using AggregateFn = std::optional<double> (*)(const proto::MetricRecord&, const MetricContext&);
// Record-times metric: the record's value from its metadata (base unit); nullopt = none.
using TimesFn = std::optional<double> (*)(const proto::MetricRecord&);
// Overlap metric: the record's [start, end) in ns; nullopt = the record takes no part.
using IntervalFn = std::optional<std::pair<int64_t, int64_t>> (*)(const proto::MetricRecord&);
// Derived metric: nullopt = inputs missing or degenerate (e.g. zero duration).
using DerivedFn = std::optional<double> (*)(const ResultValues&);

// The console table a shown metric is printed in (AIPerf 0.13's MetricConsoleGroup: one table
// per group, Effective, Active and Usage before the main one, Spec Decode after it). A metric the
// console leaves out carries flags::kNoConsole instead.
enum class ConsoleGroup : uint8_t { kDefault, kEffective, kActive, kUsage, kSpecDecode };

struct MetricDescriptor {
  std::string_view tag;
  std::string_view header;
  std::string_view short_header;  // may be empty
  std::string_view unit;          // base unit values are computed in
  std::string_view display_unit;  // unit of exports; equals unit when no conversion
  MetricFlags flags = flags::kNone;
  int display_order = 0;  // 0 = none (sorted last)
  ConsoleGroup console_group = ConsoleGroup::kDefault;
  MetricKind kind = MetricKind::kRecord;
  ValueType value_type = ValueType::kFloat;
  std::vector<std::string_view> required;  // tags computed before this one

  // Exactly one of these is set, matching kind (record: record or list; overlap: interval;
  // record times: times; sweep: sweep, the curve).
  RecordFn record = nullptr;
  ListFn list = nullptr;
  AggregateFn aggregate = nullptr;
  AggregateOp aggregate_op = AggregateOp::kSum;
  DerivedFn derive = nullptr;
  IntervalFn interval = nullptr;
  TimesFn times = nullptr;
  SweepCurve sweep = SweepCurve::kNone;
  // kSweep only: weigh only the time when this curve is positive ("active" metrics: while at
  // least one request is in that phase) instead of the whole window.
  SweepCurve sweep_active_while = SweepCurve::kNone;
  double sweep_scale = 1;  // curve unit -> display unit (tokens/ns -> tokens/sec: 1e9)

  bool is_list() const { return list != nullptr; }
  // Integer values stay integers through export (no unit conversion makes them floats).
  bool integer_display() const { return value_type == ValueType::kInt && unit == display_unit; }
};

}  // namespace aiperf::metrics
