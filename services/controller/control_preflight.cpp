#include "control_preflight.h"

#include <iostream>

#include "control/run_hooks.h"
#include "log/log.h"

namespace aiperf::controller {

bool reset_kv_cache_before_run(const config::RunConfig& config) {
  if (!config.endpoint.reset_kv_cache) return true;
  const control::HookPlan plan = control::hook_plan(config);
  try {
    auto transport = control::make_http_transport(config.endpoint.verify_tls);
    control::run_reset_kv_cache(plan, *transport, control::steady_probe_clock());
    for (const auto& url : plan.reset_urls) AIPERF_LOG(kInfo) << "reset_kv_cache: POST " << url << " succeeded";
    return true;
  } catch (const control::ControlHookError& e) {
    const std::string what = std::string("reset_kv_cache failed before benchmark start: ") + e.what();
    std::cerr << "Error: " << what << "\n";
    AIPERF_LOG(kError) << what;
    return false;
  }
}

}  // namespace aiperf::controller
