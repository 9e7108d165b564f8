#include "search_tpe.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

namespace aiperf::cli::search::bo {
namespace {

// A mixture of product kernels over the internal coordinates: mus[k][a], sigmas[k][a], weights[k].
struct Parzen {
  std::vector<std::vector<double>> mus, sigmas;
  std::vector<double> weights;
};

Parzen build(const std::vector<Axis>& axes, const std::vector<Observation>& obs, const std::vector<size_t>& pick) {
  const size_t n = pick.size(), d = axes.size();
  Parzen p;
  p.mus.assign(n + 1, std::vector<double>(d));
  p.sigmas.assign(n + 1, std::vector<double>(d));
  for (size_t a = 0; a < d; ++a) {
    const Axis& ax = axes[a];
    const double range = ax.hi - ax.lo;
    std::vector<double> mus(n);
    for (size_t i = 0; i < n; ++i) mus[i] = to_internal(ax, obs[pick[i]].x[a]);
    // Width: the larger gap to the sorted neighbours (the range's ends count as neighbours),
    // except that the outermost kernels look only inward (consider_endpoints off).
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t l, size_t r) { return mus[l] < mus[r]; });
    std::vector<double> ends(n + 2);
    ends[0] = ax.lo;
    ends[n + 1] = ax.hi;
    for (size_t i = 0; i < n; ++i) ends[i + 1] = mus[order[i]];
    std::vector<double> sorted_sigma(n);
    for (size_t i = 0; i < n; ++i) sorted_sigma[i] = std::max(ends[i + 1] - ends[i], ends[i + 2] - ends[i + 1]);
    if (n >= 2) {
      sorted_sigma[0] = ends[2] - ends[1];
      sorted_sigma[n - 1] = ends[n] - ends[n - 1];
    }
    const double min_sigma = range / std::min(100.0, 1.0 + static_cast<double>(n + 1));
    for (size_t i = 0; i < n; ++i) {
      p.mus[order[i]][a] = mus[order[i]];
      p.sigmas[order[i]][a] = std::clamp(sorted_sigma[i], min_sigma, range);
    }
    p.mus[n][a] = 0.5 * (ax.lo + ax.hi);  // the prior kernel
    p.sigmas[n][a] = range;
  }
  p.weights = tpe_weights(n);
  p.weights.push_back(1.0);  // prior weight
  const double total = std::accumulate(p.weights.begin(), p.weights.end(), 0.0);
  for (double& w : p.weights) w /= total;
  return p;
}

// log density (continuous axes) or log mass (int axes) of value x under one kernel on one axis,
// truncated to the axis.
double kernel_log(const Axis& ax, double mu, double sigma, double x) {
  const double norm = log_norm_mass((ax.lo - mu) / sigma, (ax.hi - mu) / sigma);
  if (ax.integer) {
    const double left = x - 0.5 <= 0 && ax.log ? ax.lo : std::max(ax.lo, to_internal(ax, x - 0.5));
    const double right = std::min(ax.hi, to_internal(ax, x + 0.5));
    return log_norm_mass((left - mu) / sigma, (right - mu) / sigma) - norm;
  }
  const double z = (to_internal(ax, x) - mu) / sigma;
  return -0.5 * z * z - 0.5 * std::log(2 * std::numbers::pi) - std::log(sigma) - norm;
}

double log_pdf(const std::vector<Axis>& axes, const Parzen& p, const std::vector<double>& x) {
  std::vector<double> terms(p.weights.size());
  double top = -INFINITY;
  for (size_t k = 0; k < p.weights.size(); ++k) {
    double t = std::log(p.weights[k]);
    for (size_t a = 0; a < axes.size(); ++a) t += kernel_log(axes[a], p.mus[k][a], p.sigmas[k][a], x[a]);
    terms[k] = t;
    top = std::max(top, t);
  }
  if (!std::isfinite(top)) return top;
  double sum = 0;
  for (double t : terms) sum += std::exp(t - top);
  return top + std::log(sum);
}

