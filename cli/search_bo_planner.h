// The Bayesian-optimization planners of AIPerf 0.13, natively: `--search-planner optuna`
// (OptunaSearchPlanner) and `--search-planner bayesian` (its curated preset), over one or more
// --search-space dimensions.
//
// Sampler (--optuna-sampler): tpe (search_tpe.h), gp (search_gp.h, log EI), botorch (the GP with
// noisy log EI for qnei/qlognei, the default acquisition, or log EI for logei/qlogei). The
// `bayesian` planner is botorch with qlognei. AIPerf without BoTorch installed falls back to TPE
// for `bayesian`; ours needs no BoTorch, so it always runs the GP.
//
// As the reference: the first --search-initial-points trials are uniform random (log-uniform on
// log-prior axes); each iteration's objective is the mean over successful trials of
// stat(metric) (or with --search-percentile-pooling pooled, the percentile of all trials'
// per-request values from profile_export.jsonl); an iteration with no objective is told a value
// worse than any seen (worst - max(10 %, 1), or -/+1e6 first); each SLA filter is a constraint
// whose violation is observed - threshold (lt/le) or threshold - observed (gt/ge), 1e6 when
// unmeasured (which also makes the iteration infeasible). The search stops at max_iterations,
// after improvement_patience (10) iterations without a better objective, when the last
// plateau_window (8) objectives vary by less than plateau_threshold (1 %, sample CV), or when the
// --optuna-terminator fires (regret: Makarova et al.'s regret bound under the trial-to-trial
// error of the best point; emmr: never, as in the reference, whose error estimate needs
// cross-validation scores nobody reports). Deterministic under --search-random-seed.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "search_bo_math.h"
#include "search_planner.h"

namespace aiperf::cli::search {

class BoPlanner : public Planner {
 public:
  // Throws SearchError for an unknown sampler or acquisition.
  explicit BoPlanner(const Spec& spec);
  // 1-D: the value; N-D: an object path -> value.
  std::optional<nlohmann::json> ask() override;
  void tell(const Trials& results) override;
  const std::string& convergence_reason() const override { return reason_; }
  const std::vector<Iteration>& history() const override { return history_; }
  // 1-D only: the highest feasible and lowest infeasible value seen (null for N-D).
  nlohmann::ordered_json boundary_summary() const override;
  const std::string& sampler() const { return sampler_; }

 private:
  bool converged();
  std::optional<double> objective_of(const Trials& results) const;

  Spec spec_;
  std::string sampler_;  // tpe | gp | botorch
  bool noisy_ = false;   // botorch with a noisy acquisition
  std::vector<bo::Axis> axes_;
  bo::Rng rng_;
  std::vector<bo::Observation> observations_;
  std::optional<std::vector<double>> pending_;
  std::optional<double> best_loss_;
  int since_improvement_ = 0;
  std::string reason_;
  std::vector<Iteration> history_;
};

// The percentile (p50/p90/p95/p99) of `metric` over every successful trial's per-request values
// in its profile_export.jsonl (numpy's linear interpolation); nullopt when a trial has no such
// file or no value was found.
std::optional<double> pooled_percentile(const Trials& results, const std::string& metric, const std::string& stat);

// Makarova et al.'s regret bound of a maximization from (unit-scaled points, values): the GP
// (fitted on the top half of the values, at least 20) upper bound's maximum minus the best lower
// bound at the observed points, in the values' unit.
double regret_bound(const std::vector<std::vector<double>>& x, const std::vector<double>& values, bo::Rng& rng);

}  // namespace aiperf::cli::search
