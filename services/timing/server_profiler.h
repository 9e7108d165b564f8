// --server-profiler in the timing service: profiler start before the profiling phase's first
// credit, stop once its last credit returned (AIPerf 0.13's run_phase_with_server_profiler).
// The POSTs block the timing service's thread; nothing is in flight at either moment.
#pragma once
#include <memory>
#include <string>

#include "config/run_config.h"
#include "control/control_hooks.h"

namespace aiperf::timing {

class ServerProfiler {
 public:
  ServerProfiler(control::HookPlan plan, std::unique_ptr<control::ControlTransport> transport);
  // "" when started; else the error the run fails with ("server_profiler start failed: ...").
  std::string start();
  // A failed stop is a warning, never the run's failure (as the reference); a stop without a
  // start sends nothing.
  void stop();

 private:
  control::HookPlan plan_;
  std::unique_ptr<control::ControlTransport> transport_;
  bool started_ = false;
};

std::unique_ptr<ServerProfiler> make_server_profiler(const config::RunConfig& config);

}  // namespace aiperf::timing
