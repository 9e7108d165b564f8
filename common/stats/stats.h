// Descriptive statistics of one metric's values, matching numpy bit for bit where it matters:
// sums use numpy's pairwise summation, std is the population std (ddof=0, two-pass),
// percentiles use numpy.percentile's default "linear" method.
// Pure functions; no state, thread-safe.
#pragma once
#include <array>
#include <cstddef>
#include <span>
#include <vector>

namespace aiperf::stats {

// The percentiles AIPerf reports, in report order.
inline constexpr std::array<double, 9> kPercentiles = {1, 5, 10, 25, 50, 75, 90, 95, 99};
// Their keys in AIPerf's files, same order.
inline constexpr std::array<const char*, 9> kPercentileNames = {"p1",  "p5",  "p10", "p25", "p50",
                                                                "p75", "p90", "p95", "p99"};

// Sum with numpy's pairwise algorithm (blocks of 8 accumulators, halves above 128 values), so
// float results are identical to numpy.sum. 0 for an empty span.
double sum(std::span<const double> values);

// numpy.mean: sum / n. Requires a non-empty span.
double mean(std::span<const double> values);

// numpy.std with ddof=0: sqrt(mean((x - mean(x))^2)), two passes for numerical stability.
// Requires a non-empty span.
double population_std(std::span<const double> values);

// numpy.percentile(values, q) for sorted ascending values, q in [0, 100]: linear interpolation
// at position (n-1)*q/100, using numpy's lerp (computed from the upper neighbour when the
// fraction is >= 0.5). Requires a non-empty span.
double percentile_sorted(std::span<const double> sorted, double q);

struct Summary {
  std::size_t count = 0;
  double avg = 0, min = 0, max = 0, sum = 0, std = 0;
  std::array<double, kPercentiles.size()> percentiles{};  // same order as kPercentiles
};

// All statistics of a non-empty set of values. Takes the values by value because it reorders
// them (partial selection); pass an rvalue to avoid a copy.
Summary summarize(std::vector<double> values);

}  // namespace aiperf::stats
