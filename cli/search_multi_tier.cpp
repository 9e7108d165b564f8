#include "search_multi_tier.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace aiperf::cli::search {
namespace {

// The stats AIPerf copies into a tier's boundary_metrics, in its order.
const char* const kBoundaryStats[] = {"avg", "p1", "p5", "p10", "p25", "p50", "p75",
                                      "p90", "p95", "p99", "min", "max", "std"};

nlohmann::ordered_json opt(const std::optional<long long>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

std::string tier_status(const TierBracket& b) {
  if (!b.converged) return "partial";
  for (const char* s : {"precision_reached", "no_pass_in_range", "no_failure_in_range"})
    if (b.reason.find(s) != std::string::npos) return s == std::string("precision_reached") ? "converged" : s;
  return "converged";
}

}  // namespace

std::vector<std::pair<size_t, size_t>> tier_ordering(const std::vector<SloTier>& tiers) {
  auto harder = [&](const SloTier& a, const SloTier& b) {
    std::set<std::pair<std::string, std::string>> ka, kb;
    for (const auto& f : a.filters) ka.insert({f.metric_tag, f.stat});
    for (const auto& f : b.filters) kb.insert({f.metric_tag, f.stat});
    if (ka != kb) return false;
    for (const auto& fa : a.filters) {
      const SlaFilter* fb = nullptr;  // the last of b's filters on that metric and stat, as a dict
      for (const auto& f : b.filters)
        if (f.metric_tag == fa.metric_tag && f.stat == fa.stat) fb = &f;
      if (fa.op != fb->op) return false;
      if (fa.op == "gt" || fa.op == "ge") {
        if (fa.threshold <= fb->threshold) return false;
      } else if (fa.threshold >= fb->threshold) {
        return false;
      }
    }
    return true;
  };
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t i = 0; i < tiers.size(); ++i)
    for (size_t j = 0; j < tiers.size(); ++j)
      if (i != j && harder(tiers[i], tiers[j])) pairs.emplace_back(i, j);
  return pairs;
}

MultiTierPlanner::MultiTierPlanner(const Spec& spec, double precision) : spec_(spec), precision_(precision) {
  if (spec.space.size() != 1)
    throw SearchError("multi_tier planner requires exactly one search-space dimension; got " +
                      std::to_string(spec.space.size()) + ".");
  const Dimension& d = spec.space.front();
  if (d.kind != "int")
    throw SearchError("multi_tier planner supports kind='int' dimensions only; got kind=" + py_repr(d.kind) +
                      " on path " + py_repr(d.path) + ".");
  if (spec.tiers.size() < 2)
    throw SearchError("multi_tier planner requires at least 2 tiers; got " + std::to_string(spec.tiers.size()) + ".");
  lo_ = static_cast<long long>(d.lo);
  hi_ = static_cast<long long>(d.hi);
  next_ = lo_;
  for (const auto& t : spec.tiers) brackets_.push_back({t});
  ordering_ = tier_ordering(spec.tiers);
}

std::vector<SlaFilter> MultiTierPlanner::filters_of(const TierBracket& b) const {
  std::vector<SlaFilter> all = b.tier.filters;
  all.insert(all.end(), spec_.sla_filters.begin(), spec_.sla_filters.end());
  return all;
}

bool MultiTierPlanner::converged() {
  if (!reason_.empty()) return true;
  if (static_cast<int>(history_.size()) >= spec_.max_iterations) {
    reason_ = "max_iterations";
    return true;
  }
  if (std::all_of(brackets_.begin(), brackets_.end(), [](const TierBracket& b) { return b.converged; })) {
    reason_ = "multi_tier_all_converged";
    return true;
  }
  return false;
}

std::optional<nlohmann::json> MultiTierPlanner::ask() {
  if (converged()) return std::nullopt;
  long long value = next_;
  if (bisecting_) {
    std::optional<long long> probe = select_widest();
    if (!probe) probe = missing_bound_probe();
    if (!probe) {
      reason_ = "multi_tier_all_converged";
      return std::nullopt;
    }
    value = *probe;
  }
  pending_ = value;
  return nlohmann::json(value);
}

