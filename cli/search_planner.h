// The native search planners: pure logic that proposes the next point of a 1-D search and
// absorbs what the point's trials measured. The runner (search_run.h) turns a proposal into a
// trial process; tests drive a planner with a fake "point -> metrics" function.
//
// monotonic_sla (AIPerf 0.13's MonotonicSLASearchPlanner): exponential probe from lo (x2 per
// step, hi probed explicitly) until an SLA filter fails, then integer bisection of
// [feasible_max, infeasible_min] until the gap is 1 or under 5% of infeasible_min. A value's
// verdict latches after `stability_trials` (2) agreeing iterations at it, so each value is
// asked until then. Reasons: monotonic_precision_reached, monotonic_no_failure_in_range,
// monotonic_no_pass_in_range, max_iterations.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "export/run_aggregate.h"
#include "search_spec.h"

namespace aiperf::cli::search {

using Trials = std::vector<exporting::TrialResult>;

// One asked-and-told point (search_history.json "iterations").
struct Iteration {
  int index = 0;
  nlohmann::ordered_json values;  // path -> value
  std::optional<double> objective;
  bool feasible = false;
  bool non_monotonic_warning = false;
  Trials results;
};

// stat(metric) of one successful trial, when present and finite.
std::optional<double> trial_value(const exporting::TrialResult& t, const std::string& metric, const std::string& stat);
// The filter holds on the trial (missing or non-finite: it does not; lt/gt strict).
bool trial_satisfies(const exporting::TrialResult& t, const SlaFilter& f);
// At least one successful trial satisfies every filter (no filters: feasible).
bool feasible(const Trials& results, const std::vector<SlaFilter>& filters);
// The mean of stat(metric) over the successful trials that have it.
std::optional<double> averaged(const Trials& results, const std::string& metric, const std::string& stat);
// The first filter no successful trial satisfies, with the mean "observed" value (null when
// unmeasured); null when every filter is satisfied.
nlohmann::ordered_json first_breach(const Trials& results, const std::vector<SlaFilter>& filters);

// The history entry of `value` measured as `results`: its index is the history's length, its
// verdict whether some trial meets every SLA filter, its objective the trials' mean.
Iteration measured(const Spec& spec, const std::vector<Iteration>& history, long long value, const Trials& results);

// The bracket {"swept_dim_path", "feasible_max": {value, iteration_idx, objective_value} | null,
// "infeasible_min": {value, iteration_idx, first_breach} | null} of a 1-D search, each bound
// described by the latest iteration at its value whose verdict agrees; null before any verdict.
nlohmann::ordered_json bracket_summary(const Spec& spec, const std::vector<Iteration>& history,
                                       std::optional<long long> feasible_max, std::optional<long long> infeasible_min);

class Planner {
 public:
  virtual ~Planner() = default;
  // The next value of the single dimension (int for kind int), nullopt once converged.
  virtual std::optional<nlohmann::json> ask() = 0;
  // What the trials of the last asked value measured.
  virtual void tell(const Trials& results) = 0;
  virtual const std::string& convergence_reason() const = 0;  // "" while running
  virtual const std::vector<Iteration>& history() const = 0;
  // {"swept_dim_path", "feasible_max": {value, iteration_idx, objective_value} | null,
  //  "infeasible_min": {value, iteration_idx, first_breach} | null}, or null before any verdict.
  virtual nlohmann::ordered_json boundary_summary() const = 0;
};

class MonotonicSlaPlanner : public Planner {
 public:
  // Throws SearchError unless the spec has one int dimension, one objective and a filter.
  explicit MonotonicSlaPlanner(const Spec& spec, double precision = 0.05);
  std::optional<nlohmann::json> ask() override;
  void tell(const Trials& results) override;
  const std::string& convergence_reason() const override { return reason_; }
  const std::vector<Iteration>& history() const override { return history_; }
  nlohmann::ordered_json boundary_summary() const override;
  std::optional<long long> feasible_max() const { return feasible_max_; }
  std::optional<long long> infeasible_min() const { return infeasible_min_; }

 private:
  bool absorb(long long value, bool verdict);
  void plan_probe(long long value, bool verdict);
  void plan_bisect();
  bool converged();

  Spec spec_;
  double precision_;
  long long lo_, hi_;
  std::optional<long long> feasible_max_, infeasible_min_;
  std::map<long long, std::pair<int, int>> logs_;  // value -> (passes, fails)
  bool bisecting_ = false;
  long long next_;
  std::optional<long long> pending_;
  std::string reason_;
  std::vector<Iteration> history_;
};

// The planner the spec names (monotonic_sla, smooth_isotonic: search_smooth_isotonic.h; bayesian,
// optuna: search_bo_planner.h), or with two or more tiers the multi-tier planner whatever it
// names (search_multi_tier.h); throws SearchError for the planners' own refusals.
std::unique_ptr<Planner> make_planner(const Spec& spec);

// The best iteration (search_history.json "best_trials"): feasible ones first, then by the
// objective in its direction; null when nothing was scored.
nlohmann::ordered_json best_trials(const Spec& spec, const std::vector<Iteration>& history);

// The whole search_history.json document.
nlohmann::ordered_json history_json(const Spec& spec, const Planner& planner, const std::string& reason);

}  // namespace aiperf::cli::search
