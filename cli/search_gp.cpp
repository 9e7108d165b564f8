#include "search_gp.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <numeric>
#include <optional>

namespace aiperf::cli::search::bo {
namespace {

constexpr double kMinNoise = 1e-6;
constexpr int kCandidates = 2048;
constexpr int kLocalStarts = 5;

double matern52(const GpModel& m, const std::vector<double>& a, const std::vector<double>& b) {
  double r2 = 0;
  for (size_t i = 0; i < a.size(); ++i) r2 += m.inv_ls2[i] * (a[i] - b[i]) * (a[i] - b[i]);
  const double r = std::sqrt(5.0 * r2);
  return m.scale * (1 + r + r * r / 3.0) * std::exp(-r);
}

// Minimises f with Nelder-Mead from x0 (simplex steps `step`), at most `evals` evaluations.
std::vector<double> nelder_mead(const std::function<double(const std::vector<double>&)>& f,
                                const std::vector<double>& x0, double step, int evals) {
  const size_t n = x0.size();
  std::vector<std::vector<double>> p(n + 1, x0);
  std::vector<double> v(n + 1);
  for (size_t i = 0; i < n; ++i) p[i + 1][i] += step;
  for (size_t i = 0; i <= n; ++i) v[i] = f(p[i]);
  int used = static_cast<int>(n + 1);
  std::vector<size_t> order(n + 1);
  while (used < evals) {
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t l, size_t r) { return v[l] < v[r]; });
    const size_t best = order[0], worst = order[n], second = order[n - 1];
    if (std::abs(v[worst] - v[best]) < 1e-9 * (1 + std::abs(v[best]))) break;
    std::vector<double> c(n, 0);
    for (size_t i = 0; i <= n; ++i)
      if (i != worst)
        for (size_t j = 0; j < n; ++j) c[j] += p[i][j] / static_cast<double>(n);
    auto along = [&](double t) {
      std::vector<double> x(n);
      for (size_t j = 0; j < n; ++j) x[j] = c[j] + t * (p[worst][j] - c[j]);
      return x;
    };
    const auto xr = along(-1);
    const double fr = f(xr);
    ++used;
    if (fr < v[best]) {
      const auto xe = along(-2);
      const double fe = f(xe);
      ++used;
      if (fe < fr) p[worst] = xe, v[worst] = fe;
      else p[worst] = xr, v[worst] = fr;
    } else if (fr < v[second]) {
      p[worst] = xr, v[worst] = fr;
    } else {
      const auto xc = along(fr < v[worst] ? -0.5 : 0.5);
      const double fc = f(xc);
      ++used;
      if (fc < std::min(fr, v[worst])) {
        p[worst] = xc, v[worst] = fc;
      } else {  // shrink toward the best
        for (size_t i = 0; i <= n; ++i) {
          if (i == best) continue;
          for (size_t j = 0; j < n; ++j) p[i][j] = p[best][j] + 0.5 * (p[i][j] - p[best][j]);
          v[i] = f(p[i]);
          ++used;
        }
      }
    }
  }
  return p[static_cast<size_t>(std::min_element(v.begin(), v.end()) - v.begin())];
}

// A GP over (x, y) with y standardized here; mean/std kept to map thresholds.
struct Fitted {
  GpModel gp;
  double mean = 0, std = 1;
};

Fitted fit_standardized(const std::vector<std::vector<double>>& x, const std::vector<double>& raw) {
  Fitted f;
  const double n = static_cast<double>(raw.size());
  f.mean = std::accumulate(raw.begin(), raw.end(), 0.0) / n;
  double var = 0;
  for (double v : raw) var += (v - f.mean) * (v - f.mean);
  f.std = std::max(1e-10, std::sqrt(var / n));
  std::vector<double> y;
  y.reserve(raw.size());
  for (double v : raw) y.push_back((v - f.mean) / f.std);
  f.gp = gp_fit(x, y);
  return f;
}

}  // namespace

double gp_log_posterior(GpModel& m) {
  const size_t n = m.x.size();
  std::vector<double>& L = m.chol;
  L.assign(n * n, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j <= i; ++j) {
      double s = matern52(m, m.x[i], m.x[j]) + (i == j ? m.noise : 0);
      for (size_t k = 0; k < j; ++k) s -= L[i * n + k] * L[j * n + k];
      if (i == j) {
        if (s <= 0) return -INFINITY;
        L[i * n + i] = std::sqrt(s);
      } else {
        L[i * n + j] = s / L[j * n + j];
      }
    }
  // alpha = L^-T L^-1 y
  std::vector<double> z(n);
  for (size_t i = 0; i < n; ++i) {
    double s = m.y[i];
    for (size_t k = 0; k < i; ++k) s -= L[i * n + k] * z[k];
    z[i] = s / L[i * n + i];
  }
  m.alpha.assign(n, 0);
  for (size_t ii = n; ii-- > 0;) {
    double s = z[ii];
    for (size_t k = ii + 1; k < n; ++k) s -= L[k * n + ii] * m.alpha[k];
    m.alpha[ii] = s / L[ii * n + ii];
  }
  double lml = 0;
  for (size_t i = 0; i < n; ++i) lml += -0.5 * z[i] * z[i] - std::log(L[i * n + i]);
  lml -= 0.5 * static_cast<double>(n) * std::log(2 * std::numbers::pi);
  double prior = 0;
  for (double l : m.inv_ls2) prior -= 0.1 / l + 0.1 * l;
  prior += (2.0 - 1.0) * std::log(m.scale) - m.scale;
  prior += (1.1 - 1.0) * std::log(m.noise) - 30.0 * m.noise;
  return lml + prior;
}

