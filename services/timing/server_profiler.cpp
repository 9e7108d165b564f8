#include "server_profiler.h"

#include "control/run_hooks.h"
#include "log/log.h"

namespace aiperf::timing {

ServerProfiler::ServerProfiler(control::HookPlan plan, std::unique_ptr<control::ControlTransport> transport)
    : plan_(std::move(plan)), transport_(std::move(transport)) {}

std::string ServerProfiler::start() {
  try {
    control::start_server_profiler(plan_, *transport_);
  } catch (const control::ControlHookError& e) {
    AIPERF_LOG(kError) << "server_profiler start failed: " << e.what();
    return std::string("server_profiler start failed: ") + e.what();
  }
  started_ = true;
  for (const auto& url : plan_.profiler_start_urls) AIPERF_LOG(kInfo) << "server_profiler: POST " << url << " succeeded";
  return {};
}

void ServerProfiler::stop() {
  if (!started_) return;
  started_ = false;
  try {
    control::stop_server_profiler(plan_, *transport_);
    for (const auto& url : plan_.profiler_stop_urls) AIPERF_LOG(kInfo) << "server_profiler: POST " << url << " succeeded";
  } catch (const control::ControlHookError& e) {
    AIPERF_LOG(kWarning) << "server_profiler stop failed: " << e.what();
  }
}

std::unique_ptr<ServerProfiler> make_server_profiler(const config::RunConfig& config) {
  return std::make_unique<ServerProfiler>(control::hook_plan(config),
                                          control::make_http_transport(config.endpoint.verify_tls));
}

}  // namespace aiperf::timing
