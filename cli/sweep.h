// `aiperf profile` with a comma list on a sweepable option (AIPerf 0.13's parameter sweep):
// every sweep point (cli/sweep_plan.h) runs as its own trial process, alone or
// --num-profile-runs times, in AIPerf's layout:
//   one trial per point          <artifact-dir>/<point>/                  e.g. concurrency_4/
//   trials, --parameter-sweep-mode repeated (default)
//                                <artifact-dir>/profile_runs/trial_NNNN/<point>/
//   trials, independent          <artifact-dir>/<point>/profile_runs/trial_NNNN/
// then each point's confidence aggregate (aggregate/<point>/, or <point>/aggregate/ when
// independent) and the sweep aggregate profile_export_aiperf_sweep.{json,csv} in
// sweep_aggregate/ (aggregate/sweep_aggregate/ for repeated trials).
#pragma once
#include <vector>

#include "config/run_config.h"
#include "options.h"
#include "sweep_plan.h"

namespace aiperf::cli {

// `configs[i]` is point i's fully validated config (its own seed not yet applied). Exit code:
// 0 when at least two runs succeeded (AIPerf's rule for an aggregate), 1 otherwise; 130 / 143
// when interrupted (what finished is aggregated).
int run_sweep(const std::vector<sweep::Point>& points, const std::vector<config::RunConfig>& configs,
              const std::string& artifact_dir, const ProfileOptions::MultiRun& m);

}  // namespace aiperf::cli
