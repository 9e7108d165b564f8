// The probe and the hooks as a run configures them (RunConfig -> settings), and the three
// moments a run calls them: the CLI's pre-flight probe, the reset before the services start
// (controller, once per run or trial) and the profiler around the profiling phase (timing).
#pragma once
#include "config/run_config.h"
#include "control_hooks.h"
#include "readiness_probe.h"

namespace aiperf::control {

// The headers every control request carries, as the reference's auth_headers_for_endpoint:
// the -H headers, then the API key (Bearer, or x-api-key + anthropic-version for messages).
Headers control_headers(const config::RunConfig& config);

ProbeSettings probe_settings(const config::RunConfig& config);
HookPlan hook_plan(const config::RunConfig& config);

}  // namespace aiperf::control
