#include "metrics/sweep_line.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "stats/radix_sort.h"

namespace aiperf::metrics {

namespace {

bool has(double v) { return !std::isnan(v); }

using Events = std::vector<std::pair<double, double>>;

// +weight at `from`, -weight at `to` for every record where both times are known: the starts
// first, then the ends (the order equal events keep).
template <typename From, typename To, typename Weight>
Events interval_events(std::span<const SweepRecord> records, From from, To to, Weight weight) {
  Events starts, ends;
  for (const SweepRecord& r : records) {
    const double a = from(r), b = to(r), w = weight(r);
    if (!has(a) || !has(b) || !has(w)) continue;
    starts.emplace_back(a, w);
    ends.emplace_back(b, -w);
  }
  starts.insert(starts.end(), ends.begin(), ends.end());
  return starts;
}

double start_of(const SweepRecord& r) { return r.start_ns; }
double generation_of(const SweepRecord& r) { return r.generation_start_ns; }
double end_of(const SweepRecord& r) { return r.end_ns; }
double one(const SweepRecord&) { return 1.0; }

// Input tokens per ns over [start, first token), for records with a positive prefill.
double prefill_rate(const SweepRecord& r) {
  const double duration = r.generation_start_ns - r.start_ns;
  if (!has(r.start_ns) || !has(r.generation_start_ns) || !has(r.input_tokens) || !(duration > 0)) return kNoValue;
  return r.input_tokens / duration;
}

// Output tokens after the first, per ns over [first token, end).
double decode_rate(const SweepRecord& r) {
  const double duration = r.end_ns - r.generation_start_ns;
  if (!has(r.generation_start_ns) || !has(r.output_tokens) || !(duration > 0) || !(r.output_tokens >= 1)) {
    return kNoValue;
  }
  return (r.output_tokens - 1.0) / duration;
}

// Decode throughput chunk by chunk: each nonzero inter-chunk gap carries an equal share of the
// output tokens after the first, at a constant rate over the gap.
Events chunk_throughput_events(std::span<const SweepRecord> records, std::span<const double> icl) {
  Events starts, ends;
  starts.reserve(2 * icl.size());  // room for the ends too, appended below
  ends.reserve(icl.size());
  for (const SweepRecord& r : records) {
    if (r.icl_count == 0 || !has(r.generation_start_ns) || !has(r.output_tokens) || !(r.output_tokens >= 1)) continue;
    const auto gaps = icl.subspan(r.icl_offset, r.icl_count);
    const auto nonzero = std::count_if(gaps.begin(), gaps.end(), [](double g) { return g > 0; });
    if (nonzero == 0) continue;
    const double tokens_per_gap = (r.output_tokens - 1.0) / static_cast<double>(nonzero);
    double at = r.generation_start_ns;
    for (double gap : gaps) {
      at += gap;
      if (!(gap > 0)) continue;
      starts.emplace_back(at - gap, tokens_per_gap / gap);
      ends.emplace_back(at, -tokens_per_gap / gap);
    }
  }
  starts.insert(starts.end(), ends.begin(), ends.end());
  return starts;
}

// Tokens held per request: its input from start (when it has a prefill), its output from the
// first token, all freed at the end.
Events tokens_in_flight_events(std::span<const SweepRecord> records) {
  Events inputs, outputs, frees;
  for (const SweepRecord& r : records) {
    const bool prefill =
        has(r.start_ns) && has(r.input_tokens) && has(r.generation_start_ns) && r.generation_start_ns > r.start_ns;
    const bool decode = has(r.generation_start_ns) && has(r.output_tokens) && r.end_ns - r.generation_start_ns > 0;
    if (prefill) inputs.emplace_back(r.start_ns, r.input_tokens);
    if (decode) outputs.emplace_back(r.generation_start_ns, r.output_tokens);
    if (!has(r.end_ns) || (!prefill && !decode)) continue;
    frees.emplace_back(r.end_ns, -((prefill ? r.input_tokens : 0.0) + (decode ? r.output_tokens : 0.0)));
  }
  inputs.insert(inputs.end(), outputs.begin(), outputs.end());
  inputs.insert(inputs.end(), frees.begin(), frees.end());
  return inputs;
}

// The same with the output arriving chunk by chunk: 1 token at the first token, then an equal
// share of the rest at each chunk (a chunk timed at or after the end counts just before it).
Events chunk_tokens_in_flight_events(std::span<const SweepRecord> records, std::span<const double> icl) {
  Events firsts, chunks, inputs, frees;
  firsts.reserve(icl.size() + 3 * records.size());  // room for the rest, appended below
  chunks.reserve(icl.size());
  for (const SweepRecord& r : records) {
    bool chunked = false;
    if (r.icl_count > 0 && has(r.generation_start_ns) && has(r.output_tokens) && r.output_tokens >= 1) {
      const auto gaps = icl.subspan(r.icl_offset, r.icl_count);
      const double per_chunk = (r.output_tokens - 1.0) / static_cast<double>(gaps.size());
      double at = r.generation_start_ns;
      for (double gap : gaps) {
        at += gap;
        if (!(gap >= 0)) continue;
        chunks.emplace_back(has(r.end_ns) && at >= r.end_ns ? std::nextafter(r.end_ns, -INFINITY) : at, per_chunk);
        chunked = true;
      }
      if (chunked) firsts.emplace_back(r.generation_start_ns, 1.0);
    }
    const bool prefill =
        has(r.start_ns) && has(r.input_tokens) && has(r.generation_start_ns) && r.generation_start_ns > r.start_ns;
    if (prefill) inputs.emplace_back(r.start_ns, r.input_tokens);
    if (!has(r.end_ns) || (!prefill && !chunked)) continue;
    frees.emplace_back(r.end_ns, -((prefill ? r.input_tokens : 0.0) + (chunked ? r.output_tokens : 0.0)));
  }
  for (Events* part : {&chunks, &inputs, &frees}) firsts.insert(firsts.end(), part->begin(), part->end());
  return firsts;
}

SweepStats weighted_stats(std::vector<std::pair<double, double>> segments, double total) {
  // segments: (value, duration > 0); total: the average's denominator.
  SweepStats s;
  if (segments.empty() || !(total > 0)) return s;
  double weighted = 0, covered = 0;
  s.min = s.max = segments.front().first;
  for (const auto& [v, d] : segments) {
    weighted += v * d;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.avg = weighted / total;
  double spread = 0;
  for (const auto& [v, d] : segments) spread += d * (v - s.avg) * (v - s.avg);
  s.std = std::sqrt(spread / total);
  stats::radix_sort(segments, [](const auto& seg) { return stats::ordered_key(seg.first); });
  // A percentile is the smallest value whose share of the time reaches it: one pass over the
  // segments by value for the four, the shares summed in that order.
  for (const auto& seg : segments) covered += seg.second;
  const std::array<std::pair<double, double*>, 4> percentiles = {
      {{0.50, &s.p50}, {0.90, &s.p90}, {0.95, &s.p95}, {0.99, &s.p99}}};
  std::size_t next = 0;
  double share = 0;
  for (const auto& [v, d] : segments) {
    share += d;
    while (next < percentiles.size() && !(share / covered < percentiles[next].first)) *percentiles[next++].second = v;
    if (next == percentiles.size()) break;
  }
  for (; next < percentiles.size(); ++next) *percentiles[next].second = segments.back().first;
  return s;
}

// The values of a step function at ascending times: one forward cursor instead of a binary
// search per time (the curves have millions of steps when they follow each chunk).
class StepCursor {
 public:
  explicit StepCursor(const StepFunction& f) : f_(f) {}
  // As f.at(t); t must not decrease from one call to the next.
  double at(double t) {
    while (i_ < f_.ts.size() && f_.ts[i_] <= t) ++i_;
    return i_ == 0 ? 0.0 : f_.values[i_ - 1];
  }

 private:
  const StepFunction& f_;
  std::size_t i_ = 0;
};

// Appends the times of two ascending sequences to `out` (ascending, ending below them), then
// drops repeats.
void append_union(std::span<const double> a, std::span<const double> b, std::vector<double>& out) {
  const std::size_t from = out.size();
  out.resize(from + a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin() + static_cast<std::ptrdiff_t>(from));
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

// The part of f's (ascending) times strictly inside (from, to).
std::span<const double> times_inside(const StepFunction& f, double from, double to) {
  const auto lo = std::upper_bound(f.ts.begin(), f.ts.end(), from);
  const auto hi = std::lower_bound(lo, f.ts.end(), to);
  return {lo, hi};
}

}  // namespace

SweepRecord sweep_record_of(const proto::MetricRecord& rec) {
  SweepRecord r;
  const proto::RecordMetadata& m = rec.metadata();
  if (m.request_start_ns() > 0) r.start_ns = static_cast<double>(m.request_start_ns());
  if (m.request_end_ns() > 0) r.end_ns = static_cast<double>(m.request_end_ns());
  for (const proto::MetricValue& v : rec.metrics()) {
    if (v.is_list()) continue;
    if (v.tag() == "time_to_first_token" && m.request_start_ns() > 0) {
      r.generation_start_ns = static_cast<double>(m.request_start_ns() + static_cast<int64_t>(v.value()));
    } else if (v.tag() == "input_sequence_length") {
      r.input_tokens = v.value();
    } else if (v.tag() == "output_sequence_length") {
      r.output_tokens = v.value();
    }
  }
  return r;
}

double StepFunction::at(double t) const {
  const auto it = std::upper_bound(ts.begin(), ts.end(), t);
  return it == ts.begin() ? 0.0 : values[static_cast<std::size_t>(it - ts.begin()) - 1];
}

StepFunction sweep_cumsum(std::vector<std::pair<double, double>> events, StepsAt steps) {
  // By time, ends before starts, equal events in the given order.
  stats::radix_sort(
      events, [](const auto& e) { return stats::ordered_key(e.first); }, [](const auto& e) { return e.second > 0; });
  StepFunction f;
  f.ts.reserve(events.size());
  f.values.reserve(events.size());
  double running = 0, largest = 0;
  for (const auto& [t, delta] : events) {
    running += delta;
    largest = std::max(largest, std::fabs(running));
    if (steps == StepsAt::kDistinctTimes && !f.ts.empty() && f.ts.back() == t) {
      f.values.back() = running;  // a repeated time: only the last value holds
      continue;
    }
    f.ts.push_back(t);
    f.values.push_back(running);
  }
  // What is left of large +/- pairs cancelling is rounding, not a quantity.
  for (double& v : f.values) {
    if (std::fabs(v) < 1e-9 * largest) v = 0.0;
  }
  return f;
}

StepFunction divide_steps(const StepFunction& num, const StepFunction& den) {
  StepFunction f;
  if (num.empty() || den.empty()) return f;
  append_union(num.ts, den.ts, f.ts);
  f.values.reserve(f.ts.size());
  StepCursor n(num), d(den);
  for (double t : f.ts) {
    const double below = d.at(t);
    const double above = n.at(t);
    f.values.push_back(below > 0 ? above / below : 0.0);
  }
  return f;
}

SweepStats time_weighted_stats(const StepFunction& f, double window_start, double window_end) {
  const double total = window_end - window_start;
  if (f.empty() || !(total > 0)) return {};
  // The pieces of f inside the window: from the window start with the value holding there,
  // each event inside it, to the window end.
  std::vector<std::pair<double, double>> segments;  // (value, duration)
  auto first = std::upper_bound(f.ts.begin(), f.ts.end(), window_start);
  segments.reserve(static_cast<std::size_t>(f.ts.end() - first) + 1);
  double from = window_start;
  double value = f.at(window_start);
  for (auto it = first; it != f.ts.end() && *it < window_end; ++it) {
    if (*it > from) segments.emplace_back(value, *it - from);
    from = *it;
    value = f.values[static_cast<std::size_t>(it - f.ts.begin())];
  }
  if (window_end > from) segments.emplace_back(value, window_end - from);
  return weighted_stats(std::move(segments), total);
}

SweepStats active_weighted_stats(const StepFunction& rate, const StepFunction& active, double window_start,
                                 double window_end) {
  if (!(window_end - window_start > 0) || rate.empty() || active.empty()) return {};
  // Every time either function changes inside the window, and the window's ends.
  std::vector<double> grid{window_start};
  append_union(times_inside(rate, window_start, window_end), times_inside(active, window_start, window_end), grid);
  grid.push_back(window_end);
  std::vector<std::pair<double, double>> segments;
  segments.reserve(grid.size());
  double active_time = 0;
  StepCursor r(rate), a(active);
  for (std::size_t i = 0; i + 1 < grid.size(); ++i) {
    const double duration = grid[i + 1] - grid[i];
    const double is_active = a.at(grid[i]);
    const double value = r.at(grid[i]);
    if (!(duration > 0) || !(is_active > 0)) continue;
    segments.emplace_back(value, duration);
    active_time += duration;
  }
  return weighted_stats(std::move(segments), active_time);
}

SweepCurves::SweepCurves(std::span<const SweepRecord> records, std::span<const double> icl_values) {
  concurrency_ = sweep_cumsum(interval_events(records, start_of, end_of, one));
  decode_concurrency_ = sweep_cumsum(interval_events(records, generation_of, end_of, one));
  prefill_concurrency_ = sweep_cumsum(interval_events(records, start_of, generation_of, one));
  const bool chunked = !icl_values.empty();
  decode_throughput_ = sweep_cumsum(chunked ? chunk_throughput_events(records, icl_values)
                                            : interval_events(records, generation_of, end_of, decode_rate));
  prefill_throughput_ = sweep_cumsum(interval_events(records, start_of, generation_of, prefill_rate));
  // The total spreads each request's output evenly over its decode, chunks or not.
  Events total = interval_events(records, start_of, generation_of, prefill_rate);
  Events decode = interval_events(records, generation_of, end_of, decode_rate);
  total.insert(total.end(), decode.begin(), decode.end());
  total_throughput_ = sweep_cumsum(std::move(total));
  decode_per_user_ = divide_steps(decode_throughput_, decode_concurrency_);
  prefill_per_user_ = divide_steps(prefill_throughput_, prefill_concurrency_);
  tokens_in_flight_ =
      sweep_cumsum(chunked ? chunk_tokens_in_flight_events(records, icl_values) : tokens_in_flight_events(records));
}

const StepFunction& SweepCurves::curve(SweepCurve c) const {
  switch (c) {
    case SweepCurve::kConcurrency:
      return concurrency_;
    case SweepCurve::kDecodeThroughput:
      return decode_throughput_;
    case SweepCurve::kPrefillThroughput:
      return prefill_throughput_;
    case SweepCurve::kDecodeConcurrency:
      return decode_concurrency_;
    case SweepCurve::kPrefillConcurrency:
      return prefill_concurrency_;
    case SweepCurve::kTotalThroughput:
      return total_throughput_;
    case SweepCurve::kDecodeThroughputPerUser:
      return decode_per_user_;
    case SweepCurve::kPrefillThroughputPerUser:
      return prefill_per_user_;
    case SweepCurve::kTokensInFlight:
    case SweepCurve::kNone:
      break;
  }
  return tokens_in_flight_;
}

SweepStats sweep_stats(const MetricDescriptor& m, const SweepCurves& curves, double window_start, double window_end) {
  SweepStats s =
      m.sweep_active_while == SweepCurve::kNone
          ? time_weighted_stats(curves.curve(m.sweep), window_start, window_end)
          : active_weighted_stats(curves.curve(m.sweep), curves.curve(m.sweep_active_while), window_start, window_end);
  for (double* v : {&s.avg, &s.min, &s.max, &s.p50, &s.p90, &s.p95, &s.p99, &s.std}) *v *= m.sweep_scale;
  return s;
}

}  // namespace aiperf::metrics
