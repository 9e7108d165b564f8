// The Tree-structured Parzen Estimator, as Optuna's TPESampler (the sampler AIPerf 0.13's
// `--search-planner optuna --optuna-sampler tpe` runs, and what its `bayesian` planner falls back
// to without BoTorch), natively:
//   - the observed trials split into "below" (the best gamma(n) = min(ceil(0.1 n), 25): feasible
//     trials by loss first, then infeasible ones by their summed constraint violation) and "above";
//   - each side becomes a mixture with one product kernel per trial (a truncated normal per axis,
//     centred on the trial, its width the larger gap to its sorted neighbours, clipped to
//     [range / min(100, 1 + kernels), range]) plus a prior kernel (centre of the range, width the
//     range), weighted by Optuna's default weights (flat under 25 trials, then an older-trials ramp)
//     and prior weight 1;
//   - 24 candidates are drawn from the "below" mixture and the one with the largest
//     log l(x) - log g(x) (the expected-improvement ratio) is proposed.
// Int axes are discrete (each integer owns [k - 0.5, k + 0.5], probability mass per integer);
// log-uniform axes are modelled in log space. Pure and deterministic for a given Rng.
#pragma once
#include <vector>

#include "search_bo_math.h"

namespace aiperf::cli::search::bo {

constexpr int kTpeCandidates = 24;

int tpe_gamma(size_t n);                    // min(ceil(0.1 n), 25)
std::vector<double> tpe_weights(size_t n);  // Optuna's default_weights

// The indices of the "below" trials (ascending), as Optuna's split.
std::vector<size_t> tpe_split_below(const std::vector<Observation>& obs);

// The next point to try (external values).
std::vector<double> tpe_propose(const std::vector<Axis>& axes, const std::vector<Observation>& obs, Rng& rng);

// log l(x) - log g(x) at x (external values), for tests and diagnostics.
double tpe_score(const std::vector<Axis>& axes, const std::vector<Observation>& obs, const std::vector<double>& x);

}  // namespace aiperf::cli::search::bo
