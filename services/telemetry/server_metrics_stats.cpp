// Per-series statistics over the profiling window (spec §6.8).
#include <cmath>

#include "server_metrics.h"
#include "stats/stats.h"

namespace aiperf::telemetry {
namespace {

// Index of the baseline: the last scrape at or before the window start, else the first.
size_t baseline_index(const std::vector<int64_t>& ts, int64_t start_ns) {
  size_t base = 0;
  for (size_t i = 0; i < ts.size(); ++i)
    if (ts[i] <= start_ns) base = i;
  return base;
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

nlohmann::ordered_json counter_stats(const ServerSeries& s, int64_t start_ns, double duration_s) {
  const size_t base = baseline_index(s.ts, start_ns);
  double total = 0;
  double since_change = 0;
  int64_t last_change_ns = s.ts[base];
  std::vector<double> rates;  // per second, between consecutive change points
  for (size_t i = base + 1; i < s.ts.size(); ++i) {
    const double prev = s.values[i - 1], cur = s.values[i];
    const double inc = cur >= prev ? cur - prev : cur;  // a decrease is a counter reset
    total += inc;
    since_change += inc;
    if (inc > 0 && s.ts[i] > last_change_ns) {
      rates.push_back(since_change / (static_cast<double>(s.ts[i] - last_change_ns) / 1e9));
      since_change = 0;
      last_change_ns = s.ts[i];
    }
  }
  nlohmann::ordered_json j;
  j["total"] = total;
  j["rate"] = duration_s > 0 ? total / duration_s : 0.0;
  // Time-weighted: the increase up to the last change over the time it took.
  const double span_s = static_cast<double>(last_change_ns - s.ts[base]) / 1e9;
  j["rate_avg"] = span_s > 0 ? (total - since_change) / span_s : 0.0;
  if (rates.empty()) {
    j["rate_min"] = 0.0;
    j["rate_max"] = 0.0;
    j["rate_std"] = 0.0;
  } else {
    const stats::Summary r = stats::summarize(std::move(rates));
    j["rate_min"] = r.min;
    j["rate_max"] = r.max;
    j["rate_std"] = r.std;
  }
  return j;
}

// Prometheus histogram_quantile over the increase of the cumulative buckets.
double quantile_estimate(const std::vector<std::string>& les, const std::vector<double>& cumulative, double q) {
  const double count = cumulative.empty() ? 0 : cumulative.back();
  if (count <= 0) return NAN;
  const double rank = q * count;
  double prev_bound = 0, prev_count = 0;
  for (size_t i = 0; i < les.size(); ++i) {
    const double bound = les[i] == "+Inf" ? INFINITY : std::strtod(les[i].c_str(), nullptr);
    if (cumulative[i] >= rank) {
      if (std::isinf(bound)) return prev_bound;  // no upper edge: the highest finite bound
      if (i == 0 && bound <= 0) return bound;
      const double in_bucket = cumulative[i] - prev_count;
      if (in_bucket <= 0) return bound;
      return prev_bound + (bound - prev_bound) * (rank - prev_count) / in_bucket;
    }
    prev_bound = bound;
    prev_count = cumulative[i];
  }
  return prev_bound;
}

nlohmann::ordered_json histogram_stats(const ServerSeries& s, int64_t start_ns, double duration_s,
                                       nlohmann::ordered_json* buckets_out) {
  const size_t base = baseline_index(s.ts, start_ns);
  const size_t last = s.ts.size() - 1;
  const bool reset = s.counts[last] < s.counts[base];
  std::vector<double> delta(s.les.size());
  for (size_t b = 0; b < s.les.size(); ++b)
    delta[b] = reset ? s.buckets[last][b] : s.buckets[last][b] - s.buckets[base][b];
  const double count = reset ? s.counts[last] : s.counts[last] - s.counts[base];
  const double sum = reset ? s.sums[last] : s.sums[last] - s.sums[base];
  nlohmann::ordered_json j;
  j["count"] = count;
  j["count_rate"] = duration_s > 0 ? count / duration_s : 0.0;
  j["sum"] = sum;
  j["sum_rate"] = duration_s > 0 ? sum / duration_s : 0.0;
  if (count > 0) j["avg"] = sum / count;
  if (count > 0)
    for (size_t i = 0; i < stats::kPercentiles.size(); ++i)
      j[std::string(stats::kPercentileNames[i]) + "_estimate"] =
          quantile_estimate(s.les, delta, stats::kPercentiles[i] / 100.0);
  if (buckets_out) {
    *buckets_out = nlohmann::ordered_json::object();
    for (size_t b = 0; b < s.les.size(); ++b) (*buckets_out)[s.les[b]] = delta[b];
  }
  return j;
}

}  // namespace

nlohmann::ordered_json series_stats(const ServerSeries& s, int64_t start_ns, int64_t end_ns,
                                    nlohmann::ordered_json* buckets) {
  if (s.ts.empty()) return nlohmann::ordered_json::object();
  const double duration_s = static_cast<double>(end_ns - start_ns) / 1e9;
  switch (s.type) {
    case prometheus::MetricType::kCounter: return counter_stats(s, start_ns, duration_s);
    case prometheus::MetricType::kHistogram: return histogram_stats(s, start_ns, duration_s, buckets);
    default: return gauge_stats(s, start_ns);
  }
}

std::string infer_unit(std::string_view name) {
  const bool total = name.ends_with("_total");
  if (total) name.remove_suffix(6);
  struct Suffix {
    std::string_view suffix, unit;
  };
  static constexpr Suffix kSuffixes[] = {
      {"_seconds", "seconds"}, {"_milliseconds", "milliseconds"}, {"_ms", "milliseconds"},
      {"_bytes", "bytes"},     {"_tokens", "tokens"},             {"_requests", "requests"},
      {"_perc", "percent"},    {"_percent", "percent"},           {"_ratio", "ratio"},
      {"_count", "count"},     {"_reqs", "requests"},
  };
  for (const Suffix& s : kSuffixes)
    if (name.ends_with(s.suffix)) return std::string(s.unit);
  return total ? "count" : "";
}

}  // namespace aiperf::telemetry
