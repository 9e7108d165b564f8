// `aiperf profile --num-profile-runs N` (AIPerf 0.13's Multi-Run): the benchmark runs N times
// as separate trials, each a child process (`aiperf profile-trial <run_config.json>`) with its
// own artifact directory <artifact-dir>/profile_runs/run_NNNN/ (the usual files plus the
// run_config.json it ran), optionally stopping early once the trials agree (--convergence-*).
// Then <artifact-dir>/aggregate/profile_export_aiperf_aggregate.{json,csv} hold every metric
// statistic with its mean, spread and Student's t confidence interval across the trials.
#pragma once
#include <string>

#include "config/run_config.h"
#include "options.h"

namespace aiperf::cli {

// Runs the trials and writes the aggregate. Exit code: 0 when every trial exited 0; 1 when a
// trial failed or none succeeded (the aggregate covers the successful ones); 130 / 143 when
// interrupted (the trials finished so far are aggregated, the interrupted one is not).
int run_multi(const config::RunConfig& base, const ProfileOptions::MultiRun& options);

// The hidden `profile-trial` subcommand: one trial from its run_config.json.
int run_trial(const std::string& config_path);

}  // namespace aiperf::cli
