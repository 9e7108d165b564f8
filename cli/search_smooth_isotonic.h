// smooth_isotonic (AIPerf 0.13's SmoothIsotonicSLAPlanner): the monotonic bracket (doubling
// from lo until an SLA filter fails), then per-filter signed margins (value - threshold for
// lt/le, threshold - value for gt/ge; negative = passing) are denoised by isotonic regression
// and interpolated by PCHIP; the binding filter's zero is the candidate boundary. Phases:
//   bracket       as monotonic_sla, one verdict per value (no stability window)
//   fit           3 evenly spaced probes inside the bracket, then fit + root (bisection midpoint
//                 when the curve has no zero); up to 3 refits with 2 more probes each while the
//                 fit has fewer than 4 points or 3 distinct levels
//   cliff_bisect  when the last margin is > 3 local sigmas off the fit and the bracket is wider
//                 than 5% of hi: plain bisection (boundary_type "cliff")
//   replicate     when the margin at the largest value was measured twice or more: the
//                 candidate is re-probed 3-20 times and a bootstrap CI of its margin decides
// Stops when the bracket is within 5% of infeasible_min (or adjacent). Reasons:
// smooth_isotonic_{precision_reached,cliff_precision_reached,no_pass_in_range,
// no_failure_in_range,pchip_fallback_bisection}, max_iterations.
#pragma once
#include <deque>
#include <map>

#include "search_planner.h"

namespace aiperf::cli::search {

class SmoothIsotonicPlanner : public Planner {
 public:
  // Throws SearchError unless the spec has one int dimension and a filter.
  explicit SmoothIsotonicPlanner(const Spec& spec, double precision = 0.05);
  std::optional<nlohmann::json> ask() override;
  void tell(const Trials& results) override;
  const std::string& convergence_reason() const override { return reason_; }
  const std::vector<Iteration>& history() const override { return history_; }
  nlohmann::ordered_json boundary_summary() const override;
  std::optional<long long> feasible_max() const { return feasible_max_; }
  std::optional<long long> infeasible_min() const { return infeasible_min_; }
  const std::string& phase() const { return phase_; }

 private:
  using Margins = std::map<std::string, double>;
  bool converged();
  void absorb(long long value, bool feasible, bool& non_monotonic);
  void plan_bracket(long long value, bool feasible);
  void queue_internal_probes(int count);
  void queue_refit_probes();
  void plan_fit();
  void plan_cliff_bisect();
  void plan_replicate();
  std::optional<long long> fit_and_solve();
  bool needs_more_fit_data() const;
  void enter_replicate_or_terminate(long long candidate);
  std::optional<long long> cliff_midpoint() const;
  bool check_cliff() const;
  int replicate_budget() const;
  bool bracket_precision_reached() const;
  void finalize(const std::string& reason);
  std::vector<std::pair<double, double>> binding_points() const;  // (x, mean margin) where measured
  bool queued_or_probed(long long x) const;

  Spec spec_;
  double precision_;
  long long lo_, hi_;
  std::vector<std::string> keys_;  // "<i>:<metric>.<stat>.<op>.<threshold>", one per filter
  std::optional<long long> feasible_max_, infeasible_min_;
  std::map<long long, std::vector<Margins>> probes_;
  std::string phase_ = "bracket";
  long long next_;
  std::optional<long long> pending_;
  std::deque<long long> queue_;
  std::optional<long long> candidate_;
  int fit_count_ = 0;
  std::string reason_, boundary_type_, binding_;
  std::optional<double> ci_low_, ci_high_;
  std::vector<Iteration> history_;
};

// The 95% bootstrap interval of the mean of `margins` (10 000 resamples; ours: percentile
// method with a fixed seed, where SciPy uses BCa with a random one). One value: (v, v).
std::pair<double, double> bootstrap_mean_ci(const std::vector<double>& margins);

}  // namespace aiperf::cli::search
