// The run observers a configuration asks for (UI, live API, remote-worker monitor).
#pragma once
#include "config/run_config.h"
#include "run_observer.h"

namespace aiperf::controller {

// Builds every observer the configuration enables; each is independent of the others.
Observers make_observers(const config::RunConfig& config, RunControl& control);

}  // namespace aiperf::controller
