// Inferential statistics for repeated runs (`--num-profile-runs`): Student's t quantiles for
// confidence intervals, and the two-sample Kolmogorov-Smirnov test for "distribution"
// convergence. Pure functions.
#pragma once
#include <vector>

namespace aiperf::stats {

// The q-quantile of Student's t distribution with `df` degrees of freedom (scipy
// stats.t.ppf(q, df)), q in (0, 1), df > 0. Accurate to ~1e-12 relative.
double student_t_quantile(double q, double df);

// Regularized incomplete beta function I_x(a, b), x in [0, 1], a, b > 0.
double incomplete_beta(double x, double a, double b);

// Two-sided two-sample Kolmogorov-Smirnov test: the statistic D (largest gap between the two
// empirical CDFs) and its p-value from the asymptotic Kolmogorov distribution with Stephens'
// small-sample correction (scipy's ks_2samp uses an exact method below 10,000 pairs, so
// p-values of very small samples differ a little). Both samples non-empty.
struct KsResult {
  double statistic = 0;
  double p_value = 1;
};
KsResult ks_two_sample(std::vector<double> a, std::vector<double> b);

}  // namespace aiperf::stats
