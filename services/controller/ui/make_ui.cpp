#include "make_ui.h"

#include <unistd.h>

#include "dashboard_ui.h"
#include "log/log.h"
#include "simple_ui.h"

namespace aiperf::controller::ui {

std::unique_ptr<RunObserver> make_ui(const config::RunConfig& config) {
  const std::string& type = config.service.ui_type;
  if (type == "dashboard") {
    if (::isatty(STDOUT_FILENO)) return std::make_unique<DashboardUi>(config, STDOUT_FILENO);
    AIPERF_LOG(kWarning) << "--ui-type dashboard needs a terminal on stdout; using the simple progress bars";
    return std::make_unique<SimpleUi>(config, STDERR_FILENO);
  }
  if (type == "simple") return std::make_unique<SimpleUi>(config, STDERR_FILENO);
  return nullptr;
}

}  // namespace aiperf::controller::ui
