#include "metrics/aggregator.h"

#include <algorithm>

#include "metrics/metric_registry.h"
#include "metrics/metric_units.h"
#include "metrics/network_adjusted.h"
#include "metrics/types/builtin_metrics.h"
#include "stats/stats.h"

namespace aiperf::metrics {

namespace {

constexpr std::size_t kNoColumn = static_cast<std::size_t>(-1);

proto::MetricResult header_of(const MetricDescriptor& m) {
  proto::MetricResult r;
  r.set_tag(std::string(m.tag));
  r.set_header(std::string(m.header));
  r.set_unit(std::string(m.display_unit));
  r.set_flags(m.flags);
  r.set_display_order(m.display_order);
  r.set_console_group(static_cast<proto::ConsoleGroup>(m.console_group));
  r.set_integer_values(m.integer_display());
  return r;
}

proto::MetricResult record_result(const MetricDescriptor& m, const stats::Summary& s) {
  auto display = [&](double v) { return units::convert(v, m.unit, m.display_unit); };
  proto::MetricResult r = header_of(m);
  r.set_is_record_metric(true);
  r.set_count(s.count);
  r.set_avg(display(s.avg));
  r.set_min(display(s.min));
  r.set_max(display(s.max));
  r.set_sum(display(s.sum));
  r.set_std(display(s.std));
  void (proto::MetricResult::*setters[])(double) = {
      &proto::MetricResult::set_p1,  &proto::MetricResult::set_p5,  &proto::MetricResult::set_p10,
      &proto::MetricResult::set_p25, &proto::MetricResult::set_p50, &proto::MetricResult::set_p75,
      &proto::MetricResult::set_p90, &proto::MetricResult::set_p95, &proto::MetricResult::set_p99};
  for (std::size_t i = 0; i < s.percentiles.size(); ++i) (r.*setters[i])(display(s.percentiles[i]));
  return r;
}

proto::MetricResult sweep_result(const MetricDescriptor& m, const SweepStats& s) {
  // AIPerf's sweep-line MetricResult: no count, sum or low percentiles.
  proto::MetricResult r = header_of(m);
  r.set_is_record_metric(true);  // the statistics section of the CSV
  r.set_integer_values(false);
  r.set_avg(s.avg);
  r.set_min(s.min);
  r.set_max(s.max);
  r.set_p50(s.p50);
  r.set_p90(s.p90);
  r.set_p95(s.p95);
  r.set_p99(s.p99);
  r.set_std(s.std);
  return r;
}

proto::MetricResult scalar_result(const MetricDescriptor& m, double value) {
  proto::MetricResult r = header_of(m);
  r.set_count(1);
  r.set_avg(units::convert(value, m.unit, m.display_unit));
  return r;
}

// Grouping key of an error: (code or none, type, message); \x1f cannot appear in a code.
std::string error_key(const proto::ErrorDetails& e) {
  std::string key = e.has_code() ? std::to_string(e.code()) : std::string();
  key += '\x1f';
  key += e.type();
  key += '\x1f';
  key += e.message();
  return key;
}

// The largest number of intervals open at one instant. An interval ending exactly when
// another starts does not overlap it (ends sort before starts at equal times).
double peak_overlap(std::vector<std::pair<int64_t, int>> events) {
  std::sort(events.begin(), events.end());
  int64_t open = 0, peak = 0;
  for (const auto& [at, delta] : events) peak = std::max(peak, open += delta);
  return static_cast<double>(peak);
}

}  // namespace

Aggregator::Aggregator(MetricContext ctx) : ctx_(std::move(ctx)), metrics_(builtin_metrics().applicable(ctx_)) {
  for (const MetricDescriptor* m : metrics_) {
    if (m->kind == MetricKind::kRecord) {
      column_index_.emplace(std::string(m->tag), columns_.size());
      columns_.push_back({m, {}});
    } else if (m->kind == MetricKind::kAggregate) {
      aggregates_.push_back({m});
    } else if (m->kind == MetricKind::kOverlap) {
      overlaps_.push_back({m, {}});
    } else if (m->kind == MetricKind::kRecordTimes) {
      times_.push_back({m, {}});
    } else if (m->kind == MetricKind::kSweep) {
      sweeps_.push_back(m);
    }
  }
  if (auto it = column_index_.find("inter_chunk_latency"); it != column_index_.end()) icl_column_ = it->second;
}

Aggregator::Column* Aggregator::column_at(int position, const std::string& tag) {
  const auto pos = static_cast<std::size_t>(position);
  if (pos < column_by_position_.size()) {
    const std::size_t hint = column_by_position_[pos];
    if (hint != kNoColumn && columns_[hint].metric->tag == tag) return &columns_[hint];
  } else {
    column_by_position_.resize(pos + 1, kNoColumn);
  }
  auto it = column_index_.find(tag);
  column_by_position_[pos] = it == column_index_.end() ? kNoColumn : it->second;
  return it == column_index_.end() ? nullptr : &columns_[it->second];
}

void Aggregator::add(const proto::MetricRecord& rec) {
  if (rec.metadata().phase() == proto::PHASE_WARMUP) return;
  ++completed_;
  const bool is_error = rec.has_error();
  if (is_error) add_error(rec.error());
  const std::size_t icl_before = icl_column_ ? columns_[*icl_column_].values.size() : 0;

  for (int i = 0; i < rec.metrics_size(); ++i) {
    const proto::MetricValue& mv = rec.metrics(i);
    Column* column = column_at(i, mv.tag());
    if (!column) continue;
    if (mv.is_list()) {
      column->values.insert(column->values.end(), mv.values().begin(), mv.values().end());
    } else {
      column->values.push_back(mv.value());
    }
  }

  for (Running& a : aggregates_) {
    if (has_flags(a.metric->flags, flags::kErrorOnly) != is_error) continue;
    std::optional<double> v = a.metric->aggregate(rec, ctx_);
    if (!v) continue;
    if (!a.seen) {
      a.value = *v;
      a.seen = true;
      continue;
    }
    switch (a.metric->aggregate_op) {
      case AggregateOp::kSum: a.value += *v; break;
      case AggregateOp::kMin: a.value = std::min(a.value, *v); break;
      case AggregateOp::kMax: a.value = std::max(a.value, *v); break;
    }
  }

  if (!is_error && rec.has_spec_decode()) {
    const auto& histogram = rec.spec_decode().acceptance_histogram();
    if (spec_decode_pool_.size() < static_cast<size_t>(histogram.size())) spec_decode_pool_.resize(histogram.size());
    for (int j = 0; j < histogram.size(); ++j) spec_decode_pool_[j] += histogram[j];
  }

  for (Overlap& o : overlaps_) {
    if (auto span = o.metric->interval(rec); span && span->second >= span->first) {
      o.events.emplace_back(span->first, +1);
      o.events.emplace_back(span->second, -1);
    }
  }

  if (per_timeslice_) return;
  for (Column& t : times_) {
    if (auto v = t.metric->times(rec)) t.values.push_back(*v);
  }
  if (!sweeps_.empty()) {
    SweepRecord r = sweep_record_of(rec);
    if (icl_column_) {
      r.icl_offset = icl_before;
      r.icl_count = columns_[*icl_column_].values.size() - icl_before;
    }
    sweep_records_.push_back(r);
  }
}

void Aggregator::add_error(const proto::ErrorDetails& details) {
  auto [it, inserted] = error_index_.emplace(error_key(details), errors_.size());
  if (inserted) errors_.push_back({details, 0});
  ++errors_[it->second].count;
}

proto::ProfileResults Aggregator::finalize() const {
  proto::ProfileResults out;
  ResultValues values;
  if (observation_window_ns_ > 0) values.set_scalar(types::kObservationDuration, observation_window_ns_);
  auto column_of = [&](const MetricDescriptor* m) -> const Column* {
    for (const Column& c : columns_) {
      if (c.metric == m) return &c;
    }
    return nullptr;
  };
  auto running_of = [&](const MetricDescriptor* m) -> const Running* {
    for (const Running& a : aggregates_) {
      if (a.metric == m) return &a;
    }
    return nullptr;
  };

  // metrics_ is dependency-ordered, so derived metrics find their inputs already set.
  for (const MetricDescriptor* m : metrics_) {
    switch (m->kind) {
      case MetricKind::kRecord: {
        const Column* c = column_of(m);
        if (c->values.empty()) break;
        stats::Summary s = stats::summarize(c->values);
        values.set_sum(m->tag, s.sum);
        *out.add_records() = record_result(*m, s);
        break;
      }
      case MetricKind::kAggregate: {
        const Running* a = running_of(m);
        if (!a->seen) break;
        values.set_scalar(m->tag, a->value);
        *out.add_records() = scalar_result(*m, a->value);
        break;
      }
      case MetricKind::kOverlap: {
        for (const Overlap& o : overlaps_) {
          if (o.metric != m || o.events.empty()) continue;
          const double peak = peak_overlap(o.events);
          values.set_scalar(m->tag, peak);
          *out.add_records() = scalar_result(*m, peak);
        }
        break;
      }
      case MetricKind::kRecordTimes: {
        for (const Column& t : times_) {
          if (t.metric != m || t.values.empty()) continue;
          *out.add_records() = record_result(*m, stats::summarize(t.values));
        }
        break;
      }
      case MetricKind::kSweep:
        break;  // all together below, from one set of curves
      case MetricKind::kDerived: {
        std::optional<double> v = m->derive(values);
        if (!v) break;
        values.set_scalar(m->tag, *v);
        *out.add_records() = scalar_result(*m, *v);
        break;
      }
    }
  }

  if (!sweeps_.empty() && !sweep_records_.empty()) {
    static const std::vector<double> kNoChunks;
    const SweepCurves curves(sweep_records_, icl_column_ ? columns_[*icl_column_].values : kNoChunks);
    if (!curves.empty()) {
      const auto [from, to] = sweep_window_.value_or(std::pair{curves.first_ns(), curves.last_ns()});
      for (const MetricDescriptor* m : sweeps_)
        *out.add_records() = sweep_result(*m, sweep_stats(*m, curves, from, to));
    }
  }

  append_network_adjusted(out, network_rtt_ns_, [this](std::string_view tag) -> const std::vector<double>* {
    auto it = column_index_.find(std::string(tag));
    return it == column_index_.end() ? nullptr : &columns_[it->second].values;
  });

  for (const ErrorGroup& g : errors_) {
    proto::ErrorSummaryEntry* e = out.add_error_summary();
    *e->mutable_error_details() = g.details;
    e->set_count(g.count);
  }
  out.set_completed(completed_);
  if (std::any_of(spec_decode_pool_.begin(), spec_decode_pool_.end(), [](int64_t n) { return n > 0; }))
    out.mutable_pooled_spec_decode_histogram()->Add(spec_decode_pool_.begin(), spec_decode_pool_.end());
  return out;
}

void append_sweep_results(proto::ProfileResults& out, const MetricContext& ctx, const SweepCurves& curves,
                          double window_start, double window_end) {
  if (curves.empty()) return;
  for (const MetricDescriptor* m : builtin_metrics().applicable(ctx)) {
    if (m->kind == MetricKind::kSweep) {
      *out.add_records() = sweep_result(*m, sweep_stats(*m, curves, window_start, window_end));
    }
  }
}

}  // namespace aiperf::metrics
