#include "search_smooth_isotonic.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "search_isotonic_fit.h"
#include "sweep_plan.h"

namespace aiperf::cli::search {
namespace {

constexpr int kFitInternalProbes = 3;
constexpr int kFitMinDistinct = 3;
constexpr int kMaxRefitCycles = 3;

long long py_round(double v) { return static_cast<long long>(std::nearbyint(v)); }  // ties to even

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double sample_sigma(const std::vector<double>& v) {
  const double m = mean_of(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

double population_sigma(const std::vector<double>& v) {
  const double m = mean_of(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size()));
}

}  // namespace

std::pair<double, double> bootstrap_mean_ci(const std::vector<double>& margins) {
  if (margins.size() == 1) return {margins[0], margins[0]};
  std::mt19937_64 rng(0);
  std::uniform_int_distribution<size_t> pick(0, margins.size() - 1);
  std::vector<double> means(10000);
  for (double& m : means) {
    double s = 0;
    for (size_t i = 0; i < margins.size(); ++i) s += margins[pick(rng)];
    m = s / static_cast<double>(margins.size());
  }
  std::sort(means.begin(), means.end());
  auto at = [&](double q) {
    const double pos = q * static_cast<double>(means.size() - 1);
    const size_t i = static_cast<size_t>(pos);
    const double f = pos - static_cast<double>(i);
    return i + 1 < means.size() ? means[i] + f * (means[i + 1] - means[i]) : means[i];
  };
  return {at(0.025), at(0.975)};
}

SmoothIsotonicPlanner::SmoothIsotonicPlanner(const Spec& spec, double precision) : spec_(spec), precision_(precision) {
  if (spec.space.size() != 1)
    throw SearchError("smooth_isotonic planner requires exactly one search-space dimension; got " +
                      std::to_string(spec.space.size()) +
                      ". For multi-dimensional search use the bayesian planner via `--search-planner bayesian`.");
  const Dimension& d = spec.space.front();
  if (d.kind != "int")
    throw SearchError("smooth_isotonic planner v1 supports kind='int' dimensions only; got kind=" + py_repr(d.kind) +
                      " on path " + py_repr(d.path) + ". Use the bayesian planner for real-valued dimensions.");
  if (spec.sla_filters.empty())
    throw SearchError("smooth_isotonic planner requires at least one SLA filter (sla_filters is empty); pass "
                      "--search-sla / --ttft-sla-ms / --tpot-sla-ms / --e2e-sla-ms.");
  lo_ = static_cast<long long>(d.lo);
  hi_ = static_cast<long long>(d.hi);
  next_ = lo_;
  for (size_t i = 0; i < spec.sla_filters.size(); ++i) {
    const auto& f = spec.sla_filters[i];
    keys_.push_back(std::to_string(i) + ":" + f.metric_tag + "." + f.stat + "." + f.op + "." +
                    sweep::python_str(nlohmann::json(f.threshold)));
  }
}

bool SmoothIsotonicPlanner::converged() {
  if (!reason_.empty()) return true;
  if (static_cast<int>(history_.size()) >= spec_.max_iterations) {
    reason_ = "max_iterations";
    return true;
  }
  return false;
}

std::optional<nlohmann::json> SmoothIsotonicPlanner::ask() {
  if (converged()) return std::nullopt;
  if (!queue_.empty()) {
    next_ = queue_.front();
    queue_.pop_front();
  }
  pending_ = next_;
  return nlohmann::json(next_);
}

void SmoothIsotonicPlanner::tell(const Trials& results) {
  if (!pending_) throw std::logic_error("tell() called without matching ask()");
  const long long value = *pending_;
  pending_.reset();
  Iteration it = measured(spec_, history_, value, results);
  Margins margins;
  for (size_t i = 0; i < spec_.sla_filters.size(); ++i) {
    const auto& f = spec_.sla_filters[i];
    if (const auto v = averaged(results, f.metric_tag, f.stat))
      margins[keys_[i]] = f.op == "lt" || f.op == "le" ? *v - f.threshold : f.threshold - *v;
  }
  probes_[value].push_back(margins);
  absorb(value, it.feasible, it.non_monotonic_warning);
  if (phase_ == "bracket") plan_bracket(value, it.feasible);
  else if (phase_ == "fit") plan_fit();
  else if (phase_ == "cliff_bisect") plan_cliff_bisect();
  else plan_replicate();
  history_.push_back(std::move(it));
}

void SmoothIsotonicPlanner::absorb(long long value, bool ok, bool& non_monotonic) {
  if (ok) {
    if (infeasible_min_ && value >= *infeasible_min_) {
      non_monotonic = true;
      return;
    }
    if (!feasible_max_ || value > *feasible_max_) feasible_max_ = value;
  } else {
    if (feasible_max_ && value <= *feasible_max_) {
      non_monotonic = true;
      return;
    }
    if (!infeasible_min_ || value < *infeasible_min_) infeasible_min_ = value;
  }
}

void SmoothIsotonicPlanner::plan_bracket(long long value, bool ok) {
  if (!ok) {
    if (!feasible_max_) {
      reason_ = "smooth_isotonic_no_pass_in_range";
      return;
    }
    phase_ = "fit";
    queue_internal_probes(kFitInternalProbes);
    return;
  }
  const long long doubled = value * 2;
  if (doubled >= hi_) {
    if (value >= hi_) {
      feasible_max_ = hi_;
      reason_ = "smooth_isotonic_no_failure_in_range";
      return;
    }
    next_ = hi_;
    return;
  }
  next_ = doubled;
}

void SmoothIsotonicPlanner::queue_internal_probes(int count) {
  if (!feasible_max_ || !infeasible_min_) return;
  const long long gap = *infeasible_min_ - *feasible_max_;
  if (gap <= 1) return;
  for (int k = 1; k <= count; ++k) {
    const double frac = static_cast<double>(k) / (count + 1);
    long long x = *feasible_max_ + std::max(1LL, py_round(static_cast<double>(gap) * frac));
    x = std::max(std::min(x, *infeasible_min_ - 1), *feasible_max_ + 1);
    if (!probes_.count(x) && std::find(queue_.begin(), queue_.end(), x) == queue_.end()) queue_.push_back(x);
  }
}

bool SmoothIsotonicPlanner::queued_or_probed(long long x) const {
  return probes_.count(x) || std::find(queue_.begin(), queue_.end(), x) != queue_.end();
}

void SmoothIsotonicPlanner::queue_refit_probes() {
  if (!feasible_max_ || !infeasible_min_) return;
  const long long gap = *infeasible_min_ - *feasible_max_;
  if (gap <= 1) return;
  for (double frac : {0.125, 0.625}) {
    long long x = *feasible_max_ + std::max(1LL, py_round(static_cast<double>(gap) * frac));
    x = std::max(std::min(x, *infeasible_min_ - 1), *feasible_max_ + 1);
    if (!queued_or_probed(x)) queue_.push_back(x);
  }
}

void SmoothIsotonicPlanner::plan_fit() {
  if (!queue_.empty()) return;  // still draining the internal probes
  ++fit_count_;
  std::optional<long long> candidate = fit_and_solve();
  if (!candidate) {
    // Bisection fallback when the curve has no zero in the bracket.
    if (feasible_max_ && infeasible_min_ && *infeasible_min_ - *feasible_max_ > 1)
      candidate = *feasible_max_ + (*infeasible_min_ - *feasible_max_) / 2;
    if (!candidate) {
      finalize("smooth_isotonic_pchip_fallback_bisection");
      return;
    }
  }
  if (needs_more_fit_data() && fit_count_ < kMaxRefitCycles) {
    queue_refit_probes();
    return;
  }
  candidate_ = candidate;
  enter_replicate_or_terminate(*candidate);
}

std::optional<long long> SmoothIsotonicPlanner::fit_and_solve() {
  if (probes_.size() < 2) return std::nullopt;
  std::vector<double> xs;
  for (const auto& [x, _] : probes_) xs.push_back(static_cast<double>(x));
  std::map<std::string, std::optional<Pchip>> curves;
  std::vector<std::pair<std::string, double>> margins;  // in filter order
  std::map<std::string, double> sigmas;
  for (const auto& key : keys_) {
    std::vector<double> ys;
    for (const auto& [x, list] : probes_) {
      std::vector<double> samples;
      for (const auto& m : list)
        if (m.count(key)) samples.push_back(m.at(key));
      if (!samples.empty()) ys.push_back(mean_of(samples));
    }
    if (ys.size() < xs.size()) {
      curves[key] = std::nullopt;
      margins.emplace_back(key, 0.0);
      sigmas[key] = 0.0;
      continue;
    }
    curves[key] = smooth_isotonic_fit(xs, ys);
    margins.emplace_back(key, ys.back());
    std::vector<double> last;
    for (const auto& m : probes_.rbegin()->second)
      if (m.count(key)) last.push_back(m.at(key));
    sigmas[key] = last.size() >= 2 ? sample_sigma(last) : 0.0;
  }
  // The binding filter: the largest margin, normalized by its sigma (floored at 1% of the
  // threshold) when any filter has a sigma; the first of equals.
  bool any_sigma = false;
  for (const auto& [k, s] : sigmas) any_sigma = any_sigma || s > 0;
  double best = -HUGE_VAL;
  for (size_t i = 0; i < margins.size(); ++i) {
    double v = margins[i].second;
    if (any_sigma) {
      const double floor = std::max(sigmas[margins[i].first], 0.01 * std::fabs(spec_.sla_filters[i].threshold));
      if (floor != 0) v /= floor;
    }
    if (i == 0 || v > best) {
      best = v;
      binding_ = margins[i].first;
    }
  }
  const auto& curve = curves[binding_];
  if (!curve || !feasible_max_ || !infeasible_min_) return std::nullopt;
  const auto root = curve->root_in(static_cast<double>(*feasible_max_), static_cast<double>(*infeasible_min_));
  if (!root) return std::nullopt;
  long long c = py_round(*root);
  if (c <= *feasible_max_) c = *feasible_max_ + 1;
  if (c >= *infeasible_min_) c = *infeasible_min_ - 1;
  return c;
}

std::vector<std::pair<double, double>> SmoothIsotonicPlanner::binding_points() const {
  std::vector<std::pair<double, double>> pts;
  for (const auto& [x, list] : probes_) {
    std::vector<double> samples;
    for (const auto& m : list)
      if (m.count(binding_)) samples.push_back(m.at(binding_));
    if (!samples.empty()) pts.emplace_back(static_cast<double>(x), mean_of(samples));
  }
  return pts;
}

bool SmoothIsotonicPlanner::needs_more_fit_data() const {
  if (binding_.empty()) return false;
  std::vector<double> ys;
  for (const auto& p : binding_points()) ys.push_back(p.second);
  if (ys.size() < 4) return true;
  std::set<long long> distinct;
  for (double v : isotonic_increasing(ys)) distinct.insert(static_cast<long long>(std::nearbyint(v * 1e9)));
  return static_cast<int>(distinct.size()) < kFitMinDistinct;
}

void SmoothIsotonicPlanner::enter_replicate_or_terminate(long long candidate) {
  const bool cliff = check_cliff();
  boundary_type_ = cliff ? "cliff" : "smooth";
  if (cliff) {
    const auto mid = bracket_precision_reached() ? std::nullopt : cliff_midpoint();
    if (!mid) {
      finalize("smooth_isotonic_cliff_precision_reached");
      return;
    }
    queue_.push_back(*mid);
    phase_ = "cliff_bisect";
    return;
  }
  if (bracket_precision_reached()) {
    finalize("smooth_isotonic_precision_reached");
    return;
  }
  const int budget = replicate_budget();
  if (budget <= 0) {
    if (!probes_.count(candidate)) {
      queue_.push_back(candidate);
      phase_ = "fit";
      return;
    }
    finalize("smooth_isotonic_precision_reached");
    return;
  }
  for (int i = 0; i < budget; ++i) queue_.push_back(candidate);
  phase_ = "replicate";
}

void SmoothIsotonicPlanner::plan_cliff_bisect() {
  if (!queue_.empty()) return;
  const auto mid = bracket_precision_reached() ? std::nullopt : cliff_midpoint();
  if (!mid) {
    finalize("smooth_isotonic_cliff_precision_reached");
    return;
  }
  queue_.push_back(*mid);
}

void SmoothIsotonicPlanner::plan_replicate() {
  if (!queue_.empty()) return;
  if (!candidate_ || binding_.empty()) {
    finalize("smooth_isotonic_precision_reached");
    return;
  }
  std::vector<double> at;
  for (const auto& m : probes_[*candidate_])
    if (m.count(binding_)) at.push_back(m.at(binding_));
  if (at.size() < 2) {
    finalize("smooth_isotonic_precision_reached");
    return;
  }
  const auto [low, high] = bootstrap_mean_ci(at);
  ci_low_ = low;
  ci_high_ = high;
  if (low <= 0.0 && 0.0 <= high) {
    queue_refit_probes();
    phase_ = "fit";
    return;
  }
  finalize("smooth_isotonic_precision_reached");
}

std::optional<long long> SmoothIsotonicPlanner::cliff_midpoint() const {
  if (!feasible_max_ || !infeasible_min_) return std::nullopt;
  const long long gap = *infeasible_min_ - *feasible_max_;
  if (gap <= 1) return std::nullopt;
  long long mid = *feasible_max_ + gap / 2;
  if (mid <= *feasible_max_) mid = *feasible_max_ + 1;
  if (mid >= *infeasible_min_) mid = *infeasible_min_ - 1;
  if (mid <= *feasible_max_ || mid >= *infeasible_min_) return std::nullopt;
  return mid;
}

bool SmoothIsotonicPlanner::check_cliff() const {
  if (binding_.empty()) return false;
  const auto pts = binding_points();
  if (pts.size() < 3) return false;  // the local window needs 3 points
  std::vector<double> xs, ys;
  for (const auto& [x, y] : pts) {
    xs.push_back(x);
    ys.push_back(y);
  }
  const std::vector<double> recent(ys.end() - 3, ys.end());
  const double sigma = population_sigma(recent);
  if (sigma == 0.0) return false;
  const double residual = std::fabs(ys.back() - smooth_isotonic_fit(xs, ys)(xs.back()));
  if (residual <= 3.0 * sigma) return false;
  const long long gap = feasible_max_ && infeasible_min_ ? *infeasible_min_ - *feasible_max_ : 0;
  return static_cast<double>(gap) > precision_ * static_cast<double>(hi_);
}

int SmoothIsotonicPlanner::replicate_budget() const {
  if (binding_.empty() || probes_.empty()) return 0;
  std::vector<double> samples;
  for (const auto& m : probes_.rbegin()->second)
    if (m.count(binding_)) samples.push_back(m.at(binding_));
  if (samples.size() < 2) return 0;
  const double sigma = sample_sigma(samples);
  const size_t i = static_cast<size_t>(std::find(keys_.begin(), keys_.end(), binding_) - keys_.begin());
  const double denom = std::max(std::fabs(spec_.sla_filters[i].threshold), 1e-9);
  const double raw = std::ceil(4.0 * (sigma / denom) * (sigma / denom));
  return static_cast<int>(std::min(20.0, std::max(3.0, raw)));
}

bool SmoothIsotonicPlanner::bracket_precision_reached() const {
  if (!feasible_max_ || !infeasible_min_) return false;
  const long long gap = *infeasible_min_ - *feasible_max_;
  if (gap <= 1) return true;
  return static_cast<double>(gap) / static_cast<double>(std::max(*infeasible_min_, 1LL)) < precision_;
}

void SmoothIsotonicPlanner::finalize(const std::string& reason) {
  if (reason_.empty()) reason_ = reason;
  if (boundary_type_.empty()) boundary_type_ = "smooth";
}

nlohmann::ordered_json SmoothIsotonicPlanner::boundary_summary() const {
  nlohmann::ordered_json out = bracket_summary(spec_, history_, feasible_max_, infeasible_min_);
  if (out.is_null()) return out;
  if (!boundary_type_.empty()) out["boundary_type"] = boundary_type_;
  if (!binding_.empty()) out["binding_constraint"] = binding_;
  if (ci_low_ && ci_high_) out["boundary_ci"] = {{"lo", *ci_low_}, {"hi", *ci_high_}};
  return out;
}

}  // namespace aiperf::cli::search
