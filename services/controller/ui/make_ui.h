// The progress UI observer --ui-type selects (nullptr for none).
#pragma once
#include <memory>

#include "config/run_config.h"
#include "run_observer.h"

namespace aiperf::controller::ui {

// dashboard needs stdout to be a terminal; otherwise it falls back to simple (with a warning).
std::unique_ptr<RunObserver> make_ui(const config::RunConfig& config);

}  // namespace aiperf::controller::ui
