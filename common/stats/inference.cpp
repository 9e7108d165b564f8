#include "stats/inference.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace aiperf::stats {
namespace {

// Continued fraction of the incomplete beta function (modified Lentz), valid for
// x < (a + 1) / (a + b + 2); the caller uses the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) otherwise.
double beta_continued_fraction(double x, double a, double b) {
  constexpr double kTiny = 1e-300;
  constexpr double kEps = 1e-15;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 10'000; ++m) {
    const double m2 = 2.0 * m;
    double num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + num * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + num / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    h *= d * c;
    num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + num * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + num / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < kEps) break;
  }
  return h;
}

// P(T <= t) for Student's t with df degrees of freedom.
double student_t_cdf(double t, double df) {
  const double x = df / (df + t * t);
  const double tail = 0.5 * incomplete_beta(x, df / 2.0, 0.5);  // P(T > |t|)
  return t >= 0 ? 1.0 - tail : tail;
}

// Kolmogorov distribution's survival function Q(lambda) = 2 sum (-1)^(k-1) exp(-2 k^2 lambda^2).
double kolmogorov_q(double lambda) {
  if (lambda < 1e-3) return 1.0;
  double sum = 0, sign = 1;
  for (int k = 1; k <= 200; ++k) {
    const double term = sign * std::exp(-2.0 * k * k * lambda * lambda);
    sum += term;
    if (std::fabs(term) < 1e-16 * std::fabs(sum)) break;
    sign = -sign;
  }
  return std::clamp(2.0 * sum, 0.0, 1.0);
}

}  // namespace

double incomplete_beta(double x, double a, double b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  const double front = std::exp(log_front);
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_continued_fraction(x, a, b) / a;
  return 1.0 - front * beta_continued_fraction(1.0 - x, b, a) / b;
}

double student_t_quantile(double q, double df) {
  if (!(q > 0 && q < 1) || !(df > 0)) return std::numeric_limits<double>::quiet_NaN();
  if (q == 0.5) return 0;
  if (q < 0.5) return -student_t_quantile(1.0 - q, df);
  // Bracket, then bisect: the CDF is monotone, and 200 halvings reach double precision.
  double lo = 0, hi = 1;
  while (student_t_cdf(hi, df) < q && hi < 1e300) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (student_t_cdf(mid, df) < q ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

KsResult ks_two_sample(std::vector<double> a, std::vector<double> b) {
  KsResult r;
  if (a.empty() || b.empty()) return r;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const double n = static_cast<double>(a.size()), m = static_cast<double>(b.size());
  size_t i = 0, j = 0;
  double d = 0;
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= x) ++i;  // ties move both CDFs together
    while (j < b.size() && b[j] <= x) ++j;
    d = std::max(d, std::fabs(i / n - j / m));
  }
  const double en = std::sqrt(n * m / (n + m));
  r.statistic = d;
  r.p_value = kolmogorov_q((en + 0.12 + 0.11 / en) * d);
  return r;
}

}  // namespace aiperf::stats
