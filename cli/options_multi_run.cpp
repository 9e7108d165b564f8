// Multi-Run group (AIPerf 0.13): --num-profile-runs and the options of repeated trials and
// their convergence, and the parameter-sweep options (the lists themselves are found on the
// command line before parsing, cli/sweep_plan.h). The search options: cli/search_options.cpp.
#include <set>
#include <sstream>

#include "options.h"
#include "search_spec.h"
#include "validators.h"

namespace aiperf::cli {

void add_multi_run_options(CLI::App& app, ProfileOptions& o) {
  auto& m = o.multi_run;
  const char* g = "Multi-Run";
  app.add_option("--num-profile-runs", m.num_runs, "Trials of the benchmark (1-10); aggregated with confidence intervals")
      ->check(number_check(1, false, 10, "an integer from 1 to 10"))->group(g);
  app.add_option("--profile-run-cooldown-seconds", m.cooldown_seconds, "Pause between trials")
      ->check(kNonNegative)->group(g);
  app.add_option("--confidence-level", m.confidence_level, "Confidence level of the intervals, in (0, 1)")
      ->check(kFraction)->group(g);
  app.add_flag("--profile-run-disable-warmup-after-first,!--no-profile-run-disable-warmup-after-first",
               m.disable_warmup_after_first, "Warm up before the first trial only (default on)")->group(g);
  app.add_flag("--set-consistent-seed,!--no-set-consistent-seed", m.set_consistent_seed,
               "Without --random-seed, every trial uses seed 42 (default on)")->group(g);
  app.add_flag("--vary-seed-per-trial,!--no-vary-seed-per-trial", m.vary_seed_per_trial,
               "Each trial gets its own seed derived from --random-seed")->group(g);
  add_optional(app, "--convergence-metric", m.convergence_metric,
               "Stop early once this metric's trials agree (e.g. time_to_first_token)")->group(g);
  app.add_option("--convergence-stat", m.convergence_stat, "Statistic of the metric for ci_width and cv")
      ->transform(choice({"avg", "p50", "p90", "p95", "p99", "min", "max"}))->group(g);
  add_optional(app, "--convergence-threshold", m.convergence_threshold,
               "ci_width: relative CI width (0.10); cv: coefficient of variation (0.05); distribution: KS p-value (0.05)")
      ->check(kFraction)->group(g);
  app.add_option("--convergence-mode", m.convergence_mode, "ci_width, cv or distribution")
      ->transform(choice({"ci_width", "cv", "distribution"}))->group(g);
  // Sweeps: a comma list on --concurrency, --request-rate, --isl, ... (cli/sweep_plan.h).
  add_enum_option(app, "--sweep-type", m.sweep_type,
                  "How several swept lists combine: grid (every combination) or zip (element-wise)")
      ->transform(choice({"grid", "zip"}))
      ->group(g);
  add_enum_option(app, "--parameter-sweep-mode", m.parameter_sweep_mode,
                  "With --num-profile-runs: repeated (trials outer, points inner) or independent (all trials of a "
                  "point, then the next)")
      ->transform(choice({"repeated", "independent"}))
      ->group(g);
  app.add_option("--parameter-sweep-cooldown-seconds", m.parameter_sweep_cooldown_seconds, "Pause between sweep points")
      ->check(kNonNegative)->group(g);
  app.add_flag("--parameter-sweep-same-seed,!--no-parameter-sweep-same-seed", m.parameter_sweep_same_seed,
               "Every sweep point uses the same random seed (default: seed + point index)")->group(g);
  app.add_flag("--no-sweep-table", m.no_sweep_table, "No per-point table on the console during a sweep")->group(g);
  app.add_option(
         "--variant,--sweep-variant", m.variants,
         "'[name:] key=value, ...' (repeatable, at least twice): a scenario sweep, one point per variant, each the "
         "command line with those options set (keys: option names without --)")
      ->group(g);
  add_search_options(app, o);  // --search-*, --search-recipe and the recipe options (search_options.cpp)
}

// AIPerf's `[name:] key=value, key=value` grammar (its variant_parser), with its messages for a
// malformed variant. Values are kept as typed, quotes around one stripped.
Variant parse_variant(const std::string& s) {
  const auto trim = [](const std::string& t) {
    const auto b = t.find_first_not_of(" \t"), e = t.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : t.substr(b, e - b + 1);
  };
  const std::string raw = trim(s), quoted = search::py_repr(s);
  if (raw.empty()) throw OptionError("--variant: variant string is empty");
  Variant v;
  std::string body = raw;
  if (const auto colon = raw.find(':');
      colon != std::string::npos && raw.substr(0, colon).find('=') == std::string::npos) {
    v.name = trim(raw.substr(0, colon));
    if (v.name->empty()) throw OptionError("--variant: variant " + quoted + ": empty name before ':'");
    body = trim(raw.substr(colon + 1));
  }
  if (body.empty()) throw OptionError("--variant: variant " + quoted + ": empty body");
  std::set<std::string> keys;
  std::stringstream ss(body);
  for (std::string chunk; std::getline(ss, chunk, ',');) {
    chunk = trim(chunk);
    if (chunk.empty()) continue;
    const auto eq = chunk.find('=');
    if (eq == std::string::npos)
      throw OptionError("--variant: variant " + quoted + ": token " + search::py_repr(chunk) +
                        " is missing '=' (expected key=value)");
    const std::string key = trim(chunk.substr(0, eq));
    if (key.empty())
      throw OptionError("--variant: variant " + quoted + ": empty key in token " + search::py_repr(chunk));
    if (!keys.insert(key).second)
      throw OptionError("--variant: variant " + quoted + ": duplicate key " + search::py_repr(key));
    std::string value = trim(chunk.substr(eq + 1));
    if (value.size() >= 2 && value.front() == value.back() && (value.front() == '\'' || value.front() == '"'))
      value = value.substr(1, value.size() - 2);
    v.pairs.emplace_back(key, value);
  }
  if (keys.empty()) throw OptionError("--variant: variant " + quoted + ": no key=value pairs");
  return v;
}

void finalize_multi_run_options(ProfileOptions& o) {
  auto& m = o.multi_run;
  if (!m.variants.empty()) {
    // The reference's checks, in its order.
    if (m.variants.size() == 1)
      throw OptionError(
          "--variant: single occurrence is rejected. Use the individual --isl/--osl/--concurrency flags "
          "for a one-off; --variant is for multi-variant sweeps. Pass --variant at least twice to "
          "declare a ScenarioSweep.");
    if (o.search.recipe)
      throw OptionError(
          "--variant is mutually exclusive with --search-recipe. Drop one: recipes own the sweep "
          "parameters, --variant declares scenarios.");
    if (!o.search.space.empty())
      throw OptionError(
          "--variant is mutually exclusive with a YAML-declared sweep block (or --search-* flags). Drop "
          "--variant or remove the sweep configuration.");
    // Each variant is run by main.cpp as a sweep point (variant_sweep.h); here only its grammar.
    for (const auto& v : m.variants) parse_variant(v);
  }
  finalize_search_options(o);
  if (m.convergence_metric && m.num_runs < 2)
    throw OptionError("--convergence-metric: needs --num-profile-runs of at least 2 (the most trials to run)");
  // Confidence across trials needs the same workload in each: AIPerf fills in seed 42.
  if (m.enabled() && m.set_consistent_seed && !o.config.input.random_seed) o.config.input.random_seed = 42;
}

}  // namespace aiperf::cli
