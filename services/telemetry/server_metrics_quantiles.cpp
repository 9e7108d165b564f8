// AIPerf 0.13's histogram quantile estimates (its "polynomial histogram" estimator,
// aiperf/server_metrics/histogram_percentiles.py), written anew:
//
// 1. Learning: every interval between consecutive scrapes (from the window's reference scrape to
//    the series' last) whose new observations all fell into one bucket gives that bucket an exact
//    mean (sum increase / count increase); a bucket keeps the count-weighted mean of those and,
//    from three such intervals on, their sample variance (ddof 1).
// 2. The +Inf bucket: the finite buckets' sums are estimated (count x learned mean, else the
//    midpoint) and the rest of the observed sum is spread evenly over the +Inf observations
//    (from the highest finite bound up, mean rest / count).
// 3. Finite buckets: each gets its count of synthetic observations, placed by its learned mean
//    and variance (a two-point mass, a blend, a variance-shaped spread or a shifted uniform grid;
//    a bucket holding 95 % of the observations centres on the overall mean), then shifted so that
//    they add up to the observed sum minus the +Inf bucket's share.
// 4. p1..p99 of all synthetic observations, with numpy's default (linear) percentile rule.
//
// Rounding follows numpy where it matters to the last bit: np.sum's pairwise summation, np.var,
// np.linspace and np.percentile's interpolation. At most 100 000 observations (counts and sum
// scaled down together), as 0.13. Cost: O(buckets x scrapes) to learn, O(buckets + n) to
// estimate (n <= 100 000 observations, generated in order).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>

#include "server_metrics.h"
#include "stats/stats.h"

