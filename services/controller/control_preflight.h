// --reset-kv-cache before a run's services start (AIPerf 0.13's maybe_reset_kv_cache_before_run).
#pragma once
#include "config/run_config.h"

namespace aiperf::controller {

// POSTs the reset when the run asks for it; false (after printing "Error: reset_kv_cache
// failed before benchmark start: ..." and logging it) when it failed: the run does not start.
bool reset_kv_cache_before_run(const config::RunConfig& config);

}  // namespace aiperf::controller