std::optional<long long> MultiTierPlanner::select_widest() {
  while (true) {
    TierBracket* widest = nullptr;
    for (auto& b : brackets_) {
      if (b.converged || !b.feasible_max || !b.infeasible_min || *b.infeasible_min <= *b.feasible_max) continue;
      if (!widest || *b.infeasible_min - *b.feasible_max > *widest->infeasible_min - *widest->feasible_max) widest = &b;
    }
    if (!widest) return std::nullopt;
    const long long gap = *widest->infeasible_min - *widest->feasible_max;
    if (gap <= 1) {
      widest->converged = true;
      widest->reason = "multi_tier_precision_reached";
      continue;
    }
    return *widest->feasible_max + gap / 2;
  }
}

std::optional<long long> MultiTierPlanner::missing_bound_probe() {
  for (auto& b : brackets_) {
    if (b.converged) continue;
    if (b.feasible_max && !b.infeasible_min) {
      const long long candidate = std::min(*b.feasible_max * 2, hi_);
      if (candidate > *b.feasible_max) return candidate;
      b.feasible_max = hi_;
      b.converged = true;
      b.reason = "no_failure_in_range";
      continue;
    }
    if (b.infeasible_min && !b.feasible_max) {
      // Python's //: floor division (the values are positive here).
      const long long candidate = std::max(*b.infeasible_min / 2, lo_);
      if (candidate < *b.infeasible_min) return candidate;
    }
  }
  return std::nullopt;
}

void MultiTierPlanner::tell(const Trials& results) {
  if (!pending_) throw std::logic_error("tell() called without matching ask()");
  const long long value = *pending_;
  pending_.reset();
  store_[value].push_back(results);
  std::vector<bool> verdicts;
  bool non_monotonic = false;
  for (auto& b : brackets_) {
    const bool ok = feasible(results, filters_of(b));
    verdicts.push_back(ok);
    if (b.converged) continue;
    const bool was = b.non_monotonic;
    ++b.probe_count;
    update_bracket(b, value, ok, results);
    non_monotonic = non_monotonic || (b.non_monotonic && !was);
  }
  for (size_t i = 0; i < brackets_.size(); ++i)
    if (!brackets_[i].converged) propagate(i, value, verdicts[i]);
  check_bracket_convergence();
  if (!bisecting_) advance_bracket_phase(value, verdicts);

  Iteration it;
  it.index = static_cast<int>(history_.size());
  it.values[spec_.space.front().path] = value;
  it.feasible = std::any_of(verdicts.begin(), verdicts.end(), [](bool v) { return v; });
  it.objective = averaged(results, spec_.metric, spec_.stat);
  it.non_monotonic_warning = non_monotonic;
  it.results = results;
  history_.push_back(std::move(it));
  progress_ = describe(value, verdicts);
}

void MultiTierPlanner::update_bracket(TierBracket& b, long long value, bool ok, const Trials& results) {
  if (ok) {
    if (b.infeasible_min && value >= *b.infeasible_min) b.non_monotonic = true;
    if (!b.feasible_max || value > *b.feasible_max) b.feasible_max = value;
    return;
  }
  if (b.feasible_max && value <= *b.feasible_max) b.non_monotonic = true;
  if (!b.infeasible_min || value < *b.infeasible_min) {
    b.infeasible_min = value;
    const auto breach = first_breach(results, filters_of(b));
    if (!breach.is_null()) b.binding = breach;
  }
}

void MultiTierPlanner::propagate(size_t tier, long long value, bool ok) {
  for (const auto& [strict, lenient] : ordering_) {
    if (disabled_.count({strict, lenient})) continue;
    if (!ok && lenient == tier) {  // the lenient tier failed: so does the strict one
      TierBracket& b = brackets_[strict];
      if (b.converged || (b.infeasible_min && value >= *b.infeasible_min)) continue;
      b.infeasible_min = value;
      check_contradiction(strict, lenient);
    } else if (ok && strict == tier) {  // the strict tier passed: so does the lenient one
      TierBracket& b = brackets_[lenient];
      if (b.converged || (b.feasible_max && value <= *b.feasible_max)) continue;
      b.feasible_max = value;
      check_contradiction(strict, lenient);
    }
  }
}