namespace aiperf::telemetry {
namespace {

constexpr double kMaxObservations = 100'000;

double le_value(const std::string& le) { return le == "+Inf" ? INFINITY : std::strtod(le.c_str(), nullptr); }

// numpy's pairwise summation (np.sum), bit for bit.
double pairwise_sum(const double* a, size_t n) { return stats::sum({a, n}); }

double clip(double v, double lo, double hi) { return std::min(std::max(v, lo), hi); }

// A finite bucket: its bounds (the previous finite bound, else 0) and its learned statistics.
struct Bucket {
  double lower = 0, upper = 0;
  double count = 0;  // observations in it (after any down-scaling)
  const LearnedBucket* learned = nullptr;
};

// The learned mean when there is one strictly inside the bucket.
std::optional<double> valid_mean(const Bucket& b) {
  if (!b.learned || b.learned->observations == 0) return std::nullopt;
  const double m = b.learned->mean();
  if (b.lower < m && m < b.upper) return m;
  return std::nullopt;
}

// (i + 0.5) / n for i in [0, n): the evenly spaced fractions of 0.13's grids.
inline double fraction(size_t i, size_t n) { return (static_cast<double>(i) + 0.5) / static_cast<double>(n); }

// Observations shaped by the learned spread: from the lower edge (at most 3 std below) up to the
// mean for the first half of the fractions, from the mean up to the upper edge (at most 3 std
// above) for the second.
double variance_shaped(double f, double lower, double upper, double mean, double std) {
  const double to_lower = std::min(std > 0 ? (mean - lower) / std : 3.0, 3.0);
  const double to_upper = std::min(std > 0 ? (upper - mean) / std : 3.0, 3.0);
  const double pos = f < 0.5 ? mean - to_lower * std * (1 - 2 * f) : mean + to_upper * std * (2 * f - 1);
  return clip(pos, lower, upper);
}

// Writes `n` observations of one bucket to `out`, as 0.13 places them.
void place_bucket(const Bucket& b, size_t n, bool dominant, double avg, double* out) {
  const double width = b.upper - b.lower;
  const double midpoint = (b.lower + b.upper) / 2;
  const std::optional<double> mean = valid_mean(b);
  const std::optional<double> variance = b.learned ? b.learned->variance() : std::nullopt;
  if (mean && variance && *variance > 0) {
    const double std = std::sqrt(*variance);
    const double spread = (4 * std) / width;
    const double offset = std::abs(*mean - midpoint) / width;
    if (spread < 0.01) {
      // Two-point mass matching mean and variance: the lower edge and a point above the mean.
      const double x = b.lower;
      double a = *mean - x > 0 ? *mean + *variance / (*mean - x) : b.upper;
      a = clip(a, b.lower, b.upper);
      const double denominator = *variance + (*mean - x) * (*mean - x);
      const double p_x = clip(denominator > 0 ? *variance / denominator : 0.5, 0.0, 1.0);
      const auto n_x = static_cast<size_t>(static_cast<double>(n) * p_x);
      for (size_t i = 0; i < n; ++i) out[i] = i < n_x ? x : a;
    } else if (spread < 0.2 && offset < 0.3) {
      // Half a uniform grid shifted onto the mean, half the variance-shaped spread.
      const double shift = *mean - midpoint;
      for (size_t i = 0; i < n; ++i) {
        const double f = fraction(i, n);
        const double uniform = clip(b.lower + width * f + shift, b.lower, b.upper);
        const double shaped = variance_shaped(f, b.lower, b.upper, *mean, std);
        out[i] = clip((1 - 0.5) * uniform + 0.5 * shaped, b.lower, b.upper);
      }
    } else {
      for (size_t i = 0; i < n; ++i) out[i] = variance_shaped(fraction(i, n), b.lower, b.upper, *mean, std);
    }
    return;
  }
  // A uniform grid over the bucket, shifted onto the learned mean (or, for the dominant bucket,
  // the overall mean when it lies inside), clipped to the bucket.
  double center = mean.value_or(midpoint);
  if (dominant && b.lower < avg && avg < b.upper) center = avg;
  const double shift = center - midpoint;
  for (size_t i = 0; i < n; ++i) out[i] = clip(b.lower + width * fraction(i, n) + shift, b.lower, b.upper);
}

// 0.13's finite-bucket observations: placed per bucket, then shifted so that they add up to
// `target_sum` (unless already within 0.1 %), each bucket taking its share of the difference.
std::vector<double> finite_observations(std::vector<Bucket> buckets, double target_sum) {
  double total = 0;
  for (const Bucket& b : buckets) total += b.count;
  if (total > kMaxObservations) {  // after the caller's scaling, only a rounding's worth above
    const double ratio = kMaxObservations / total;
    for (Bucket& b : buckets) b.count *= ratio;
    target_sum *= ratio;
    total = 0;
    for (const Bucket& b : buckets) total += b.count;
  }
  const double avg = total > 0 ? target_sum / total : 0;
  std::optional<size_t> dominant;
  if (total > 0) {
    double max_count = -INFINITY;
    for (const Bucket& b : buckets) max_count = std::max(max_count, b.count);
    if (max_count / total >= 0.95)
      for (size_t i = 0; i < buckets.size() && !dominant; ++i)
        if (buckets[i].count == max_count) dominant = i;
  }
  std::vector<int64_t> counts(buckets.size());
  int64_t total_obs = 0;
  for (size_t i = 0; i < buckets.size(); ++i) total_obs += counts[i] = static_cast<int64_t>(buckets[i].count);
  if (total_obs <= 0) return {};
  std::vector<double> obs(static_cast<size_t>(total_obs), 0.0);
  struct Range {
    size_t start, n;
    double lower, upper;
  };
  std::vector<Range> ranges;
  size_t at = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    if (counts[i] <= 0) continue;
    if (at >= obs.size()) break;
    const size_t n = std::min(static_cast<size_t>(counts[i]), obs.size() - at);
    place_bucket(buckets[i], n, dominant == i, avg, obs.data() + at);
    ranges.push_back({at, n, buckets[i].lower, buckets[i].upper});
    at += n;
  }
  const double generated = pairwise_sum(obs.data(), obs.size());
  if (generated <= 0 || target_sum <= 0) return obs;
  const double discrepancy = target_sum - generated;
  if (std::abs(discrepancy) / target_sum < 0.001) return obs;
  for (const Range& r : ranges) {
    double* slice = obs.data() + r.start;
    const double weight = pairwise_sum(slice, r.n) / generated;
    const double per_obs = discrepancy * weight / static_cast<double>(r.n);
    const double max_shift = (r.upper - r.lower) * 0.4;
    const double shift = clip(per_obs, -max_shift, max_shift);
    for (size_t i = 0; i < r.n; ++i) slice[i] = clip(slice[i] + shift, r.lower, r.upper);
  }
  return obs;
}

// 0.13's +Inf observations: mean (total - estimated finite sum) / count, at least 1.5 x the
// highest finite bound, spread evenly from that bound (np.linspace); one alone sits at the mean.
std::vector<double> inf_observations(double total_sum, double finite_sum, int64_t n, double max_finite) {
  if (n <= 0) return {};
  const double rest = total_sum - finite_sum;
  double avg = rest <= 0 ? max_finite * 1.5 : rest / static_cast<double>(n);
  if (avg <= max_finite) avg = max_finite * 1.5;
  double upper = 2 * avg - max_finite;
  if (upper <= max_finite) upper = max_finite * 2;
  if (n == 1) return {avg};
  std::vector<double> out(static_cast<size_t>(n));
  const double delta = upper - max_finite;
  const auto div = static_cast<double>(n - 1);
  const double step = delta / div;
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = (step == 0 ? static_cast<double>(i) / div * delta : static_cast<double>(i) * step) + max_finite;
  out.back() = upper;
  return out;
}

}  // namespace

