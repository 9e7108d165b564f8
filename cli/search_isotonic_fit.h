// The curve fitting behind the smooth_isotonic planner (AIPerf 0.13's _smooth_isotonic_fit):
// isotonic regression (pool adjacent violators, unit weights) denoises the per-value SLA
// margins, a tiny strictly increasing ramp breaks ties, and a monotone cubic (PCHIP, SciPy's
// PchipInterpolator derivatives) interpolates them; the boundary is the curve's zero.
#pragma once
#include <optional>
#include <vector>

namespace aiperf::cli::search {

// The non-decreasing sequence closest to `ys` in least squares.
std::vector<double> isotonic_increasing(const std::vector<double>& ys);

// Monotone piecewise-cubic Hermite interpolation through (xs, ys), xs strictly increasing.
class Pchip {
 public:
  Pchip(std::vector<double> xs, std::vector<double> ys);
  double operator()(double x) const;  // clamped to the end segments outside [xs0, xs_last]
  // The first zero inside [xs0, xs_last] that also lies in [lo, hi] (SciPy's
  // solve(0, extrapolate=False) then the bracket filter); nullopt if none.
  std::optional<double> root_in(double lo, double hi) const;

 private:
  std::vector<double> xs_, ys_, d_;
};

// isotonic_increasing(ys), strictified by i * 1e-9 * (span or 1), as a Pchip over xs.
Pchip smooth_isotonic_fit(const std::vector<double>& xs, const std::vector<double>& ys);

}  // namespace aiperf::cli::search