void MultiTierPlanner::check_contradiction(size_t strict, size_t lenient) {
  const TierBracket& s = brackets_[strict];
  const TierBracket& l = brackets_[lenient];
  const bool contradiction = (s.feasible_max && l.infeasible_min && *s.feasible_max >= *l.infeasible_min) ||
                             (l.feasible_max && l.infeasible_min && *l.feasible_max >= *l.infeasible_min) ||
                             (s.feasible_max && s.infeasible_min && *s.feasible_max >= *s.infeasible_min);
  if (contradiction) disabled_.insert({strict, lenient});
}

void MultiTierPlanner::check_bracket_convergence() {
  for (auto& b : brackets_) {
    if (b.converged || !b.feasible_max || !b.infeasible_min) continue;
    if (*b.feasible_max >= *b.infeasible_min) {  // inverted: drop the stale failure and go on
      b.non_monotonic = true;
      b.infeasible_min.reset();
      b.binding = nullptr;
      continue;
    }
    const long long gap = *b.infeasible_min - *b.feasible_max;
    if (gap <= 1 ||
        (*b.infeasible_min > 0 && static_cast<double>(gap) / static_cast<double>(*b.infeasible_min) < precision_)) {
      b.converged = true;
      b.reason = "multi_tier_precision_reached";
    }
  }
}

void MultiTierPlanner::advance_bracket_phase(long long value, const std::vector<bool>& verdicts) {
  if (!std::all_of(verdicts.begin(), verdicts.end(), [](bool v) { return v; })) {
    if (std::none_of(brackets_.begin(), brackets_.end(), [](const TierBracket& b) { return b.feasible_max.has_value(); })) {
      for (auto& b : brackets_)
        if (!b.converged) {
          b.converged = true;
          b.reason = "no_pass_in_range";
        }
      reason_ = "multi_tier_all_converged";
      return;
    }
    bisecting_ = true;
    return;
  }
  const long long doubled = std::max(value * 2, value + 1);
  if (doubled < hi_) {
    next_ = doubled;
    return;
  }
  if (value < hi_) {
    next_ = hi_;
    return;
  }
  for (auto& b : brackets_) {
    if (b.converged) continue;
    b.feasible_max = b.feasible_max ? std::max(*b.feasible_max, hi_) : hi_;
    b.converged = true;
    b.reason = "no_failure_in_range";
  }
  reason_ = "multi_tier_all_converged";
}

std::optional<int> MultiTierPlanner::first_iteration_at(std::optional<long long> value) const {
  if (!value) return std::nullopt;
  for (const auto& it : history_)
    for (const auto& [path, v] : it.values.items())
      if (v == *value) return it.index;
  return std::nullopt;
}

