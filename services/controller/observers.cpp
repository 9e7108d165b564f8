#include "observers.h"

#include "api/api_server.h"
#include "ui/make_ui.h"
#include "worker_monitor.h"

namespace aiperf::controller {

Observers make_observers(const config::RunConfig& config, RunControl& control) {
  Observers observers;
  // Remote workers can join any tcp mesh, even without --workers-remote.
  if (!config.service.zmq_host.empty()) observers.push_back(std::make_unique<WorkerMonitor>(control));
  if (auto ui = ui::make_ui(config)) observers.push_back(std::move(ui));
  if (config.service.api_port) observers.push_back(std::make_unique<api::ApiServer>(config));
  return observers;
}

}  // namespace aiperf::controller
