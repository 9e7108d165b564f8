// The multi-tier SLO planner (AIPerf 0.13's MultiTierPlanner): two to ten --search-sla-tier
// tiers, each a set of SLA filters (plus every --search-sla filter), searched together on one
// int dimension, each tier getting its own boundary from shared probes. Whatever planner the
// search names, two or more tiers select this one, as in AIPerf.
//   bracket   from lo, double the value (hi probed explicitly) while every tier passes; the first
//             probe where some tier fails ends it (no tier passing there: every tier
//             no_pass_in_range); every tier passing at hi: every tier no_failure_in_range.
//   bisect    the midpoint of the widest open bracket [feasible_max, infeasible_min] over the
//             tiers not converged; a tier whose bracket lacks a bound gets 2 x feasible_max (or
//             infeasible_min / 2). A tier converges when its gap is 1 or under `precision` of
//             infeasible_min (multi_tier_precision_reached).
// One verdict per probe per tier (no stability window, no replicates). Tier ordering: when tier
// A's filters are the same metric/stat/op as B's with every threshold strictly harder, A is
// stricter than B; a pass of A raises B's feasible_max and a failure of B lowers A's
// infeasible_min, until evidence contradicts the ordering (that pair is then dropped).
// Reasons: multi_tier_all_converged, max_iterations. Pure; tests drive it with fake trials.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "search_planner.h"

namespace aiperf::cli::search {

// One tier's bracket (AIPerf's BracketState).
struct TierBracket {
  SloTier tier;
  std::optional<long long> feasible_max, infeasible_min;
  bool converged = false;
  std::string reason;                         // "" while searching
  nlohmann::ordered_json binding = nullptr;   // the first failing filter at infeasible_min
  int probe_count = 0;                        // probes this tier evaluated before converging
  bool non_monotonic = false;
};

// The (strict, lenient) tier index pairs where the first is strictly harder than the second.
std::vector<std::pair<size_t, size_t>> tier_ordering(const std::vector<SloTier>& tiers);

class MultiTierPlanner : public Planner {
 public:
  // Throws SearchError unless the spec has one int dimension and at least two tiers.
  explicit MultiTierPlanner(const Spec& spec, double precision = 0.05);
  std::optional<nlohmann::json> ask() override;
  void tell(const Trials& results) override;
  const std::string& convergence_reason() const override { return reason_; }
  const std::vector<Iteration>& history() const override { return history_; }
  // The most lenient tier's bracket (the highest feasible_max; the last tier when none passed):
  // {swept_dim_path, feasible_max {value, iteration_idx, objective_value null} | null,
  //  infeasible_min {value, iteration_idx, first_breach} | null, non_monotonic_warning,
  //  convergence_reason}.
  nlohmann::ordered_json boundary_summary() const override;

  // search_history.json "tier_results": per tier {label, boundary_concurrency,
  // convergence_status (converged | partial | no_pass_in_range | no_failure_in_range),
  // convergence_reason, binding_constraint, bracket_lower, bracket_upper (null when not above
  // bracket_lower), confidence_interval null, probe_count, boundary_metrics (the last probe at
  // the boundary: its first successful trial's finite stats per metric), filters}.
  nlohmann::ordered_json tier_results() const;
  // "tier_metadata": {actual_probe_count, tier_evaluation_count, ordering_detected, ordering_pairs}.
  nlohmann::ordered_json tier_metadata() const;
  const std::vector<TierBracket>& brackets() const { return brackets_; }
  // The last probe, as AIPerf logs it: "multi_tier probe@8: gold:PASS[8,?] | silver:FAIL[4,8] (1/2 tiers converged)".
  const std::string& progress() const { return progress_; }

 private:
  std::vector<SlaFilter> filters_of(const TierBracket& b) const;
  void update_bracket(TierBracket& b, long long value, bool feasible, const Trials& results);
  void propagate(size_t tier, long long value, bool feasible);
  void check_contradiction(size_t strict, size_t lenient);
  void check_bracket_convergence();
  void advance_bracket_phase(long long value, const std::vector<bool>& verdicts);
  std::optional<long long> select_widest();
  std::optional<long long> missing_bound_probe();
  bool converged();
  std::optional<int> first_iteration_at(std::optional<long long> value) const;
  std::string describe(long long value, const std::vector<bool>& verdicts) const;

  Spec spec_;
  double precision_;
  long long lo_, hi_;
  std::vector<TierBracket> brackets_;
  std::vector<std::pair<size_t, size_t>> ordering_;
  std::set<std::pair<size_t, size_t>> disabled_;
  std::map<long long, std::vector<Trials>> store_;  // every probe's trials, by value
  bool bisecting_ = false;
  long long next_;
  std::optional<long long> pending_;
  std::string reason_, progress_;
  std::vector<Iteration> history_;
};

}  // namespace aiperf::cli::search