nlohmann::ordered_json MultiTierPlanner::boundary_summary() const {
  if (history_.empty()) return nullptr;
  const TierBracket* best = nullptr;
  for (const auto& b : brackets_)
    if (b.feasible_max && (!best || *b.feasible_max > *best->feasible_max)) best = &b;
  if (!best) best = &brackets_.back();
  auto index = [&](std::optional<long long> v) {
    const auto i = first_iteration_at(v);
    return i ? nlohmann::ordered_json(*i) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json out{{"swept_dim_path", spec_.space.front().path}};
  out["feasible_max"] = best->feasible_max ? nlohmann::ordered_json{{"value", *best->feasible_max},
                                                                    {"iteration_idx", index(best->feasible_max)},
                                                                    {"objective_value", nullptr}}
                                           : nlohmann::ordered_json(nullptr);
  out["infeasible_min"] = best->infeasible_min ? nlohmann::ordered_json{{"value", *best->infeasible_min},
                                                                        {"iteration_idx", index(best->infeasible_min)},
                                                                        {"first_breach", best->binding}}
                                               : nlohmann::ordered_json(nullptr);
  bool any_non_monotonic = false;
  for (const auto& b : brackets_) any_non_monotonic = any_non_monotonic || b.non_monotonic;
  out["non_monotonic_warning"] = any_non_monotonic;
  out["convergence_reason"] = reason_.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(reason_);
  return out;
}

nlohmann::ordered_json MultiTierPlanner::tier_results() const {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& b : brackets_) {
    std::optional<long long> upper = b.infeasible_min;
    if (b.feasible_max && upper && *upper <= *b.feasible_max) upper.reset();  // inverted: meaningless
    nlohmann::ordered_json metrics = nullptr;
    if (b.feasible_max) {
      const auto at = store_.find(*b.feasible_max);
      if (at != store_.end() && !at->second.empty()) {
        for (const auto& t : at->second.back()) {
          if (!t.success) continue;
          nlohmann::ordered_json found = nlohmann::ordered_json::object();
          for (auto m = t.metrics.begin(); m != t.metrics.end(); ++m) {
            nlohmann::ordered_json stats = nlohmann::ordered_json::object();
            if (m.value().is_object())
              for (const char* s : kBoundaryStats)
                if (m.value().contains(s) && m.value()[s].is_number() && std::isfinite(m.value()[s].get<double>()))
                  stats[s] = m.value()[s];
            if (!stats.empty()) found[m.key()] = stats;
          }
          if (!found.empty()) metrics = found;
          break;  // the first successful trial
        }
      }
    }
    nlohmann::ordered_json filters = nlohmann::ordered_json::array();
    for (const auto& f : filters_of(b)) filters.push_back(filter_json(f));
    out.push_back({{"label", b.tier.label},
                   {"boundary_concurrency", opt(b.feasible_max)},
                   {"convergence_status", tier_status(b)},
                   {"convergence_reason", b.reason.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(b.reason)},
                   {"binding_constraint", b.binding},
                   {"bracket_lower", opt(b.feasible_max)},
                   {"bracket_upper", opt(upper)},
                   {"confidence_interval", nullptr},
                   {"probe_count", b.probe_count},
                   {"boundary_metrics", metrics},
                   {"filters", filters}});
  }
  return out;
}

nlohmann::ordered_json MultiTierPlanner::tier_metadata() const {
  int evaluations = 0;
  for (const auto& b : brackets_) evaluations += b.probe_count;
  nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
  for (const auto& p : ordering_)
    if (!disabled_.count(p))
      pairs.push_back({{"strict", brackets_[p.first].tier.label}, {"lenient", brackets_[p.second].tier.label}});
  const bool detected = !pairs.empty();
  return {{"actual_probe_count", history_.size()},
          {"tier_evaluation_count", evaluations},
          {"ordering_detected", detected},
          {"ordering_pairs", detected ? pairs : nlohmann::ordered_json(nullptr)}};
}

std::string MultiTierPlanner::describe(long long value, const std::vector<bool>& verdicts) const {
  std::string parts;
  int done = 0;
  auto num = [](const std::optional<long long>& v) { return v ? std::to_string(*v) : std::string("?"); };
  for (size_t i = 0; i < brackets_.size(); ++i) {
    const TierBracket& b = brackets_[i];
    std::string tag;
    if (b.converged) tag = "[converged@" + (b.feasible_max ? std::to_string(*b.feasible_max) : std::string("None")) + "]";
    else tag = "[" + num(b.feasible_max) + "," + num(b.infeasible_min) + "]";
    parts += (i ? " | " : "") + b.tier.label + ":" + (verdicts[i] ? "PASS" : "FAIL") + tag;
    done += b.converged ? 1 : 0;
  }
  return "multi_tier probe@" + std::to_string(value) + ": " + parts + " (" + std::to_string(done) + "/" +
         std::to_string(brackets_.size()) + " tiers converged)";
}

}  // namespace aiperf::cli::search