double LearnedBucket::mean() const { return weighted_mean_sum / static_cast<double>(observations); }

std::optional<double> LearnedBucket::variance() const {
  if (means.size() < 3) return std::nullopt;
  const double n = static_cast<double>(means.size());
  const double mean = pairwise_sum(means.data(), means.size()) / n;
  std::vector<double> sq(means.size());
  for (size_t i = 0; i < means.size(); ++i) sq[i] = (means[i] - mean) * (means[i] - mean);
  return pairwise_sum(sq.data(), sq.size()) / (n - 1);
}

std::vector<size_t> bucket_order(const std::vector<std::string>& les) {
  std::vector<size_t> order(les.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return le_value(les[a]) < le_value(les[b]); });
  return order;
}

std::vector<LearnedBucket> learn_buckets(const ServerSeries& s, size_t from) {
  const std::vector<size_t> order = bucket_order(s.les);
  std::vector<LearnedBucket> learned(s.les.size());
  const size_t nb = order.size();
  std::vector<double> delta(nb);
  for (size_t i = from; i + 1 < s.ts.size(); ++i) {
    const double count_diff = s.counts[i + 1] - s.counts[i];
    const auto count_delta = std::isfinite(count_diff) ? static_cast<int64_t>(count_diff) : int64_t{0};
    if (count_delta <= 0) continue;
    // The increase of each cumulative bucket (a decrease, a reset, as 0), then per bucket.
    for (size_t k = 0; k < nb; ++k) delta[k] = std::max(s.buckets[i + 1][order[k]] - s.buckets[i][order[k]], 0.0);
    size_t active = 0, only = 0;
    for (size_t k = 0; k < nb && active < 2; ++k) {
      const double own = std::max(k == 0 ? delta[0] : delta[k] - delta[k - 1], 0.0);
      if (own > 0) ++active, only = k;
    }
    if (active != 1) continue;
    LearnedBucket& b = learned[order[only]];
    const double mean = (s.sums[i + 1] - s.sums[i]) / static_cast<double>(count_delta);
    b.observations += count_delta;
    b.weighted_mean_sum += mean * static_cast<double>(count_delta);
    b.means.push_back(mean);
  }
  return learned;
}

