// Gaussian-process Bayesian optimization, natively: what AIPerf 0.13 runs for
// `--optuna-sampler gp` (Optuna's GPSampler) and, with BoTorch installed, for the `bayesian`
// planner and `--optuna-sampler botorch` (qLogNEI). No torch, no BoTorch.
//   - Inputs scaled to [0, 1] per axis (log axes in log space, int axes widened by half a step),
//     the objective standardized.
//   - Matern-5/2 kernel with one length scale per axis (ARD), a signal scale and a noise variance
//     (at least 1e-6), fitted by maximising the log marginal likelihood plus Optuna's default log
//     prior (on each inverse squared length scale l: -(0.1/l + 0.1 l); Gamma(2, 1) on the scale;
//     Gamma(1.1, 30) on the noise), with Nelder-Mead in log space.
//   - Acquisition: log expected improvement over the best feasible observed value (kLogEi), or,
//     for noisy objectives, over the best posterior mean at the feasible observed points (kNoisyLogEi:
//     the plug-in form of noisy EI, which qLogNEI integrates by sampling); plus, per constraint,
//     the log probability that a GP fitted to its violations predicts it met (<= 0). Before any
//     feasible point the acquisition is that probability alone, so the search first looks for
//     the feasible region, as Optuna's constrained LogEI.
//   - Maximised over 2048 random points, then a pattern search from the best five.
#pragma once
#include <utility>
#include <vector>

#include "search_bo_math.h"

namespace aiperf::cli::search::bo {

struct GpModel {
  std::vector<std::vector<double>> x;  // inputs in [0, 1]^d
  std::vector<double> y;               // standardized targets
  std::vector<double> inv_ls2;         // one inverse squared length scale per axis
  double scale = 1, noise = 1e-2;
  std::vector<double> chol;   // lower Cholesky factor of K + noise I, row-major n x n
  std::vector<double> alpha;  // (K + noise I)^-1 y
};

// Log marginal likelihood plus the log prior, for the given hyperparameters (-inf if K is not
// positive definite); fills model.chol and model.alpha.
double gp_log_posterior(GpModel& model);
// Fits the hyperparameters of a GP to (x, y) (y standardized by the caller).
GpModel gp_fit(const std::vector<std::vector<double>>& x, const std::vector<double>& y);
// Posterior mean and variance of the latent function at t.
std::pair<double, double> gp_predict(const GpModel& model, const std::vector<double>& t);

enum class Acquisition { kLogEi, kNoisyLogEi };

// The next point to try (external values), from the told trials (at least one).
std::vector<double> gp_propose(const std::vector<Axis>& axes, const std::vector<Observation>& obs, Acquisition acq,
                               Rng& rng);

}  // namespace aiperf::cli::search::bo
