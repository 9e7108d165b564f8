// Multi-Run group (AIPerf 0.13): --num-profile-runs and the options of repeated trials and
// their convergence, and the parameter-sweep options (the lists themselves are found on the
// command line before parsing, cli/sweep_plan.h). The search options: cli/search_options.cpp.
#include "options.h"
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
  add_search_options(app, o);  // --search-*, --search-recipe and the recipe options (search_options.cpp)
}

void finalize_multi_run_options(ProfileOptions& o) {
  auto& m = o.multi_run;
  finalize_search_options(o);
  if (m.convergence_metric && m.num_runs < 2)
    throw OptionError("--convergence-metric: needs --num-profile-runs of at least 2 (the most trials to run)");
  // Confidence across trials needs the same workload in each: AIPerf fills in seed 42.
  if (m.enabled() && m.set_consistent_seed && !o.config.input.random_seed) o.config.input.random_seed = 42;
}

}  // namespace aiperf::cli
