#include "search_isotonic_fit.h"

#include <cmath>
#include <stdexcept>

namespace aiperf::cli::search {
namespace {

int sign(double v) { return (v > 0) - (v < 0); }

// SciPy's one-sided three-point end derivative, kept shape-preserving.
double edge(double h0, double h1, double m0, double m1) {
  double d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1);
  if (sign(d) != sign(m0)) d = 0;
  else if (sign(m0) != sign(m1) && std::fabs(d) > 3 * std::fabs(m0)) d = 3 * m0;
  return d;
}

}  // namespace

std::vector<double> isotonic_increasing(const std::vector<double>& ys) {
  // Blocks of (mean, count); merge backwards while a block's mean is below its predecessor's.
  std::vector<double> mean;
  std::vector<size_t> count;
  for (double y : ys) {
    mean.push_back(y);
    count.push_back(1);
    while (mean.size() > 1 && mean[mean.size() - 2] > mean.back()) {
      const size_t n = count.back() + count[count.size() - 2];
      const double m = (mean.back() * static_cast<double>(count.back()) +
                        mean[mean.size() - 2] * static_cast<double>(count[count.size() - 2])) /
                       static_cast<double>(n);
      mean.pop_back();
      count.pop_back();
      mean.back() = m;
      count.back() = n;
    }
  }
  std::vector<double> out;
  for (size_t b = 0; b < mean.size(); ++b) out.insert(out.end(), count[b], mean[b]);
  return out;
}

Pchip::Pchip(std::vector<double> xs, std::vector<double> ys) : xs_(std::move(xs)), ys_(std::move(ys)) {
  const size_t n = xs_.size();
  if (n < 2 || ys_.size() != n) throw std::invalid_argument("Pchip needs at least two points");
  std::vector<double> h(n - 1), m(n - 1);
  for (size_t k = 0; k + 1 < n; ++k) {
    h[k] = xs_[k + 1] - xs_[k];
    m[k] = (ys_[k + 1] - ys_[k]) / h[k];
  }
  d_.assign(n, 0.0);
  if (n == 2) {
    d_[0] = d_[1] = m[0];
    return;
  }
  for (size_t k = 1; k + 1 < n; ++k) {
    if (sign(m[k - 1]) != sign(m[k]) || m[k - 1] == 0 || m[k] == 0) continue;  // a local extremum: flat
    const double w1 = 2 * h[k] + h[k - 1], w2 = h[k] + 2 * h[k - 1];
    d_[k] = (w1 + w2) / (w1 / m[k - 1] + w2 / m[k]);  // weighted harmonic mean
  }
  d_[0] = edge(h[0], h[1], m[0], m[1]);
  d_[n - 1] = edge(h[n - 2], h[n - 3], m[n - 2], m[n - 3]);
}

double Pchip::operator()(double x) const {
  size_t k = 0;
  while (k + 2 < xs_.size() && x > xs_[k + 1]) ++k;
  const double h = xs_[k + 1] - xs_[k], t = (x - xs_[k]) / h;
  const double t2 = t * t, t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * ys_[k] + (t3 - 2 * t2 + t) * h * d_[k] + (-2 * t3 + 3 * t2) * ys_[k + 1] +
         (t3 - t2) * h * d_[k + 1];
}

std::optional<double> Pchip::root_in(double lo, double hi) const {
  // The fitted values increase strictly, so the curve is monotone: one sign change at most.
  for (size_t k = 0; k + 1 < xs_.size(); ++k) {
    double a = xs_[k], b = xs_[k + 1];
    double fa = (*this)(a), fb = (*this)(b);
    if (fa == 0) return a >= lo && a <= hi ? std::optional<double>(a) : std::nullopt;
    if (sign(fa) == sign(fb)) continue;
    for (int i = 0; i < 200 && b - a > 1e-12 * std::max(1.0, std::fabs(a)); ++i) {
      const double mid = 0.5 * (a + b), fm = (*this)(mid);
      if (fm == 0) {
        a = b = mid;
        break;
      }
      if (sign(fm) == sign(fa)) {
        a = mid;
        fa = fm;
      } else {
        b = mid;
      }
    }
    const double r = 0.5 * (a + b);
    return r >= lo && r <= hi ? std::optional<double>(r) : std::nullopt;
  }
  const double last = xs_.back();
  if ((*this)(last) == 0 && last >= lo && last <= hi) return last;
  return std::nullopt;
}

Pchip smooth_isotonic_fit(const std::vector<double>& xs, const std::vector<double>& ys) {
  std::vector<double> fit = isotonic_increasing(ys);
  const double span = fit.back() - fit.front();
  const double eps = span > 0 ? 1e-9 * span : 1e-9;
  for (size_t i = 0; i < fit.size(); ++i) fit[i] += static_cast<double>(i) * eps;
  return Pchip(xs, fit);
}

}  // namespace aiperf::cli::search