std::vector<double> sample(const std::vector<Axis>& axes, const Parzen& p, Rng& rng) {
  const size_t k = rng.pick(p.weights);
  std::vector<double> x(axes.size());
  for (size_t a = 0; a < axes.size(); ++a) {
    const Axis& ax = axes[a];
    const double mu = p.mus[k][a], sigma = p.sigmas[k][a];
    const double pa = norm_cdf((ax.lo - mu) / sigma), pb = norm_cdf((ax.hi - mu) / sigma);
    double u;
    if (pb - pa < 1e-12) {
      u = rng.uniform(ax.lo, ax.hi);  // a kernel far outside the axis (cannot happen for in-range centres)
    } else {
      u = mu + sigma * norm_ppf(pa + (pb - pa) * rng.uniform());
      u = std::clamp(u, ax.lo, ax.hi);
    }
    x[a] = to_external(ax, u);
  }
  return x;
}

std::vector<size_t> complement(size_t n, const std::vector<size_t>& below) {
  std::vector<size_t> out;
  for (size_t i = 0; i < n; ++i)
    if (!std::binary_search(below.begin(), below.end(), i)) out.push_back(i);
  return out;
}

}  // namespace

int tpe_gamma(size_t n) { return std::min(static_cast<int>(std::ceil(0.1 * static_cast<double>(n))), 25); }

std::vector<double> tpe_weights(size_t n) {
  if (n < 25) return std::vector<double>(n, 1.0);
  std::vector<double> w(n, 1.0);
  const size_t ramp = n - 25;
  // numpy.linspace(1/n, 1, ramp): evenly from 1/n to 1, both included.
  for (size_t i = 0; i < ramp; ++i)
    w[i] = ramp == 1 ? 1.0 / static_cast<double>(n)
                     : 1.0 / static_cast<double>(n) + (1.0 - 1.0 / static_cast<double>(n)) * static_cast<double>(i) /
                                                          static_cast<double>(ramp - 1);
  return w;
}

std::vector<size_t> tpe_split_below(const std::vector<Observation>& obs) {
  size_t n_below = static_cast<size_t>(tpe_gamma(obs.size()));
  std::vector<size_t> feasible, infeasible;
  for (size_t i = 0; i < obs.size(); ++i) (obs[i].violation > 0 ? infeasible : feasible).push_back(i);
  std::stable_sort(feasible.begin(), feasible.end(), [&](size_t l, size_t r) { return obs[l].loss < obs[r].loss; });
  std::stable_sort(infeasible.begin(), infeasible.end(),
                   [&](size_t l, size_t r) { return obs[l].violation < obs[r].violation; });
  std::vector<size_t> below;
  for (size_t i = 0; i < feasible.size() && below.size() < n_below; ++i) below.push_back(feasible[i]);
  for (size_t i = 0; i < infeasible.size() && below.size() < n_below; ++i) below.push_back(infeasible[i]);
  std::sort(below.begin(), below.end());  // trial order (the weights' ramp favours recent trials)
  return below;
}

double tpe_score(const std::vector<Axis>& axes, const std::vector<Observation>& obs, const std::vector<double>& x) {
  const auto below = tpe_split_below(obs);
  const Parzen l = build(axes, obs, below), g = build(axes, obs, complement(obs.size(), below));
  return log_pdf(axes, l, x) - log_pdf(axes, g, x);
}

std::vector<double> tpe_propose(const std::vector<Axis>& axes, const std::vector<Observation>& obs, Rng& rng) {
  const auto below = tpe_split_below(obs);
  const Parzen l = build(axes, obs, below), g = build(axes, obs, complement(obs.size(), below));
  std::vector<double> best;
  double best_score = -INFINITY;
  for (int i = 0; i < kTpeCandidates; ++i) {
    std::vector<double> x = sample(axes, l, rng);
    const double score = log_pdf(axes, l, x) - log_pdf(axes, g, x);
    if (best.empty() || score > best_score) {  // the first of equals, as numpy.argmax
      best = std::move(x);
      best_score = score;
    }
  }
  return best;
}

}  // namespace aiperf::cli::search::bo
