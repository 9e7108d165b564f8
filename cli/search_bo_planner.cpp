#include "search_bo_planner.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>

#include "log/log.h"
#include "search_gp.h"
#include "search_tpe.h"

namespace aiperf::cli::search {
namespace {

constexpr double kNoDataLoss = 1.0e6;         // the reference's NO_DATA_SENTINEL_LOSS
constexpr double kUnmeasurable = 1.0e6;       // its _UNMEASURABLE_VIOLATION
constexpr int kTerminatorMinTrials = 20;      // Optuna's DEFAULT_MIN_N_TRIALS
constexpr double kPlateauMeanEpsilon = 1e-9;  // its PLATEAU_MEAN_EPSILON

double violation(const std::optional<double>& observed, const SlaFilter& f) {
  if (!observed) return kUnmeasurable;
  return f.op == "lt" || f.op == "le" ? *observed - f.threshold : f.threshold - *observed;
}

double stat_percentile(const std::string& stat) {
  return stat == "p50" ? 50 : stat == "p90" ? 90 : stat == "p95" ? 95 : stat == "p99" ? 99 : -1;
}

nlohmann::json external_json(const Dimension& d, double v) {
  if (d.kind == "int") return static_cast<long long>(std::llround(v));
  return v;
}

}  // namespace

std::optional<double> pooled_percentile(const Trials& results, const std::string& metric, const std::string& stat) {
  const double pct = stat_percentile(stat);
  if (pct < 0) return std::nullopt;
  std::vector<double> samples;
  for (const auto& t : results) {
    if (!t.success || t.dir.empty()) continue;
    std::ifstream in(t.dir + "/profile_export.jsonl");
    if (!in) {
      AIPERF_LOG(kWarning) << "Pooled percentile requested for metric '" << metric << "' but " << t.dir
                           << "/profile_export.jsonl is missing. Falling back to mean-of-per-trial-percentiles.";
      return std::nullopt;
    }
    std::string line;
    while (std::getline(in, line)) {
      if (line.find(metric) == std::string::npos) continue;
      try {
        const auto row = nlohmann::json::parse(line);
        const auto m = row.find("metrics");
        if (m == row.end() || !m->is_object() || !m->contains(metric)) continue;
        const auto& v = (*m)[metric];
        if (v.is_object() && v.contains("value") && v["value"].is_number()) samples.push_back(v["value"].get<double>());
      } catch (const std::exception&) {
        continue;  // a torn line: the reference skips it too
      }
    }
  }
  if (samples.empty()) return std::nullopt;
  std::sort(samples.begin(), samples.end());
  const double pos = pct / 100.0 * static_cast<double>(samples.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, samples.size() - 1);
  return samples[lo] + (pos - static_cast<double>(lo)) * (samples[hi] - samples[lo]);
}

double regret_bound(const std::vector<std::vector<double>>& x, const std::vector<double>& values, bo::Rng& rng) {
  const size_t n = values.size(), d = x.front().size();
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t l, size_t r) { return values[l] > values[r]; });
  const size_t top = std::clamp<size_t>(n / 2, std::min<size_t>(kTerminatorMinTrials, n), n);
  std::vector<std::vector<double>> tx;
  std::vector<double> ty;
  for (size_t i = 0; i < top; ++i) tx.push_back(x[order[i]]), ty.push_back(values[order[i]]);
  double mean = 0, var = 0;
  for (double v : ty) mean += v / static_cast<double>(top);
  for (double v : ty) var += (v - mean) * (v - mean) / static_cast<double>(top);
  const double sd = std::max(1e-10, std::sqrt(var));
  for (double& v : ty) v = (v - mean) / sd;
  const bo::GpModel gp = bo::gp_fit(tx, ty);
  const double beta = 2 * std::log(static_cast<double>(d) * static_cast<double>(top * top) * std::numbers::pi *
                                   std::numbers::pi / 6 / 0.1);
  double upper = -INFINITY, lower = -INFINITY;
  for (int i = 0; i < 2048; ++i) {
    std::vector<double> t(d);
    for (auto& v : t) v = rng.uniform();
    const auto [mu, var_t] = bo::gp_predict(gp, t);
    upper = std::max(upper, mu + std::sqrt(beta * var_t));
  }
  for (const auto& t : tx) {
    const auto [mu, var_t] = bo::gp_predict(gp, t);
    upper = std::max(upper, mu + std::sqrt(beta * var_t));
    lower = std::max(lower, mu - std::sqrt(beta * var_t));
  }
  return (upper - lower) * sd;
}

