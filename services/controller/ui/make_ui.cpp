#include "make_ui.h"

#include <unistd.h>

#include "dashboard_ui.h"
#include "log/log.h"
#include "simple_ui.h"

namespace aiperf::controller::ui {

std::unique_ptr<RunObserver> make_ui(const config::RunConfig& config) {
  switch (config.service.ui_type) {
    case config::UiType::kDashboard:
      if (::isatty(STDOUT_FILENO)) return std::make_unique<DashboardUi>(config, STDOUT_FILENO);
      AIPERF_LOG(kWarning) << "--ui-type dashboard needs a terminal on stdout; using the simple progress bars";
      return std::make_unique<SimpleUi>(config, STDERR_FILENO);
    case config::UiType::kSimple:
      return std::make_unique<SimpleUi>(config, STDERR_FILENO);
    case config::UiType::kNone:
      return nullptr;
  }
  return nullptr;  // not reached: the switch covers every UiType
}

}  // namespace aiperf::controller::ui