std::optional<std::array<double, 9>> estimate_quantiles(const std::vector<std::string>& les,
                                                        const std::vector<int64_t>& increase,
                                                        const std::vector<LearnedBucket>& learned, double sum,
                                                        int64_t count) {
  if (count <= 0 || les.empty()) return std::nullopt;
  if (!std::isfinite(sum) || sum < 0) return std::nullopt;
  if (sum == 0) return std::array<double, 9>{};  // every observation was 0
  const std::vector<size_t> order = bucket_order(les);
  // Finite buckets in bound order with their own counts; the +Inf bucket's own count.
  std::vector<Bucket> buckets;
  std::optional<double> inf_count;
  double prev_cumulative = 0, prev_bound = 0;
  for (size_t idx : order) {
    const auto cumulative = static_cast<double>(increase[idx]);
    if (les[idx] == "+Inf") {
      inf_count = cumulative;  // its cumulative count less the last finite bucket's (below)
      continue;
    }
    Bucket b;
    b.lower = buckets.empty() ? 0.0 : prev_bound;
    b.upper = le_value(les[idx]);
    b.count = cumulative - prev_cumulative;
    b.learned = idx < learned.size() ? &learned[idx] : nullptr;
    buckets.push_back(b);
    prev_cumulative = cumulative;
    prev_bound = b.upper;
  }
  if (buckets.empty()) return std::nullopt;
  if (inf_count) *inf_count -= prev_cumulative;
  double max_finite = -INFINITY;
  for (const Bucket& b : buckets) max_finite = std::max(max_finite, b.upper);

  // At most 100 000 observations: all counts and the sum scaled by one ratio.
  double total = 0;
  for (const Bucket& b : buckets) total += b.count;
  if (inf_count) total += *inf_count;
  if (total > kMaxObservations) {
    const double ratio = kMaxObservations / total;
    for (Bucket& b : buckets) b.count *= ratio;
    if (inf_count) *inf_count *= ratio;
    sum *= ratio;
  }
  const double raw_inf = inf_count.value_or(0);
  const int64_t n_inf = raw_inf > 0 ? static_cast<int64_t>(std::ceil(raw_inf)) : 0;

  double finite_sum = 0;  // the finite buckets' estimated sums: count x (learned mean, else midpoint)
  for (const Bucket& b : buckets)
    if (b.count > 0) finite_sum += b.count * valid_mean(b).value_or((b.lower + b.upper) / 2);
  const std::vector<double> inf_obs = inf_observations(sum, finite_sum, n_inf, max_finite);
  const double inf_sum = inf_obs.empty() ? 0.0 : pairwise_sum(inf_obs.data(), inf_obs.size());

  std::vector<double> obs = finite_observations(std::move(buckets), sum - inf_sum);
  obs.insert(obs.end(), inf_obs.begin(), inf_obs.end());
  if (obs.empty()) return std::nullopt;
  // Already in order as a rule (buckets ascending, each bucket's grid ascending, +Inf last).
  if (!std::is_sorted(obs.begin(), obs.end())) std::sort(obs.begin(), obs.end());

  // np.percentile's default rule: position (n - 1) * q, linear between its neighbours.
  static constexpr double kPercents[9] = {1, 5, 10, 25, 50, 75, 90, 95, 99};
  std::array<double, 9> out{};
  const auto last = static_cast<double>(obs.size() - 1);
  for (size_t i = 0; i < 9; ++i) {
    const double pos = last * (kPercents[i] / 100);
    if (pos >= last) {
      out[i] = obs.back();
      continue;
    }
    const double below = std::floor(pos);
    const double gamma = pos - below;
    const double a = obs[static_cast<size_t>(below)], b = obs[static_cast<size_t>(below) + 1];
    const double diff = b - a;
    out[i] = gamma >= 0.5 ? b - diff * (1 - gamma) : a + diff * gamma;
  }
  return out;
}

}  // namespace aiperf::telemetry