BoPlanner::BoPlanner(const Spec& spec)
    : spec_(spec), rng_(spec.random_seed ? static_cast<uint64_t>(*spec.random_seed) : std::random_device{}()) {
  if (spec_.space.empty()) throw SearchError("--search-planner " + spec_.planner + ": needs --search-space.");
  const std::string acquisition = spec_.optuna_acquisition.value_or("");
  if (spec_.planner == "bayesian") {
    sampler_ = "botorch";
    noisy_ = true;  // the preset's qLogNEI
  } else {
    sampler_ = spec_.optuna_sampler.empty() ? "botorch" : spec_.optuna_sampler;
    if (sampler_ != "tpe" && sampler_ != "gp" && sampler_ != "botorch")
      throw SearchError("unknown optuna_sampler: " + py_repr(sampler_));
    noisy_ = sampler_ == "botorch" && (acquisition.empty() || acquisition == "qnei" || acquisition == "qlognei");
    if (sampler_ == "botorch" && (acquisition == "qehvi" || acquisition == "qnehvi" || acquisition == "qlognehvi"))
      throw SearchError("--optuna-acquisition " + acquisition +
                        " is a multi-objective acquisition; this search has one objective. Use qlognei, qnei, "
                        "logei or qlogei.");
  }
  for (const auto& d : spec_.space) axes_.push_back(bo::axis_of(d));
}

bool BoPlanner::converged() {
  if (!reason_.empty()) return true;
  const int iters = static_cast<int>(history_.size());
  if (iters >= spec_.max_iterations) return reason_ = "max_iterations", true;
  if (since_improvement_ >= spec_.improvement_patience) return reason_ = "improvement_patience", true;
  const int window = spec_.plateau_window;
  if (iters >= window) {
    std::vector<double> recent;
    for (int i = iters - window; i < iters; ++i)
      if (history_[static_cast<size_t>(i)].objective) recent.push_back(*history_[static_cast<size_t>(i)].objective);
    if (static_cast<int>(recent.size()) == window) {
      double mean = 0;
      for (double v : recent) mean += v / window;
      if (std::abs(mean) >= kPlateauMeanEpsilon) {
        double var = 0;
        for (double v : recent) var += (v - mean) * (v - mean) / (window - 1);
        if (std::sqrt(var) / std::abs(mean) < spec_.plateau_threshold) return reason_ = "plateau_cv", true;
      }
    }
  }
  // The regret-bound terminator: its error estimate is the spread of the best iteration's trials
  // (Optuna's cross-validation error with trials as folds), so it needs 2+ trials per point.
  if (spec_.optuna_terminator == "regret" && iters >= 2 && iters >= kTerminatorMinTrials) {
    size_t best = 0;
    for (size_t i = 1; i < observations_.size(); ++i)
      if (observations_[i].loss < observations_[best].loss) best = i;
    std::vector<double> per_trial;
    for (const auto& t : history_[best].results)
      if (auto v = trial_value(t, spec_.metric, spec_.stat)) per_trial.push_back(*v);
    if (per_trial.size() >= 2) {
      const double k = static_cast<double>(per_trial.size());
      double mean = 0, var = 0;
      for (double v : per_trial) mean += v / k;
      for (double v : per_trial) var += (v - mean) * (v - mean) / k;
      const double error = std::sqrt((1 / k + 1 / (k - 1)) * var);
      std::vector<std::vector<double>> x;
      std::vector<double> values;
      for (const auto& o : observations_) {
        std::vector<double> t;
        for (size_t a = 0; a < axes_.size(); ++a) t.push_back(bo::to_unit(axes_[a], bo::to_internal(axes_[a], o.x[a])));
        x.push_back(std::move(t));
        values.push_back(-o.loss);
      }
      if (regret_bound(x, values, rng_) < error) return reason_ = "posterior_regret_bound", true;
    }
  }
  return false;
}

