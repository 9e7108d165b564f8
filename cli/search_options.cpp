// The Multi-Run group's search options (AIPerf 0.13): --search-* (an adaptive search over one
// or more config paths), --search-recipe with its SLA targets and grid overrides. Validation
// follows the reference's order and messages; then the search is resolved to a search::Spec
// that cli/search_run.h executes, or to a search::GridRecipe (a sweep plus a post-process:
// concurrency-ramp, prefill-ttft-curve, decode-itl-curve, pareto-sweep, max-concurrency-under-sla
// --search-style grid) that main.cpp runs through search_grid.h. Planners (all native): bayesian
// and optuna (search_bo_planner.h), monotonic_sla
// (search_planner.h), smooth_isotonic, and the multi-tier planner for --search-sla-tier.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "options.h"
#include "search_pareto.h"
#include "search_planner.h"
#include "sweep_plan.h"
#include "validators.h"

namespace aiperf::cli {
namespace {

const std::vector<std::string> kRecipes = {"concurrency-ramp",        "decode-itl-curve",        "max-concurrency-under-sla",
                                           "max-goodput-under-slo",   "max-throughput-itl-sla",  "max-throughput-ttft-sla",
                                           "pareto-sweep",            "prefill-ttft-curve"};

// Python's repr() of a sorted list of field names: ['a', 'b'].
std::string list_repr(std::vector<std::string> items) {
  std::sort(items.begin(), items.end());
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + search::py_repr(items[i]);
  return out + "]";
}

std::string py_num(double v) {
  // The reference prints the recipe thresholds as Python floats.
  return sweep::python_str(nlohmann::json(v));
}

// The recipe-defining and tunable --search-* options that were given, by field name.
struct Given {
  std::vector<std::string> defining, tunable;
};

Given given_search_fields(const ProfileOptions::Search& s) {
  Given g;
  auto d = [&](bool set, const char* f) { if (set) g.defining.push_back(f); };
  d(!s.space.empty(), "search_space");
  d(s.metric.has_value(), "search_metric");
  d(s.stat.has_value(), "search_stat");
  d(s.direction.has_value(), "search_direction");
  d(s.planner.has_value(), "search_planner");
  d(s.optuna_sampler.has_value(), "optuna_sampler");
  d(s.optuna_acquisition.has_value(), "optuna_acquisition");
  d(s.optuna_terminator.has_value(), "optuna_terminator");
  d(s.percentile_pooling.has_value(), "search_percentile_pooling");
  d(s.bo_constraint_mode.has_value(), "bo_constraint_mode");
  if (s.max_iterations) g.tunable.push_back("search_max_iterations");
  if (s.initial_points) g.tunable.push_back("search_initial_points");
  if (s.random_seed) g.tunable.push_back("search_random_seed");
  return g;
}

// The inter-token SLA: --tpot-sla-ms and --itl-sla-ms are aliases.
std::optional<double> inter_token_sla(const ProfileOptions::Search& s) {
  if (s.tpot_sla_ms && s.itl_sla_ms && *s.tpot_sla_ms != *s.itl_sla_ms)
    throw OptionError("--tpot-sla-ms and --itl-sla-ms are aliases for the same inter-token-latency SLA but were set to "
                      "different values (" + py_num(*s.tpot_sla_ms) + " vs " + py_num(*s.itl_sla_ms) +
                      "); pass only one.");
  return s.tpot_sla_ms ? s.tpot_sla_ms : s.itl_sla_ms;
}

void require_streaming(const ProfileOptions& o, const std::string& recipe, const std::string& reason) {
  if (!o.config.endpoint.streaming)
    throw OptionError("recipe " + search::py_repr(recipe) + " requires --streaming (" + reason +
                      "); enable streaming on the endpoint or pick a different recipe.");
}

std::pair<int, int> concurrency_bounds(const ProfileOptions::Search& s, const std::string& recipe, int lo, int hi) {
  lo = s.concurrency_min.value_or(lo);
  hi = s.concurrency_max.value_or(hi);
  if (lo >= hi)
    throw OptionError("recipe " + search::py_repr(recipe) + ": --concurrency-min (" + std::to_string(lo) +
                      ") must be < --concurrency-max (" + std::to_string(hi) +
                      "); inverted bounds collapse the search space.");
  return {lo, hi};
}

search::Spec concurrency_search(int lo, int hi, const std::string& prior, int max_iterations, int initial_points) {
  search::Spec spec;
  spec.space.push_back({"phases.profiling.concurrency", static_cast<double>(lo), static_cast<double>(hi), "int", prior});
  spec.metric = "output_token_throughput";
  spec.stat = "avg";
  spec.direction = "maximize";
  spec.max_iterations = max_iterations;
  spec.n_initial_points = initial_points;
  return spec;
}

// A grid recipe takes no BO budget flags.
void reject_tunables(const ProfileOptions::Search& s, const std::string& name) {
  const Given tun = given_search_fields(s);
  if (tun.tunable.empty()) return;
  std::vector<std::string> flags;
  for (auto f : tun.tunable) {
    std::replace(f.begin(), f.end(), '_', '-');
    flags.push_back("--" + f);
  }
  throw OptionError("--search-recipe " + search::py_repr(name) + " expanded to a grid sweep, but tunable --search-* "
                    "flags " + list_repr(flags) + " are only meaningful for BO recipes. Drop the flags or pick a "
                    "BO recipe.");
}

// --search-recipe: the reference's checks, then the recipe's search, or
// for a grid recipe nothing (o.search.grid is set instead).
std::optional<search::Spec> expand_recipe(ProfileOptions& o) {
  auto& s = o.search;
  const std::string& name = *s.recipe;
  if (std::find(kRecipes.begin(), kRecipes.end(), name) == kRecipes.end()) {
    std::string list;
    for (const auto& r : kRecipes) list += (list.empty() ? "" : ", ") + r;
    throw OptionError("--search-recipe: Type " + search::py_repr(name) +
                      " not found for category 'search_recipe'. Available types: " + list);
  }
  const Given given = given_search_fields(s);
  if (!given.defining.empty())
    throw OptionError("--search-recipe " + search::py_repr(name) + " is mutually exclusive with recipe-defining "
                      "--search-* flags " + list_repr(given.defining) +
                      ". These flags choose the objective / search space / planner -- the recipe owns those. Tunable "
                      "knobs (--search-max-iterations, --search-initial-points, --search-random-seed) are accepted "
                      "alongside a recipe.");
  search::Spec spec;
  const std::string style = s.style.value_or("");
  if (name == "max-throughput-ttft-sla" || name == "max-throughput-itl-sla") {
    const bool ttft = name == "max-throughput-ttft-sla";
    const std::optional<double> threshold = ttft ? s.ttft_sla_ms : inter_token_sla(s);
    if (!threshold)
      throw OptionError(ttft ? "recipe 'max-throughput-ttft-sla' requires --ttft-sla-ms (TTFT SLA threshold in "
                               "milliseconds); pass it on the CLI alongside --search-recipe."
                             : "recipe 'max-throughput-itl-sla' requires --itl-sla-ms (or its alias --tpot-sla-ms); "
                               "pass one on the CLI alongside --search-recipe.");
    require_streaming(o, name, ttft ? "TTFT is a streaming-only metric" : "ITL is a streaming-only metric");
    const auto [lo, hi] = concurrency_bounds(s, name, 1, 1000);
    spec = concurrency_search(lo, hi, "log-uniform", 30, 5);
    spec.sla_filters.push_back({ttft ? "time_to_first_token" : "inter_token_latency", "p95", "lt", *threshold});
    // Bayesian optimization (the `bayesian` planner), as the reference; --search-style monotonic or
    // smooth_isotonic (ours for this recipe) finds the SLA boundary instead, where throughput
    // peaks when it grows with concurrency.
    if (style == "monotonic") spec.planner = "monotonic_sla";
    if (style == "smooth_isotonic") spec.planner = "smooth_isotonic";
  } else if (name == "max-concurrency-under-sla") {
    std::vector<search::SlaFilter> filters;
    if (s.ttft_sla_ms) filters.push_back({"time_to_first_token", "p95", "lt", *s.ttft_sla_ms});
    if (const auto itl = inter_token_sla(s)) filters.push_back({"inter_token_latency", "p95", "lt", *itl});
    if (s.e2e_sla_ms) filters.push_back({"request_latency", "p99", "lt", *s.e2e_sla_ms});
    if (s.error_rate_sla) filters.push_back({"request_error_rate", "avg", "lt", *s.error_rate_sla * 100.0});
    if (filters.empty())
      throw OptionError("recipe 'max-concurrency-under-sla' requires at least one of --ttft-sla-ms / --tpot-sla-ms / "
                        "--itl-sla-ms / --e2e-sla-ms / --error-rate-sla; pass at least one on the CLI alongside "
                        "--search-recipe.");
    for (const auto& f : filters)
      if (f.metric_tag == "time_to_first_token" || f.metric_tag == "inter_token_latency") {
        require_streaming(o, name, "SLA filters reference streaming-only metrics (TTFT, ITL/TPOT)");
        break;
      }
    const auto [lo, hi] = concurrency_bounds(s, name, 1, 1000);
    const std::string st = style.empty() ? "smooth_isotonic" : style;
    if (st == "monotonic") {
      spec = concurrency_search(lo, hi, "uniform", 20, 1);
      spec.planner = "monotonic_sla";
    } else if (st == "smooth_isotonic") {
      spec = concurrency_search(lo, hi, "uniform", 30, 1);
      spec.planner = "smooth_isotonic";
    } else if (st == "bo" || st == "optuna") {
      spec = concurrency_search(lo, hi, "log-uniform", 30, 5);
      spec.planner = st == "bo" ? "bayesian" : "optuna";
    } else {  // grid: a log-spaced sweep, then sla_breach.json
      search::GridRecipe g;
      g.recipe = name;
      g.option = "--concurrency";
      g.path = "phases.profiling.concurrency";
      g.values = search::logspace_int_steps(lo, hi, 8);
      g.handler = "sla_breach_knee";
      g.sla_filters = filters;
      nlohmann::ordered_json fs = nlohmann::ordered_json::array();
      for (const auto& f : filters) fs.push_back(search::filter_json(f));
      g.params = {{"sla_filters", fs}, {"swept_param", g.path}};
      g.output_filename = "sla_breach.json";
      reject_tunables(s, name);
      s.grid = std::move(g);
      return std::nullopt;
    }
    spec.sla_filters = filters;
  } else if (name == "concurrency-ramp") {
    const auto [lo, hi] = concurrency_bounds(s, name, 1, 1000);
    search::GridRecipe g;
    g.recipe = name;
    g.option = "--concurrency";
    g.path = "phases.profiling.concurrency";
    try {
      g.values = search::logspace_int_steps(lo, hi, s.concurrency_steps.value_or(8));
    } catch (const search::SearchError& e) {
      throw OptionError(std::string("recipe 'concurrency-ramp': ") + e.what());
    }
    const std::string stat = s.degradation_stat.value_or("p99");
    const std::vector<std::string> stats{"avg", "p50", "p90", "p95", "p99"};
    if (std::find(stats.begin(), stats.end(), stat) == stats.end())
      throw OptionError("--degradation-stat: degradation_knee_detect: params['stat']=" + search::py_repr(stat) +
                        " is not a recognized statistic; expected one of ('avg', 'p50', 'p90', 'p95', 'p99').");
    g.handler = "degradation_knee_detect";
    g.params = {{"threshold_pct", s.degradation_threshold.value_or(0.20)},
                {"metric_tag", s.degradation_metric_tag.value_or("request_latency")},
                {"stat", stat},
                {"swept_param", g.path}};
    g.output_filename = "degradation_knee.json";
    g.auto_plot_default = true;
    reject_tunables(s, name);
    s.grid = std::move(g);
    return std::nullopt;
  } else if (name == "prefill-ttft-curve") {
    require_streaming(o, name, "TTFT is a streaming-only metric");
    search::GridRecipe g;
    g.recipe = name;
    g.option = "--isl";
    g.path = "datasets.main.prompts.isl";
    try {
      g.values = search::logspace_int_steps(s.isl_min.value_or(256), s.isl_max.value_or(32768), s.isl_steps.value_or(8));
    } catch (const search::SearchError& e) {
      throw OptionError(std::string("recipe 'prefill-ttft-curve': ") + e.what());
    }
    g.fixed = {{"--concurrency", "1"}};
    g.handler = "ttft_curve_fit";
    g.params = {{"metric_tag", "time_to_first_token"}, {"stat", "avg"}, {"swept_param", g.path}};
    g.output_filename = "prefill_curve.json";
    g.auto_plot_default = true;
    reject_tunables(s, name);
    s.grid = std::move(g);
    return std::nullopt;
  } else if (name == "decode-itl-curve") {
    require_streaming(o, name, "ITL is a streaming-only metric");
    const auto [lo, hi] = concurrency_bounds(s, name, 1, 200);
    search::GridRecipe g;
    g.recipe = name;
    g.option = "--concurrency";
    g.path = "phases.profiling.concurrency";
    search::GridAxis osl{"--osl", "datasets.main.prompts.osl", {}};
    try {
      g.values = search::logspace_int_steps(lo, hi, s.concurrency_steps.value_or(6));
      osl.values = search::logspace_int_steps(s.osl_min.value_or(64), s.osl_max.value_or(1024), s.osl_steps.value_or(4));
    } catch (const search::SearchError& e) {
      throw OptionError(std::string("recipe 'decode-itl-curve': ") + e.what());
    }
    g.more_axes.push_back(std::move(osl));
    g.handler = "itl_surface_fit";
    g.params = {{"metric_tag", "inter_token_latency"},
                {"stat", "avg"},
                {"concurrency_param", "phases.profiling.concurrency"},
                {"osl_param", "datasets.main.prompts.osl"}};
    g.output_filename = "decode_itl_surface.json";
    g.auto_plot_default = true;
    reject_tunables(s, name);
    s.grid = std::move(g);
    return std::nullopt;
  } else if (name == "pareto-sweep") {
    require_streaming(o, name, "output_token_throughput is a streaming-only metric");
    if (!s.isl_osl_pairs || s.isl_osl_pairs->empty())
      throw OptionError("recipe 'pareto-sweep' requires --isl-osl-pairs (e.g. '128/128,256/256').");
    search::GridRecipe g;
    g.recipe = name;
    g.option = "--concurrency";  // its values: the --concurrency list (search_grid.h)
    g.path = "phases.profiling.concurrency";
    try {
      g.isl_osl_pairs = search::parse_isl_osl_pairs(*s.isl_osl_pairs);
    } catch (const search::SearchError& e) {
      throw OptionError(e.what());
    }
    g.handler = "pareto_sweep_export";
    g.params = {{"x_metric", "time_to_first_token"}, {"x_stat", "p95"},  {"y_metric", "output_token_throughput"},
                {"y_stat", "avg"},                   {"isl_key", "isl"}, {"osl_key", "osl"},
                {"concurrency_key", "concurrency"}};
    g.output_filename = "pareto_sweep.json";
    reject_tunables(s, name);
    s.grid = std::move(g);
    return std::nullopt;
  } else if (name == "max-goodput-under-slo") {
    const std::optional<double> ttft = s.ttft_sla_ms, tpot = inter_token_sla(s), e2e = s.e2e_sla_ms;
    std::string missing;
    for (const auto& [flag, v] : std::vector<std::pair<const char*, std::optional<double>>>{
             {"--ttft-sla-ms", ttft}, {"--tpot-sla-ms", tpot}, {"--e2e-sla-ms", e2e}})
      if (!v) missing += (missing.empty() ? "" : ", ") + std::string(flag);
    if (!missing.empty())
      throw OptionError("recipe 'max-goodput-under-slo' requires " + missing +
                        "; all three (--ttft-sla-ms, --tpot-sla-ms / --itl-sla-ms, --e2e-sla-ms) define what 'good' "
                        "means per request for the goodput formula. Pass them on the CLI alongside --search-recipe "
                        "max-goodput-under-slo.");
    const double attainment = s.slo_attainment_fraction.value_or(0.95);
    require_streaming(o, name, "TPOT is a streaming-only metric");
    const auto [lo, hi] = concurrency_bounds(s, name, 1, 1000);
    spec = concurrency_search(lo, hi, "log-uniform", 30, 5);
    spec.metric = "goodput";
    spec.sla_filters.push_back({"good_request_fraction", "avg", "ge", attainment});
    // The per-request SLOs become --goodput on every point (the user's own kept, the recipe's
    // winning on the same metric, as AIPerf merges its slos block).
    spec.point_options.emplace_back(
        "--goodput", search::merged_goodput(o.config.output.goodput.value_or(""),
                                            {{"time_to_first_token", *ttft}, {"inter_token_latency", *tpot}, {"request_latency", *e2e}}));
    // Bayesian optimization, as AIPerf; --search-style monotonic or smooth_isotonic finds the
    // attainment boundary instead (where goodput peaks when it grows with concurrency), and
    // --search-sla-tier makes it a multi-tier search.
    if (style == "monotonic") spec.planner = "monotonic_sla";
    if (style == "smooth_isotonic") spec.planner = "smooth_isotonic";
  }
  spec.recipe = name;
  if (s.max_iterations) spec.max_iterations = *s.max_iterations;
  if (s.initial_points) spec.n_initial_points = *s.initial_points;
  if (s.random_seed) spec.random_seed = *s.random_seed;
  return spec;
}

// The explicit --search-* flags.
std::optional<search::Spec> explicit_search(ProfileOptions& o) {
  auto& s = o.search;
  const Given given = given_search_fields(s);
  if (s.space.empty()) {
    std::vector<std::string> all = given.defining;
    all.insert(all.end(), given.tunable.begin(), given.tunable.end());
    if (!all.empty()) throw OptionError("--search-* flags " + list_repr(all) + " require --search-space.");
    return std::nullopt;
  }
  for (const auto& [field, flag] : std::vector<std::pair<bool, const char*>>{
           {s.metric.has_value(), "--search-metric"},
           {s.direction.has_value(), "--search-direction"},
           {s.max_iterations.has_value(), "--search-max-iterations"}})
    if (!field)
      throw OptionError(std::string("--search-space requires ") + flag +
                        " (companion flag missing). See docs/sweeping/bayesian-optimization.md for examples.");
  if (s.optuna_acquisition && s.optuna_sampler && *s.optuna_sampler != "botorch")
    throw OptionError("--optuna-acquisition " + search::py_repr(*s.optuna_acquisition) +
                      " requires --optuna-sampler botorch; got --optuna-sampler " + search::py_repr(*s.optuna_sampler) +
                      ". Acquisition overrides are only consulted on the BoTorch path.");
  if (s.percentile_pooling == "pooled" && s.stat == "avg")
    throw OptionError("--search-percentile-pooling pooled requires --search-stat to be a percentile (p50/p90/p95/p99); "
                      "pooling means is a no-op. Either switch --search-stat to a percentile or drop "
                      "--search-percentile-pooling.");
  search::Spec spec;
  try {
    for (const auto& raw : s.space) spec.space.push_back(search::parse_dimension(raw));
  } catch (const search::SearchError& e) {
    throw OptionError(e.what());
  }
  spec.metric = *s.metric;
  spec.stat = s.stat.value_or("avg");
  spec.direction = *s.direction;
  spec.max_iterations = *s.max_iterations;
  if (s.initial_points) spec.n_initial_points = *s.initial_points;
  spec.random_seed = s.random_seed;
  spec.planner = s.planner.value_or("bayesian");
  // The BO planners' knobs (search_bo_planner.h); the 1-D planners ignore them, as AIPerf's.
  spec.optuna_sampler = s.optuna_sampler.value_or("");
  spec.optuna_acquisition = s.optuna_acquisition;
  spec.optuna_terminator = s.optuna_terminator.value_or("none");
  spec.objective_pooling = s.percentile_pooling.value_or("mean");
  spec.constraint_mode = s.bo_constraint_mode.value_or("penalty");
  if (const auto& acq = s.optuna_acquisition; acq && (*acq == "qehvi" || *acq == "qnehvi" || *acq == "qlognehvi"))
    throw OptionError("--optuna-acquisition " + search::py_repr(*acq) +
                      " is multi-objective; got 1 objective. Use a single-objective acquisition (qlognei "
                      "recommended) or add a second objective.");
  return spec;
}

// AIPERF_SEARCH_PLANNER_* (AIPerf's environment knobs of the 1-D planners); a bad value is an
// error naming the variable.
void read_planner_environment(search::Spec& spec) {
  auto number = [](const char* name, double& target, bool zero_ok) {
    const char* v = std::getenv(name);
    if (!v) return;
    char* end = nullptr;
    const double d = std::strtod(v, &end);
    if (!*v || *end || !std::isfinite(d) || d < 0 || (!zero_ok && d == 0))
      throw OptionError(std::string(name) + ": must be a number " + (zero_ok ? ">= 0" : "> 0") + ", got '" + v + "'");
    target = d;
  };
  number("AIPERF_SEARCH_PLANNER_SLA_PRECISION_DEFAULT", spec.precision, false);
  number("AIPERF_SEARCH_PLANNER_DEFAULT_WARMUP_SECONDS", spec.warmup_seconds, false);
  number("AIPERF_SEARCH_PLANNER_FIRST_PROBE_WARMUP_FLOOR", spec.first_probe_floor, false);
  number("AIPERF_SEARCH_PLANNER_REPLICATE_WARMUP_FLOOR", spec.replicate_floor, false);
  if (const char* v = std::getenv("AIPERF_SEARCH_PLANNER_SLA_PRECISION_REQUESTS")) {
    // A JSON object of preset -> requests; the CLI's preset is "normal".
    try {
      const auto j = nlohmann::json::parse(v);
      if (j.contains("normal")) spec.precision_requests = j.at("normal").get<long long>();
    } catch (const std::exception&) {
      throw OptionError(std::string("AIPERF_SEARCH_PLANNER_SLA_PRECISION_REQUESTS: expected a JSON object such as "
                                    "'{\"normal\": 1000}', got '") + v + "'");
    }
  }
}

}  // namespace

void add_search_options(CLI::App& app, ProfileOptions& o) {
  auto& s = o.search;
  const char* g = "Multi-Run";
  app.add_option("--search-space", s.space, "Adaptive search dimension 'path:lo,hi[:kind]' (repeat for more)")
      ->group(g);
  add_optional(app, "--search-metric", s.metric, "Metric the search optimizes (e.g. output_token_throughput)")->group(g);
  add_optional(app, "--search-stat", s.stat, "Statistic of the search metric: avg, p50, p90, p95, p99 (default avg)")
      ->transform(choice({"avg", "p50", "p90", "p95", "p99"}))->group(g);
  add_optional(app, "--search-direction", s.direction, "maximize or minimize the search metric")
      ->transform(choice({"maximize", "minimize"}))->group(g);
  add_optional(app, "--search-max-iterations", s.max_iterations, "Most search iterations (2-200)")
      ->check(number_check(2, false, 200, "an integer from 2 to 200"))->group(g);
  add_optional(app, "--search-initial-points", s.initial_points, "Random points before the model fits (BO; default 5)")
      ->check(number_check(1, false, HUGE_VAL, "an integer >= 1"))->group(g);
  add_optional(app, "--search-random-seed", s.random_seed, "Seed of the search planner")
      ->check(kNonNegative)->group(g);
  add_optional(app, "--search-planner", s.planner,
               "bayesian (default: GP, noisy log EI), optuna (--optuna-sampler), monotonic_sla, smooth_isotonic")
      ->transform(choice({"bayesian", "monotonic_sla", "smooth_isotonic", "optuna"}))
      ->group(g);
  add_optional(app, "--optuna-sampler", s.optuna_sampler,
               "Sampler of --search-planner optuna: tpe, gp, botorch (default; native, no BoTorch needed)")
      ->transform(choice({"tpe", "gp", "botorch"}))
      ->group(g);
  add_optional(app, "--optuna-acquisition", s.optuna_acquisition,
               "Acquisition of --optuna-sampler botorch: logei, qlogei (log EI), qnei, qlognei (noisy log EI)")
      ->transform(choice({"logei", "qlogei", "qnei", "qlognei", "qehvi", "qnehvi", "qlognehvi"}))
      ->group(g);
  add_optional(app, "--optuna-terminator", s.optuna_terminator,
               "Extra stopping rule of the BO planners: regret, emmr, none")
      ->transform(choice({"regret", "emmr", "none"}))
      ->group(g);
  add_optional(app, "--search-percentile-pooling", s.percentile_pooling,
               "Percentile objective across trials: mean of per-trial values, or pooled over every request")
      ->transform(choice({"mean", "pooled"}))
      ->group(g);
  add_optional(app, "--bo-constraint-mode", s.bo_constraint_mode, "Deprecated; has no effect (penalty or eic)")
      ->transform(choice({"penalty", "eic"}))->group(g);
  app.add_option("--search-sla", s.sla, "SLA filter 'metric:stat:op:threshold' (repeat for more)")->group(g);
  app.add_option("--search-sla-tier", s.sla_tier, "SLO tier '[label:]filter[,filter...]' (2 to 10 tiers)")->group(g);
  add_optional(app, "--search-recipe", s.recipe, "Named search recipe (docs/user-guide.md, Searches and recipes)")
      ->group(g);
  add_optional(app, "--ttft-sla-ms", s.ttft_sla_ms, "Recipe SLA: p95 time to first token below this (ms)")
      ->check(kPositive)->group(g);
  add_optional(app, "--isl-osl-pairs", s.isl_osl_pairs, "pareto-sweep: 'isl/osl,...'")->group(g);
  add_optional(app, "--itl-sla-ms", s.itl_sla_ms, "Recipe SLA: p95 inter-token latency below this (ms)")
      ->check(kPositive)->group(g);
  add_optional(app, "--tpot-sla-ms", s.tpot_sla_ms, "Alias of --itl-sla-ms")->check(kPositive)->group(g);
  add_optional(app, "--e2e-sla-ms", s.e2e_sla_ms, "Recipe SLA: p99 request latency below this (ms)")
      ->check(kPositive)->group(g);
  add_optional(app, "--error-rate-sla", s.error_rate_sla, "Recipe SLA: error rate below this fraction")
      ->check(kFraction)->group(g);
  add_optional(app, "--slo-attainment-fraction", s.slo_attainment_fraction,
               "max-goodput-under-slo: fraction of requests meeting the SLOs (default 0.95)")
      ->check(number_check(0, true, 1, "a number in (0, 1]"))->group(g);
  add_optional(app, "--search-style", s.style,
               "max-concurrency-under-sla: smooth_isotonic (default), monotonic (both native), bo, optuna, grid")
      ->transform(choice({"smooth_isotonic", "monotonic", "bo", "optuna", "grid"}))->group(g);
  add_optional(app, "--degradation-threshold", s.degradation_threshold, "concurrency-ramp: degradation fraction")
      ->check(kFraction)->group(g);
  add_optional(app, "--degradation-metric-tag", s.degradation_metric_tag, "concurrency-ramp: metric (request_latency)")
      ->group(g);
  add_optional(app, "--degradation-stat", s.degradation_stat, "concurrency-ramp: statistic (p99)")->group(g);
  const auto at_least_1 = number_check(1, false, HUGE_VAL, "an integer >= 1");
  const auto at_least_2 = number_check(2, false, HUGE_VAL, "an integer >= 2");
  add_optional(app, "--isl-min", s.isl_min, "prefill-ttft-curve: lowest ISL (256)")->check(at_least_1)->group(g);
  add_optional(app, "--isl-max", s.isl_max, "prefill-ttft-curve: highest ISL (32768)")->check(at_least_1)->group(g);
  add_optional(app, "--isl-steps", s.isl_steps, "prefill-ttft-curve: ISL steps (8)")->check(at_least_2)->group(g);
  add_optional(app, "--concurrency-min", s.concurrency_min, "Recipes: lowest concurrency")->check(at_least_1)->group(g);
  add_optional(app, "--concurrency-max", s.concurrency_max, "Recipes: highest concurrency")->check(at_least_1)->group(g);
  add_optional(app, "--concurrency-steps", s.concurrency_steps, "Recipes: concurrency steps")
      ->check(at_least_2)->group(g);
  add_optional(app, "--osl-min", s.osl_min, "decode-itl-curve: lowest OSL (64)")->check(at_least_1)->group(g);
  add_optional(app, "--osl-max", s.osl_max, "decode-itl-curve: highest OSL (1024)")->check(at_least_1)->group(g);
  add_optional(app, "--osl-steps", s.osl_steps, "decode-itl-curve: OSL steps (4)")->check(at_least_2)->group(g);
}

void finalize_search_options(ProfileOptions& o) {
  auto& s = o.search;
  std::optional<search::Spec> spec = s.recipe ? expand_recipe(o) : explicit_search(o);
  std::vector<search::SlaFilter> extra;
  std::vector<search::SloTier> tiers;
  try {
    for (const auto& raw : s.sla) extra.push_back(search::parse_sla_filter(raw));
    for (size_t i = 0; i < s.sla_tier.size(); ++i) tiers.push_back(search::parse_sla_tier(s.sla_tier[i], i));
    if (!tiers.empty()) search::check_tiers(tiers);
  } catch (const search::SearchError& e) {
    throw OptionError(e.what());
  }
  if (!spec) return;  // a grid recipe, or --search-sla alone (the reference ignores it too)
  spec->sla_filters.insert(spec->sla_filters.end(), extra.begin(), extra.end());
  spec->tiers = tiers;
  if (o.multi_run.convergence_metric)
    throw OptionError("--search-* (Bayesian Optimization) is mutually exclusive with --convergence-metric (trial-level "
                      "adaptive early-stop). The two operate at different levels (outer-loop vs. inner-trial) and "
                      "their composition is undefined. Drop one of them.");
  const bool bo = spec->planner == "bayesian" || spec->planner == "optuna";
  if (bo && spec->n_initial_points >= spec->max_iterations)
    throw OptionError("n_initial_points (" + std::to_string(spec->n_initial_points) + ") must be < max_iterations (" +
                      std::to_string(spec->max_iterations) + "); otherwise the GP never fits.");
  std::set<std::string> seen;
  for (const auto& d : spec->space) {
    if (!seen.insert(d.path).second)
      throw OptionError("adaptive_search search_space dimensions must have unique paths; duplicates: ['" + d.path + "'].");
    if (!search::option_for_path(d.path))
      throw OptionError("--search-space " + search::py_repr(d.path) + ": not a path this aiperf can vary; use one of " +
                        search::known_paths_text() + ".");
  }
  read_planner_environment(*spec);
  // Two or more tiers choose the multi-tier planner whatever the search names (AIPerf warns so).
  if (search::multi_tier(*spec) && spec->planner != "smooth_isotonic")
    o.dry_run_notes.push_back("the search algorithm for --search-style " + spec->planner +
                              " is not used when --search-sla-tier is active; multi-tier uses its own "
                              "bracket/bisection method (the style's precision and warmup settings still apply)");
  // The planner must exist natively; its own checks (one int dimension, a filter) run here too.
  try {
    search::make_planner(*spec);
  } catch (const search::SearchError& e) {
    throw OptionError(e.what());
  }
  s.spec = std::move(spec);
}

}  // namespace aiperf::cli
