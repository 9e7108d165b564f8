#include "search_planner.h"

#include <cmath>

#include "search_bo_planner.h"
#include "search_multi_tier.h"
#include "search_smooth_isotonic.h"

namespace aiperf::cli::search {

std::optional<double> trial_value(const exporting::TrialResult& t, const std::string& metric, const std::string& stat) {
  if (!t.success || !t.metrics.contains(metric)) return std::nullopt;
  const auto& m = t.metrics[metric];
  if (!m.is_object() || !m.contains(stat) || !m[stat].is_number()) return std::nullopt;
  const double v = m[stat].get<double>();
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

bool trial_satisfies(const exporting::TrialResult& t, const SlaFilter& f) {
  const auto v = trial_value(t, f.metric_tag, f.stat);
  if (!v) return false;
  if (f.op == "lt") return *v < f.threshold;
  if (f.op == "le") return *v <= f.threshold;
  if (f.op == "gt") return *v > f.threshold;
  return *v >= f.threshold;
}

bool feasible(const Trials& results, const std::vector<SlaFilter>& filters) {
  if (filters.empty()) return true;
  for (const auto& t : results) {
    if (!t.success) continue;
    bool all = true;
    for (const auto& f : filters) all = all && trial_satisfies(t, f);
    if (all) return true;
  }
  return false;
}

std::optional<double> averaged(const Trials& results, const std::string& metric, const std::string& stat) {
  double sum = 0;
  int n = 0;
  for (const auto& t : results)
    if (const auto v = trial_value(t, metric, stat)) {
      sum += *v;
      ++n;
    }
  if (n == 0) return std::nullopt;
  return sum / n;
}

nlohmann::ordered_json first_breach(const Trials& results, const std::vector<SlaFilter>& filters) {
  for (const auto& f : filters) {
    bool any = false;
    for (const auto& t : results) any = any || (t.success && trial_satisfies(t, f));
    if (any) continue;
    nlohmann::ordered_json out = filter_json(f);
    const auto observed = averaged(results, f.metric_tag, f.stat);
    out["observed"] = observed ? nlohmann::ordered_json(*observed) : nlohmann::ordered_json(nullptr);
    return out;
  }
  return nullptr;
}

MonotonicSlaPlanner::MonotonicSlaPlanner(const Spec& spec, double precision) : spec_(spec), precision_(precision) {
  if (spec.space.size() != 1)
    throw SearchError("monotonic_sla planner requires exactly one search-space dimension; got " +
                      std::to_string(spec.space.size()) +
                      ". For multi-dimensional search use the bayesian (BO) planner via `--search-planner bayesian` "
                      "— it handles multi-dim search spaces by GP-modeling the joint surface.");
  const Dimension& d = spec.space.front();
  if (d.kind != "int")
    throw SearchError("monotonic_sla planner v1 supports kind='int' dimensions only; got kind=" + py_repr(d.kind) +
                      " on path " + py_repr(d.path) + ". Use the bayesian planner for real-valued dimensions.");
  if (spec.sla_filters.empty())
    throw SearchError("monotonic_sla planner requires at least one SLA filter (sla_filters is empty). The planner has "
                      "no scoring without feasibility constraints; supply --search-sla / --ttft-sla-ms / etc. or use "
                      "the bayesian planner if you only have an objective metric.");
  lo_ = static_cast<long long>(d.lo);  // Python's int(): toward zero
  hi_ = static_cast<long long>(d.hi);
  next_ = lo_;
}

bool MonotonicSlaPlanner::converged() {
  if (!reason_.empty()) return true;
  if (static_cast<int>(history_.size()) >= spec_.max_iterations) {
    reason_ = "max_iterations";
    return true;
  }
  return false;
}

std::optional<nlohmann::json> MonotonicSlaPlanner::ask() {
  if (converged()) return std::nullopt;
  pending_ = next_;
  return nlohmann::json(next_);
}

void MonotonicSlaPlanner::tell(const Trials& results) {
  if (!pending_) throw std::logic_error("tell() called without matching ask()");
  const long long value = *pending_;
  pending_.reset();
  Iteration it = measured(spec_, history_, value, results);
  auto& log = logs_[value];
  (it.feasible ? log.first : log.second) += 1;
  std::optional<bool> verdict;
  if (log.first >= spec_.stability_trials) verdict = true;
  else if (log.second >= spec_.stability_trials) verdict = false;
  if (verdict) it.non_monotonic_warning = absorb(value, *verdict);
  if (!verdict) next_ = value;  // provisional: ask the same value again
  else if (!bisecting_) plan_probe(value, *verdict);
  else plan_bisect();
  history_.push_back(std::move(it));
}

bool MonotonicSlaPlanner::absorb(long long value, bool verdict) {
  bool non_monotonic = false;
  if (verdict) {
    if (infeasible_min_ && value >= *infeasible_min_) non_monotonic = true;
    if ((!feasible_max_ || value > *feasible_max_) && (!infeasible_min_ || value < *infeasible_min_))
      feasible_max_ = value;
  } else {
    if (feasible_max_ && value <= *feasible_max_) non_monotonic = true;
    if ((!infeasible_min_ || value < *infeasible_min_) && (!feasible_max_ || value > *feasible_max_))
      infeasible_min_ = value;
  }
  return non_monotonic;
}

void MonotonicSlaPlanner::plan_probe(long long value, bool verdict) {
  if (!verdict) {
    if (!feasible_max_) {
      reason_ = "monotonic_no_pass_in_range";
      return;
    }
    bisecting_ = true;
    plan_bisect();
    return;
  }
  const long long doubled = value * 2;
  if (doubled >= hi_) {
    if (value >= hi_) {
      feasible_max_ = hi_;
      reason_ = "monotonic_no_failure_in_range";
      return;
    }
    next_ = hi_;
    return;
  }
  next_ = doubled;
}

void MonotonicSlaPlanner::plan_bisect() {
  if (!feasible_max_ || !infeasible_min_) {
    reason_ = !feasible_max_ ? "monotonic_no_pass_in_range" : "monotonic_no_failure_in_range";
    return;
  }
  const long long gap = *infeasible_min_ - *feasible_max_;
  if (gap <= 1 || static_cast<double>(gap) / static_cast<double>(std::max(*infeasible_min_, 1LL)) < precision_) {
    reason_ = "monotonic_precision_reached";
    return;
  }
  long long mid = *feasible_max_ + gap / 2;
  if (mid <= *feasible_max_) mid = *feasible_max_ + 1;
  if (mid >= *infeasible_min_) mid = *infeasible_min_ - 1;
  next_ = mid;
}

Iteration measured(const Spec& spec, const std::vector<Iteration>& history, long long value, const Trials& results) {
  Iteration it;
  it.index = static_cast<int>(history.size());
  it.values[spec.space.front().path] = value;
  it.feasible = feasible(results, spec.sla_filters);
  it.objective = averaged(results, spec.metric, spec.stat);
  it.results = results;
  return it;
}

nlohmann::ordered_json bracket_summary(const Spec& spec, const std::vector<Iteration>& history,
                                       std::optional<long long> feasible_max, std::optional<long long> infeasible_min) {
  if (!feasible_max && !infeasible_min) return nullptr;
  const std::string& path = spec.space.front().path;
  auto latest = [&](long long value, bool want) -> const Iteration* {
    for (auto it = history.rbegin(); it != history.rend(); ++it)
      if (it->values.at(path) == value && it->feasible == want) return &*it;
    return nullptr;
  };
  nlohmann::ordered_json out{{"swept_dim_path", path}, {"feasible_max", nullptr}, {"infeasible_min", nullptr}};
  if (feasible_max)
    if (const Iteration* it = latest(*feasible_max, true))
      out["feasible_max"] = {{"value", *feasible_max},
                             {"iteration_idx", it->index},
                             {"objective_value", it->objective ? nlohmann::ordered_json(*it->objective)
                                                               : nlohmann::ordered_json(nullptr)}};
  if (infeasible_min)
    if (const Iteration* it = latest(*infeasible_min, false))
      out["infeasible_min"] = {{"value", *infeasible_min},
                               {"iteration_idx", it->index},
                               {"first_breach", first_breach(it->results, spec.sla_filters)}};
  return out;
}

nlohmann::ordered_json MonotonicSlaPlanner::boundary_summary() const {
  return bracket_summary(spec_, history_, feasible_max_, infeasible_min_);
}

std::unique_ptr<Planner> make_planner(const Spec& spec) {
  if (multi_tier(spec)) return std::make_unique<MultiTierPlanner>(spec, spec.precision);
  if (spec.planner == "monotonic_sla") return std::make_unique<MonotonicSlaPlanner>(spec, spec.precision);
  if (spec.planner == "smooth_isotonic") return std::make_unique<SmoothIsotonicPlanner>(spec, spec.precision);
  if (spec.planner == "bayesian" || spec.planner == "optuna") return std::make_unique<BoPlanner>(spec);
  throw SearchError("--search-planner " + spec.planner + ": unknown planner.");
}

nlohmann::ordered_json best_trials(const Spec& spec, const std::vector<Iteration>& history) {
  std::vector<const Iteration*> scored, feasible_ones;
  for (const auto& it : history)
    if (it.objective) {
      scored.push_back(&it);
      if (it.feasible) feasible_ones.push_back(&it);
    }
  const auto& pool = feasible_ones.empty() ? scored : feasible_ones;
  if (pool.empty()) return nullptr;
  const bool maximize = spec.direction == "maximize";
  const Iteration* best = pool.front();  // the first of equals, as Python's max()/min()
  for (const Iteration* it : pool)
    if (maximize ? *it->objective > *best->objective : *it->objective < *best->objective) best = it;
  return nlohmann::ordered_json::array({{{"iteration_idx", best->index},
                                         {"objective_values", {*best->objective}},
                                         {"variation_values", best->values},
                                         {"feasible", best->feasible},
                                         {"feasible_count", feasible_ones.size()},
                                         {"pareto_rank", 0}}});
}

nlohmann::ordered_json history_json(const Spec& spec, const Planner& planner, const std::string& reason) {
  nlohmann::ordered_json doc;
  doc["config"] = config_json(spec);
  auto& iterations = doc["iterations"] = nlohmann::ordered_json::array();
  for (const auto& it : planner.history())
    iterations.push_back({{"iteration_idx", it.index},
                          {"variation_values", it.values},
                          {"objective_values", it.objective ? nlohmann::ordered_json::array({*it.objective})
                                                            : nlohmann::ordered_json(nullptr)},
                          {"feasible", it.feasible},
                          {"non_monotonic_warning", it.non_monotonic_warning}});
  doc["best_trials"] = best_trials(spec, planner.history());
  doc["boundary_summary"] = planner.history().empty() ? nlohmann::ordered_json(nullptr) : planner.boundary_summary();
  if (const auto* tiers = dynamic_cast<const MultiTierPlanner*>(&planner)) {
    doc["tier_results"] = tiers->tier_results();
    doc["tier_metadata"] = tiers->tier_metadata();
  }
  doc["recipe"] = spec.recipe ? nlohmann::ordered_json(*spec.recipe) : nlohmann::ordered_json(nullptr);
  doc["convergence_reason"] = reason.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(reason);
  return doc;
}

}  // namespace aiperf::cli::search
