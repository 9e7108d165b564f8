// Per-series statistics over the profiling window (spec §6.8).
#include <algorithm>
#include <cmath>
#include <optional>

#include "server_metrics.h"
#include "stats/stats.h"

namespace aiperf::telemetry {
namespace {

// AIPerf 0.13's reference point of a cumulative series: the last scrape before the window
// start; nullopt when there is none (the first scrape in the window is then the reference).
std::optional<size_t> reference_index(const std::vector<int64_t>& ts, int64_t start_ns) {
  std::optional<size_t> ref;
  for (size_t i = 0; i < ts.size() && ts[i] < start_ns; ++i) ref = i;
  return ref;
}

// First scrape at or after the window start (ts.size() when none).
size_t first_in_window(const std::vector<int64_t>& ts, int64_t start_ns) {
  size_t i = 0;
  while (i < ts.size() && ts[i] < start_ns) ++i;
  return i;
}

nlohmann::ordered_json gauge_stats(const ServerSeries& s, int64_t start_ns) {
  std::vector<double> window;
  for (size_t i = 0; i < s.ts.size(); ++i)
    if (s.ts[i] >= start_ns && !std::isnan(s.values[i])) window.push_back(s.values[i]);
  if (window.empty() && !s.values.empty()) window.push_back(s.values.back());  // run shorter than a period
  nlohmann::ordered_json j;
  if (window.empty()) return j;
  const stats::Summary sum = stats::summarize(std::move(window));
  j["avg"] = sum.avg;
  j["min"] = sum.min;
  j["max"] = sum.max;
  j["std"] = sum.std;
  for (size_t i = 0; i < stats::kPercentiles.size(); ++i) j[stats::kPercentileNames[i]] = sum.percentiles[i];
  return j;
}

// AIPerf 0.13: the increase from the reference (else the first scrape in the window) to the last
// (a decrease, a reset, counts 0) and its rate over the time between those two scrapes; with
// timeslices, the mean, min, max and sample std of the complete slices' rates.
nlohmann::ordered_json counter_stats(const ServerSeries& s, const SeriesWindow& w,
                                     const nlohmann::ordered_json& slices) {
  nlohmann::ordered_json j;
  const size_t ref = w.ref.value_or(w.first);
  const double total = std::max(s.values[w.last] - s.values[ref], 0.0);
  const double span_s = static_cast<double>(s.ts[w.last] - s.ts[ref]) / 1e9;
  j["total"] = total;
  j["rate"] = span_s > 0 ? total / span_s : 0.0;
  if (!slices.is_array()) return j;
  std::vector<double> rates;
  for (const auto& slice : slices)
    if (!slice.contains("is_complete")) rates.push_back(slice["rate"].get<double>());
  if (rates.empty()) return j;
  double mean = 0, sq = 0;
  for (double r : rates) mean += r;
  mean /= static_cast<double>(rates.size());
  for (double r : rates) sq += (r - mean) * (r - mean);
  j["rate_avg"] = mean;
  j["rate_min"] = *std::min_element(rates.begin(), rates.end());
  j["rate_max"] = *std::max_element(rates.begin(), rates.end());
  j["rate_std"] = rates.size() > 1 ? std::sqrt(sq / static_cast<double>(rates.size() - 1)) : 0.0;
  return j;
}

// AIPerf 0.13: count (an integer), sum, avg, count_rate and sum_rate over the time from the
// reference scrape (else the first) to the last, 0.13's quantile estimates (absent when it has none)
// and the buckets' increase as integers (left out when a bucket went back: a reset).
nlohmann::ordered_json histogram_stats(const ServerSeries& s, const SeriesWindow& w,
                                       nlohmann::ordered_json* buckets_out) {
  const size_t ref = w.ref.value_or(0);
  const size_t last = w.last;
  const int64_t count = std::max(static_cast<int64_t>(s.counts[last] - s.counts[ref]), int64_t{0});
  const double sum = std::max(s.sums[last] - s.sums[ref], 0.0);
  std::vector<double> delta(s.les.size());
  bool bucket_reset = false;
  for (size_t b = 0; b < s.les.size(); ++b) {
    delta[b] = s.buckets[last][b] - s.buckets[ref][b];
    bucket_reset = bucket_reset || delta[b] < 0;
  }
  if (!bucket_reset) {
    *buckets_out = nlohmann::ordered_json::object();
    for (size_t b = 0; b < s.les.size(); ++b) (*buckets_out)[s.les[b]] = static_cast<int64_t>(delta[b]);
  }
  nlohmann::ordered_json j;
  j["count"] = count;
  if (count == 0) return j;
  const double span_s = static_cast<double>(s.ts[last] - s.ts[ref]) / 1e9;
  j["sum"] = sum;
  j["avg"] = sum / static_cast<double>(count);
  if (span_s > 0) {
    j["count_rate"] = static_cast<double>(count) / span_s;
    j["sum_rate"] = sum / span_s;
  }
  if (bucket_reset || s.les.empty()) return j;
  // Learned from the reference scrape (else the first) through the series' last, as 0.13.
  std::vector<int64_t> increase(delta.size());
  for (size_t b = 0; b < delta.size(); ++b) increase[b] = static_cast<int64_t>(delta[b]);
  const auto estimates = estimate_quantiles(s.les, increase, learn_buckets(s, ref), sum, count);
  if (!estimates) return j;
  static constexpr const char* kKeys[9] = {"p1_estimate",  "p5_estimate",  "p10_estimate",
                                           "p25_estimate", "p50_estimate", "p75_estimate",
                                           "p90_estimate", "p95_estimate", "p99_estimate"};
  for (size_t i = 0; i < 9; ++i) j[kKeys[i]] = (*estimates)[i];
  return j;
}

}  // namespace

double reset_aware_increase(const ServerSeries& s, int64_t start_ns) {
  size_t base = 0;  // the last scrape at or before the window start, else the first
  for (size_t i = 0; i < s.ts.size(); ++i)
    if (s.ts[i] <= start_ns) base = i;
  double total = 0;
  for (size_t i = base + 1; i < s.ts.size(); ++i) {
    const double prev = s.values[i - 1], cur = s.values[i];
    total += cur >= prev ? cur - prev : cur;  // a decrease is a counter reset
  }
  return total;
}

SeriesExport series_export(const ServerSeries& s, int64_t start_ns, std::optional<double> slice_s) {
  SeriesExport out;
  if (s.ts.empty()) return out;
  // The last scrape closes the window (the final scrape comes after the profiling end).
  const SeriesWindow w{first_in_window(s.ts, start_ns), s.ts.size() - 1, reference_index(s.ts, start_ns)};
  switch (s.type) {
    case prometheus::MetricType::kCounter:
      if (w.first == s.ts.size()) return out;  // nothing in the window
      if (slice_s) out.timeslices = counter_timeslices(s, w, *slice_s);
      out.stats = counter_stats(s, w, out.timeslices);
      break;
    case prometheus::MetricType::kHistogram:
      out.stats = histogram_stats(s, w, &out.buckets);
      if (slice_s && w.first < s.ts.size()) out.timeslices = histogram_timeslices(s, w, *slice_s);
      break;
    default:
      out.stats = gauge_stats(s, start_ns);
      if (slice_s && w.first < s.ts.size()) out.timeslices = gauge_timeslices(s, w, *slice_s);
  }
  return out;
}

}  // namespace aiperf::telemetry