std::optional<nlohmann::json> BoPlanner::ask() {
  if (pending_) throw std::logic_error("BoPlanner::ask() twice without tell()");
  if (converged()) return std::nullopt;
  std::vector<double> x;
  if (static_cast<int>(observations_.size()) < spec_.n_initial_points) {
    x = bo::random_point(axes_, rng_);
  } else if (sampler_ == "tpe") {
    x = bo::tpe_propose(axes_, observations_, rng_);
  } else {
    x = bo::gp_propose(axes_, observations_, noisy_ ? bo::Acquisition::kNoisyLogEi : bo::Acquisition::kLogEi, rng_);
  }
  pending_ = x;
  if (spec_.space.size() == 1) return external_json(spec_.space.front(), x.front());
  nlohmann::json values = nlohmann::json::object();
  for (size_t a = 0; a < x.size(); ++a) values[spec_.space[a].path] = external_json(spec_.space[a], x[a]);
  return values;
}

std::optional<double> BoPlanner::objective_of(const Trials& results) const {
  if (results.empty()) return std::nullopt;
  if (spec_.objective_pooling == "pooled" && stat_percentile(spec_.stat) >= 0)
    if (auto v = pooled_percentile(results, spec_.metric, spec_.stat)) return v;
  return averaged(results, spec_.metric, spec_.stat);
}

void BoPlanner::tell(const Trials& results) {
  if (!pending_) throw std::logic_error("tell() called without matching ask()");
  const bool maximize = spec_.direction == "maximize";
  bo::Observation o;
  o.x = *pending_;
  pending_.reset();
  bool unmeasurable = false;
  for (const auto& f : spec_.sla_filters) {
    const auto observed = averaged(results, f.metric_tag, f.stat);
    unmeasurable = unmeasurable || !observed;
    o.constraints.push_back(violation(observed, f));
    o.violation += std::max(0.0, o.constraints.back());
  }
  const std::optional<double> objective = objective_of(results);
  double told;
  if (objective) {
    told = *objective;
  } else {
    // Worse than anything seen: the worst prior objective minus (maximize) / plus a 10 % (at
    // least 1) margin, or -/+1e6 before any.
    std::optional<double> worst;
    for (const auto& it : history_)
      if (it.objective)
        worst = !worst ? *it.objective : maximize ? std::min(*worst, *it.objective) : std::max(*worst, *it.objective);
    if (!worst) told = maximize ? -kNoDataLoss : kNoDataLoss;
    else
      told = maximize ? *worst - std::max(std::abs(*worst) * 0.1, 1.0) : *worst + std::max(std::abs(*worst) * 0.1, 1.0);
    AIPERF_LOG(kWarning) << "Search iteration " << history_.size()
                         << " produced no usable objective; telling the sampler " << told << " and continuing.";
  }
  o.loss = maximize ? -told : told;
  observations_.push_back(o);
  if (!objective) {
    ++since_improvement_;
  } else {
    const double loss = maximize ? -*objective : *objective;
    if (!best_loss_ || loss < *best_loss_) best_loss_ = loss, since_improvement_ = 0;
    else ++since_improvement_;
  }
  Iteration it;
  it.index = static_cast<int>(history_.size());
  for (size_t a = 0; a < spec_.space.size(); ++a)
    it.values[spec_.space[a].path] = external_json(spec_.space[a], observations_.back().x[a]);
  it.objective = objective;
  it.feasible = feasible(results, spec_.sla_filters) && !unmeasurable;
  it.results = results;
  history_.push_back(std::move(it));
}

nlohmann::ordered_json BoPlanner::boundary_summary() const {
  if (history_.empty() || spec_.space.size() != 1) return nullptr;
  const std::string& path = spec_.space.front().path;
  const Iteration *hi = nullptr, *lo = nullptr;
  for (const auto& it : history_) {
    const double v = it.values.at(path).get<double>();
    if (it.feasible && (!hi || v > hi->values.at(path).get<double>())) hi = &it;  // the first of equals, as max()
    if (!it.feasible && (!lo || v < lo->values.at(path).get<double>())) lo = &it;
  }
  if (!hi && !lo) return nullptr;
  nlohmann::ordered_json out{{"swept_dim_path", path}, {"feasible_max", nullptr}, {"infeasible_min", nullptr}};
  if (hi)
    out["feasible_max"] = {
        {"value", hi->values.at(path)},
        {"iteration_idx", hi->index},
        {"objective_value", hi->objective ? nlohmann::ordered_json(*hi->objective) : nlohmann::ordered_json(nullptr)}};
  if (lo)
    out["infeasible_min"] = {{"value", lo->values.at(path)},
                             {"iteration_idx", lo->index},
                             {"first_breach", first_breach(lo->results, spec_.sla_filters)}};
  return out;
}

}  // namespace aiperf::cli::search
