#include "search_bo_math.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace aiperf::cli::search::bo {

double Rng::uniform() {
  // The top 53 bits: every double in [0, 1) on a 2^-53 grid.
  return static_cast<double>(gen_() >> 11) * 0x1.0p-53;
}

double Rng::normal() {
  double u = uniform();
  while (u <= 0) u = uniform();
  const double v = uniform();
  return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
}

size_t Rng::pick(const std::vector<double>& weights) {
  double total = 0;
  for (double w : weights) total += w;
  double r = uniform() * total;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (r < weights[i]) return i;
    r -= weights[i];
  }
  return weights.empty() ? 0 : weights.size() - 1;
}

double norm_pdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi); }

double norm_cdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

double log_norm_cdf(double z) {
  if (z > -30) return std::log(norm_cdf(z));
  // Phi(z) ~ phi(z)/|z| (1 - 1/z^2 + 3/z^4 - 15/z^6) far in the lower tail.
  const double z2 = z * z;
  return -0.5 * z2 - std::log(-z) - 0.5 * std::log(2.0 * std::numbers::pi) +
         std::log1p(-1.0 / z2 + 3.0 / (z2 * z2) - 15.0 / (z2 * z2 * z2));
}

double norm_ppf(double p) {
  // Acklam's rational approximation, then one Halley step on erfc for full precision.
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  p = std::clamp(p, 1e-300, 1 - 1e-16);
  const double plow = 0.02425;
  double x;
  if (p < plow) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - plow) {
    const double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const double q = std::sqrt(-2 * std::log1p(-p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const double e = norm_cdf(x) - p;
  const double u = e * std::sqrt(2 * std::numbers::pi) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

double log_norm_mass(double a, double b) {
  if (a >= b) return -INFINITY;
  if (a >= 0) return log_norm_mass(-b, -a);  // symmetric: keep both in the lower tail
  const double lb = log_norm_cdf(b), la = log_norm_cdf(a);
  if (b <= 0) return lb + std::log1p(-std::exp(la - lb));
  // a < 0 < b: at least half of one side's mass, no cancellation to fear.
  return std::log(norm_cdf(b) - norm_cdf(a));
}

double log_h(double z) {
  if (z > -1) return std::log(norm_pdf(z) + z * norm_cdf(z));
  const double log_phi = -0.5 * z * z - 0.5 * std::log(2.0 * std::numbers::pi);
  if (z > -20) {
    // h = phi(z) (1 + z Phi(z)/phi(z)); the ratio from erfc is accurate here.
    const double mills = norm_cdf(z) / norm_pdf(z);
    return log_phi + std::log(1 + z * mills);
  }
  // 1 + z R(z) ~ w (1 - 3 w + 15 w^2 - 105 w^3 + 945 w^4 - 10395 w^5) with w = 1/z^2 (the
  // asymptotic series of the Mills ratio; the next term is below 1e-10 of the sum here).
  const double w = 1.0 / (z * z);
  return log_phi + std::log(w * (1 + w * (-3 + w * (15 + w * (-105 + w * (945 - 10395 * w))))));
}

Axis axis_of(const Dimension& d) {
  Axis a;
  a.integer = d.kind == "int";
  a.log = d.prior == "log-uniform" && d.lo > 0;
  a.ext_lo = d.lo;
  a.ext_hi = d.hi;
  double lo = d.lo, hi = d.hi;
  if (a.integer) {
    lo -= 0.5;
    hi += 0.5;
    if (a.log && lo <= 0) lo = d.lo * 0.5;  // keep the log defined for lo = 1 (Optuna's low - step/2 = 0.5)
  }
  a.lo = a.log ? std::log(lo) : lo;
  a.hi = a.log ? std::log(hi) : hi;
  return a;
}

double to_internal(const Axis& a, double value) { return a.log ? std::log(value) : value; }

double to_external(const Axis& a, double u) {
  double v = a.log ? std::exp(u) : u;
  if (a.integer) v = std::round(v);
  return std::clamp(v, a.ext_lo, a.ext_hi);
}

std::vector<double> random_point(const std::vector<Axis>& axes, Rng& rng) {
  std::vector<double> x;
  x.reserve(axes.size());
  for (const auto& a : axes) x.push_back(to_external(a, rng.uniform(a.lo, a.hi)));
  return x;
}

}  // namespace aiperf::cli::search::bo
