#include "search_spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "sweep_plan.h"
#include "util/text.h"

namespace aiperf::cli::search {
namespace {

const std::vector<std::string> kStats = {"avg", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "min", "max"};
const std::vector<std::string> kOps = {"lt", "le", "gt", "ge"};

// Python's repr() of a tuple of strings: ('a', 'b').
std::string tuple_repr(const std::vector<std::string>& items) {
  std::string out = "(";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + py_repr(items[i]);
  return out + ")";
}

std::string py_float(double v) { return sweep::python_str(nlohmann::json(v)); }

// Python's float(): surrounding whitespace allowed, inf/nan spelled out accepted.
bool parse_py_float(const std::string& text, double& out) {
  const auto b = text.find_first_not_of(" \t\n\r");
  if (b == std::string::npos) return false;
  const auto e = text.find_last_not_of(" \t\n\r");
  const std::string s = text.substr(b, e - b + 1);
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && !s.empty();
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  for (const auto& x : v)
    if (x == s) return true;
  return false;
}

}  // namespace

Dimension parse_dimension(const std::string& raw) {
  const std::string head = "--search-space " + py_repr(raw) + ": ";
  if (raw.find(':') == std::string::npos || raw.find(',') == std::string::npos)
    throw SearchError(head + "expected 'path:lo,hi[:kind]', e.g. 'phases.profiling.concurrency:1,1000:int'.");
  const auto parts = split(raw, ':');
  Dimension d;
  std::string bounds;
  if (parts.size() == 2) {
    d.path = parts[0];
    bounds = parts[1];
  } else if (parts.size() == 3) {
    d.path = parts[0];
    bounds = parts[1];
    d.kind = parts[2];
  } else {
    throw SearchError(head + "expected 'path:lo,hi[:kind]', got " + std::to_string(parts.size()) + " parts.");
  }
  if (d.kind != "int" && d.kind != "real")
    throw SearchError(head + "kind must be 'int' or 'real', got " + py_repr(d.kind) + ".");
  const size_t comma = bounds.find(',');
  if (comma == std::string::npos)
    throw SearchError(head + "expected 'path:lo,hi[:kind]', missing ',' in bounds.");
  const std::string lo_s = bounds.substr(0, comma), hi_s = bounds.substr(comma + 1);
  if (!parse_py_float(lo_s, d.lo))
    throw SearchError(head + "could not parse bound as float (could not convert string to float: " + py_repr(lo_s) + ").");
  if (!parse_py_float(hi_s, d.hi))
    throw SearchError(head + "could not parse bound as float (could not convert string to float: " + py_repr(hi_s) + ").");
  if (d.hi <= d.lo) throw SearchError(head + "hi (" + py_float(d.hi) + ") must be > lo (" + py_float(d.lo) + ").");
  if (!std::isfinite(d.lo) || !std::isfinite(d.hi))
    throw SearchError("--search-space " + py_repr(raw) + ": lo/hi must be finite, got " +
                      py_float(std::isfinite(d.lo) ? d.hi : d.lo) + ".");
  // The reference's dotted-path grammar: non-empty segments separated by dots.
  if (d.path.empty() || d.path.front() == '.' || d.path.back() == '.' || d.path.find("..") != std::string::npos)
    throw SearchError("--search-space " + py_repr(raw) + ": invalid dotted path " + py_repr(d.path) + ".");
  return d;
}

SlaFilter parse_sla_filter(const std::string& raw) {
  const std::string head = "--search-sla " + py_repr(raw) + ": ";
  const auto parts = split(raw, ':');
  if (parts.size() != 4)
    throw SearchError(head + "expected 4 colon-separated parts 'metric_tag:stat:op:threshold', got " +
                      std::to_string(parts.size()) + ". Example: 'time_to_first_token:p95:lt:200'.");
  SlaFilter f;
  f.metric_tag = parts[0];
  f.stat = parts[1];
  f.op = parts[2];
  if (!contains(kStats, f.stat))
    throw SearchError(head + "unknown stat " + py_repr(f.stat) + "; expected one of " + tuple_repr(kStats) + ".");
  if (!contains(kOps, f.op))
    throw SearchError(head + "unknown op " + py_repr(f.op) + "; expected one of " + tuple_repr(kOps) + ".");
  if (!parse_py_float(parts[3], f.threshold))
    throw SearchError(head + "threshold " + py_repr(parts[3]) + " is not a float.");
  if (util::trim(f.metric_tag, util::kAsciiSpace).empty())
    throw SearchError(head + "SLAFilter.metric_tag must be a non-empty, non-whitespace string matching a key in "
                             "RunResult.summary_metrics.");
  if (!std::isfinite(f.threshold))
    throw SearchError(head + "SLAFilter.threshold must be finite (NaN/inf comparisons would silently fail every "
                             "trial), got " + py_float(f.threshold) + ".");
  return f;
}

SloTier parse_sla_tier(const std::string& raw, size_t index) {
  if (util::trim(raw, util::kAsciiSpace).empty()) throw SearchError("--search-sla-tier: value must not be empty.");
  SloTier tier;
  std::string rest;
  const std::string first = raw.substr(0, raw.find(','));
  size_t colons = 0;
  for (char c : first) colons += c == ':' ? 1 : 0;
  if (colons != 3) {  // a label before the first filter
    const size_t colon = raw.find(':');
    tier.label = raw.substr(0, colon);
    rest = colon == std::string::npos ? "" : raw.substr(colon + 1);
    if (tier.label.empty())
      throw SearchError("--search-sla-tier " + py_repr(raw) + ": label before ':' must not be empty.");
  } else {
    tier.label = "tier_" + std::to_string(index + 1);
    rest = raw;
  }
  std::vector<std::string> filters;
  for (const auto& part : split(rest, ','))
    if (!util::trim(part, util::kAsciiSpace).empty()) filters.push_back(util::trim(part, util::kAsciiSpace));
  if (filters.empty())
    throw SearchError("--search-sla-tier " + py_repr(raw) + ": tier '" + tier.label +
                      "' contains zero filters. Each tier must have at least one filter in "
                      "'metric_tag:stat:op:threshold' format.");
  for (const auto& f : filters) {
    try {
      tier.filters.push_back(parse_sla_filter(f));
    } catch (const SearchError& e) {
      throw SearchError("--search-sla-tier " + py_repr(raw) + ": error parsing filter " + py_repr(f) + " in tier '" +
                        tier.label + "': " + e.what());
    }
  }
  return tier;
}

void check_tiers(const std::vector<SloTier>& tiers) {
  if (tiers.size() < 2 || tiers.size() > 10)
    throw SearchError("--search-sla-tier: expected between 2 and 10 tiers, got " + std::to_string(tiers.size()) + ".");
  for (size_t i = 0; i < tiers.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (tiers[i].label == tiers[j].label)
        throw SearchError("--search-sla-tier: duplicate label " + py_repr(tiers[i].label) + " (tiers " +
                          std::to_string(j + 1) + " and " + std::to_string(i + 1) +
                          "). Each tier must have a unique label.");
}

namespace {
// AIPerf's dotted config paths a search point can set, and the option that sets each.
const std::vector<std::pair<std::string, std::string>>& path_options() {
  static const std::vector<std::pair<std::string, std::string>> kPaths = {
      {"phases.profiling.concurrency", "--concurrency"},
      {"phases.profiling.prefill_concurrency", "--prefill-concurrency"},
      {"phases.profiling.rate", "--request-rate"},
      {"phases.profiling.requests", "--request-count"},
      {"phases.profiling.users", "--num-users"},
      {"datasets.main.prompts.isl", "--isl"},
      {"datasets.main.prompts.isl.mean", "--isl"},
      {"datasets.main.prompts.osl", "--osl"},
      {"datasets.main.prompts.osl.mean", "--osl"},
  };
  return kPaths;
}
}  // namespace

std::optional<std::string> option_for_path(const std::string& path) {
  for (const auto& [p, opt] : path_options())
    if (p == path) return opt;
  return std::nullopt;
}

std::string known_paths_text() {
  std::string out;
  for (const auto& [p, opt] : path_options()) out += (out.empty() ? "" : ", ") + p;
  return out;
}

std::string magic_list_field(const std::string& path) {
  static const std::vector<std::pair<std::string, std::string>> kFields = {
      {"phases.profiling.concurrency", "concurrency"},
      {"phases.profiling.prefill_concurrency", "prefill_concurrency"},
      {"phases.profiling.rate", "request_rate"},
      {"phases.profiling.requests", "request_count"},
      {"phases.profiling.duration", "benchmark_duration"},
      {"phases.profiling.sessions", "conversation_num"},
      {"phases.profiling.users", "num_users"},
      {"datasets.main.prompts.isl.mean", "prompt_input_tokens_mean"},
      {"datasets.main.prompts.isl.stddev", "prompt_input_tokens_stddev"},
      {"datasets.main.prompts.osl.mean", "prompt_output_tokens_mean"},
      {"datasets.main.prompts.osl.stddev", "prompt_output_tokens_stddev"},
      {"datasets.main.turns.mean", "conversation_turn_mean"},
  };
  for (const auto& [p, f] : kFields)
    if (p == path) return f;
  return path.substr(path.rfind('.') + 1);
}

std::vector<long long> logspace_int_steps(double lo, double hi, int steps) {
  if (steps < 2)
    throw SearchError("_logspace_int_steps: steps must be >= 2 (got " + std::to_string(steps) +
                      "); a single-point ramp degenerates and post-process can't compute a baseline.");
  if (lo <= 0)
    throw SearchError("_logspace_int_steps: lo must be > 0 (got " + py_float(lo) + ")");
  if (hi <= lo)
    throw SearchError("_logspace_int_steps: hi (" + py_float(hi) + ") must be > lo (" + py_float(lo) +
                      "); use --isl-min/--isl-max with hi > lo.");
  std::vector<long long> out;
  const double a = std::log(lo), b = std::log(hi);
  for (int i = 0; i < steps; ++i) {
    const double v = std::exp(a + (b - a) * i / (steps - 1));
    const long long r = std::max(static_cast<long long>(std::nearbyint(v)), 1LL);
    if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string merged_goodput(const std::string& user, const std::vector<std::pair<std::string, double>>& recipe) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::string word;
  for (size_t i = 0; i <= user.size(); ++i) {
    if (i < user.size() && !std::isspace(static_cast<unsigned char>(user[i]))) {
      word += user[i];
      continue;
    }
    if (word.empty()) continue;
    const size_t colon = word.find(':');
    pairs.emplace_back(word.substr(0, colon), colon == std::string::npos ? "" : word.substr(colon + 1));
    word.clear();
  }
  for (const auto& [tag, value] : recipe) {
    bool replaced = false;
    for (auto& p : pairs)
      if (p.first == tag) {
        p.second = py_float(value);
        replaced = true;
      }
    if (!replaced) pairs.emplace_back(tag, py_float(value));
  }
  std::string out;
  for (const auto& [tag, value] : pairs) out += (out.empty() ? "" : " ") + tag + ":" + value;
  return out;
}

nlohmann::ordered_json filter_json(const SlaFilter& f) {
  return {{"metric_tag", f.metric_tag}, {"stat", f.stat}, {"op", f.op}, {"threshold", f.threshold}};
}

nlohmann::ordered_json config_json(const Spec& spec) {
  nlohmann::ordered_json c;
  c["planner"] = spec.planner;
  std::string direction = spec.direction;
  for (char& ch : direction) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  c["objectives"] = nlohmann::ordered_json::array(
      {{{"metric", spec.metric}, {"stat", spec.stat}, {"direction", direction}, {"threshold", nullptr}}});
  c["outcome_constraints"] = nlohmann::ordered_json::array();
  c["max_iterations"] = spec.max_iterations;
  c["n_initial_points"] = spec.n_initial_points;
  c["random_seed"] = spec.random_seed ? nlohmann::ordered_json(*spec.random_seed) : nlohmann::ordered_json(nullptr);
  // The BO planners' three-signal stop knobs (the 1-D planners do not read them).
  c["improvement_patience"] = spec.improvement_patience;
  c["plateau_window"] = spec.plateau_window;
  c["plateau_threshold"] = spec.plateau_threshold;
  auto& space = c["search_space"] = nlohmann::ordered_json::array();
  for (const auto& d : spec.space) space.push_back({{"path", d.path}, {"lo", d.lo}, {"hi", d.hi}, {"kind", d.kind}});
  auto& filters = c["sla_filters"] = nlohmann::ordered_json::array();
  for (const auto& f : spec.sla_filters) filters.push_back(filter_json(f));
  if (!spec.tiers.empty()) {
    auto& tiers = c["tiers"] = nlohmann::ordered_json::array();
    for (const auto& t : spec.tiers) {
      nlohmann::ordered_json fs = nlohmann::ordered_json::array();
      for (const auto& f : t.filters) fs.push_back(filter_json(f));
      tiers.push_back({{"label", t.label}, {"filters", fs}});
    }
  }
  return c;
}

}  // namespace aiperf::cli::search
