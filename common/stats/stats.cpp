#include "stats/stats.h"

#include <algorithm>
#include <cmath>

namespace aiperf::stats {

namespace {

// numpy's PW_BLOCKSIZE: below it, 8 interleaved accumulators; above, split in halves.
constexpr std::size_t kPairwiseBlock = 128;

// Sums f(a[i]); f lets std sum squared deviations without materialising them.
template <typename F>
double pairwise_sum(const double* a, std::size_t n, F f) {
  if (n < 8) {
    double res = 0.;
    for (std::size_t i = 0; i < n; ++i) res += f(a[i]);
    return res;
  }
  if (n <= kPairwiseBlock) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = f(a[j]);
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += f(a[i + j]);
    }
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += f(a[i]);
    return res;
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise_sum(a, n2, f) + pairwise_sum(a + n2, n - n2, f);
}

constexpr auto kIdentity = [](double v) { return v; };

}  // namespace

double sum(std::span<const double> values) {
  return pairwise_sum(values.data(), values.size(), kIdentity);
}

double mean(std::span<const double> values) {
  return sum(values) / static_cast<double>(values.size());
}

double population_std(std::span<const double> values) {
  const double m = mean(values);
  const double squares = pairwise_sum(values.data(), values.size(), [m](double v) {
    const double d = v - m;
    return d * d;
  });
  return std::sqrt(squares / static_cast<double>(values.size()));
}

namespace {

// numpy.percentile's linear method over n ordered values, value_at(i) = i-th smallest.
template <typename F>
double interpolate(std::size_t n, double q, F value_at) {
  const double position = static_cast<double>(n - 1) * (q / 100.0);
  const double below = std::floor(position);
  const double t = position - below;
  const auto lo = static_cast<std::size_t>(below);
  const double a = value_at(lo);
  const double b = value_at(std::min(lo + 1, n - 1));
  const double diff = b - a;
  // numpy._lerp: interpolating from the nearer end keeps results monotonic and exact at t=1.
  return t >= 0.5 ? b - diff * (1.0 - t) : a + diff * t;
}

}  // namespace

double percentile_sorted(std::span<const double> sorted, double q) {
  return interpolate(sorted.size(), q, [&](std::size_t i) { return sorted[i]; });
}

Summary summarize(std::vector<double> values) {
  Summary s;
  const std::size_t n = values.size();
  s.count = n;
  // Mean and std before reordering: pairwise summation depends on element order, and numpy
  // sums the array in arrival order.
  s.sum = sum(values);
  s.avg = s.sum / static_cast<double>(n);
  s.std = population_std(values);

  // Only a few order statistics are needed (min, max, two neighbours per percentile). Selecting
  // them in ascending rank with nth_element, each over what lies above the previous one, costs
  // a few linear passes instead of a full sort.
  std::vector<std::size_t> ranks = {0, n - 1};
  for (double q : kPercentiles) {
    const auto lo = static_cast<std::size_t>(std::floor(static_cast<double>(n - 1) * (q / 100.0)));
    ranks.push_back(lo);
    ranks.push_back(std::min(lo + 1, n - 1));
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  auto first = values.begin();
  for (std::size_t r : ranks) {
    std::nth_element(first, values.begin() + static_cast<std::ptrdiff_t>(r), values.end());
    first = values.begin() + static_cast<std::ptrdiff_t>(r) + 1;
  }
  // Every selected rank now holds its order statistic.
  auto value_at = [&](std::size_t i) { return values[i]; };
  s.min = values.front();
  s.max = values.back();
  for (std::size_t i = 0; i < kPercentiles.size(); ++i) {
    s.percentiles[i] = interpolate(n, kPercentiles[i], value_at);
  }
  return s;
}

}  // namespace aiperf::stats