GpModel gp_fit(const std::vector<std::vector<double>>& x, const std::vector<double>& y) {
  GpModel m;
  m.x = x;
  m.y = y;
  const size_t d = x.empty() ? 0 : x[0].size();
  auto apply = [&](GpModel& g, const std::vector<double>& t) {
    for (size_t i = 0; i < d; ++i) g.inv_ls2[i] = std::exp(std::clamp(t[i], -20.0, 20.0));
    g.scale = std::exp(std::clamp(t[d], -20.0, 20.0));
    g.noise = kMinNoise + std::exp(std::clamp(t[d + 1], -30.0, 5.0));
  };
  m.inv_ls2.assign(d, 1.0);
  auto objective = [&](const std::vector<double>& t) {
    GpModel g = m;
    apply(g, t);
    const double lp = gp_log_posterior(g);
    return std::isfinite(lp) ? -lp : 1e300;
  };
  std::vector<double> t0(d + 2, 0.0);
  t0[d + 1] = std::log(1e-2);
  const auto best = nelder_mead(objective, t0, 1.0, 120 * static_cast<int>(d + 2));
  apply(m, best);
  if (!std::isfinite(gp_log_posterior(m))) {  // degenerate data: fall back to the start
    apply(m, t0);
    gp_log_posterior(m);
  }
  return m;
}

std::pair<double, double> gp_predict(const GpModel& m, const std::vector<double>& t) {
  const size_t n = m.x.size();
  std::vector<double> k(n);
  for (size_t i = 0; i < n; ++i) k[i] = matern52(m, t, m.x[i]);
  double mean = 0;
  for (size_t i = 0; i < n; ++i) mean += k[i] * m.alpha[i];
  // v = L^-1 k; var = k(t, t) - v.v
  double vv = 0;
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) {
    double s = k[i];
    for (size_t j = 0; j < i; ++j) s -= m.chol[i * n + j] * v[j];
    v[i] = s / m.chol[i * n + i];
    vv += v[i] * v[i];
  }
  return {mean, std::max(m.scale - vv, 1e-12)};
}

std::vector<double> gp_propose(const std::vector<Axis>& axes, const std::vector<Observation>& obs, Acquisition acq,
                               Rng& rng) {
  const size_t d = axes.size(), n = obs.size();
  std::vector<std::vector<double>> x(n, std::vector<double>(d));
  for (size_t i = 0; i < n; ++i)
    for (size_t a = 0; a < d; ++a) x[i][a] = to_unit(axes[a], to_internal(axes[a], obs[i].x[a]));
  std::vector<double> gain(n);
  for (size_t i = 0; i < n; ++i) gain[i] = -obs[i].loss;  // the GP maximizes
  const Fitted objective = fit_standardized(x, gain);
  const size_t n_constraints = obs.front().constraints.size();
  std::vector<Fitted> constraints;
  for (size_t c = 0; c < n_constraints; ++c) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = obs[i].constraints[c];
    constraints.push_back(fit_standardized(x, v));
  }
  // The incumbent: the best feasible observation (its posterior mean for the noisy variant).
  std::optional<double> incumbent;
  for (size_t i = 0; i < n; ++i) {
    if (obs[i].violation > 0) continue;
    const double v = acq == Acquisition::kNoisyLogEi ? gp_predict(objective.gp, x[i]).first : objective.gp.y[i];
    if (!incumbent || v > *incumbent) incumbent = v;
  }
  auto score = [&](const std::vector<double>& t) {
    double s = 0;
    if (incumbent) {
      const auto [mu, var] = gp_predict(objective.gp, t);
      const double sd = std::sqrt(var);
      s += std::log(sd) + log_h((mu - *incumbent) / sd);
    }
    for (const auto& c : constraints) {
      const auto [mu, var] = gp_predict(c.gp, t);
      s += log_norm_cdf(((0.0 - c.mean) / c.std - mu) / std::sqrt(var));
    }
    return s;
  };
  std::vector<std::pair<double, std::vector<double>>> cands;
  cands.reserve(kCandidates);
  for (int i = 0; i < kCandidates; ++i) {
    std::vector<double> t(d);
    for (auto& v : t) v = rng.uniform();
    const double s = score(t);
    cands.emplace_back(s, std::move(t));
  }
  std::partial_sort(cands.begin(), cands.begin() + kLocalStarts, cands.end(),
                    [](const auto& l, const auto& r) { return l.first > r.first; });
  // Pattern search (coordinate steps, halved when no step helps) from the best candidates.
  std::pair<double, std::vector<double>> best = cands.front();
  for (int s = 0; s < kLocalStarts; ++s) {
    auto cur = cands[static_cast<size_t>(s)];
    for (double step = 0.05; step > 1e-4;) {
      bool moved = false;
      for (size_t a = 0; a < d; ++a)
        for (double dir : {-1.0, 1.0}) {
          auto t = cur.second;
          t[a] = std::clamp(t[a] + dir * step, 0.0, 1.0);
          const double v = score(t);
          if (v > cur.first) cur = {v, std::move(t)}, moved = true;
        }
      if (!moved) step /= 2;
    }
    if (cur.first > best.first) best = cur;
  }
  std::vector<double> out(d);
  for (size_t a = 0; a < d; ++a) out[a] = to_external(axes[a], from_unit(axes[a], best.second[a]));
  return out;
}

}  // namespace aiperf::cli::search::bo
