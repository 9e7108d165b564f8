// Runs an adaptive search (--search-* or --search-recipe with a native planner): the planner
// proposes a value, each proposal runs --num-profile-runs trial processes, the planner reads
// their summaries, until it converges. AIPerf 0.13's layout:
//   <artifact-dir>/search_iter_NNNN/profile_runs/run_NNNN/   one folder per trial of an iteration
//   <artifact-dir>/search_history.json                         rewritten after every iteration
// Progress (iteration, value, verdict, best so far) goes to stdout and the log.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/run_config.h"
#include "options.h"
#include "search_grid.h"
#include "search_spec.h"

namespace aiperf::cli {

// The config of one search point: the base command line with the searched option set to
// `value`, parsed and validated as a run of its own (main.cpp).
using PointConfig = std::function<config::RunConfig(const std::vector<std::string>& args)>;

// The command line of a search point: the searched option set to `value` and the spec's
// point_options (max-goodput-under-slo's --goodput) set, each replacing what `args` gave.
std::vector<std::string> search_point_args(const search::Spec& spec, const std::vector<std::string>& args,
                                           const std::string& value);

// Exit code: 0 when some iteration had a successful trial, 1 otherwise; 130 / 143 when
// interrupted (search_history.json then says "cancelled").
int run_search(const search::Spec& spec, const std::vector<std::string>& args, const PointConfig& point_config,
               const std::string& base_dir, const ProfileOptions::MultiRun& m);

// After a grid recipe's sweep (concurrency-ramp): its post-process artifact (degradation_knee.json)
// beside the sweep aggregate; a handler failure is logged and written as
// post_process_errors.json {handler, output_filename, error, type} (AIPerf's quarantine). The
// sweep's exit code `rc` is returned unchanged.
int finish_grid_recipe(const search::GridRecipe& recipe, int rc, const std::string& base_dir,
                       const ProfileOptions::MultiRun& m);

}  // namespace aiperf::cli
