#include "service_command.h"

#include <cstdlib>

#include <signal.h>
#include <sys/resource.h>

#include <iostream>
#include <memory>

#include "bus/mesh_security.h"
#include "dataset_service.h"
#include "log/log.h"
#include "record_processor_service.h"
#include "records_service.h"
#include "telemetry_service.h"
#include "timing_service.h"
#include "util/uuid.h"
#include "worker_service.h"

namespace aiperf::cli {

namespace {
// Sending is latency-critical, turning records into metrics is not: on a shared host the
// record pipeline yields the CPU to the timing service and the workers. Lowering one's own
// priority needs no privilege.
constexpr int kBackgroundNice = 5;

void lower_priority_of_background_services(const std::string& type) {
  if (type != "record_processor" && type != "records" && type != "telemetry") return;
  // Linux applies nice per thread; threads created later (ZeroMQ's, the scraper's) inherit it.
  (void)::setpriority(PRIO_PROCESS, 0, kBackgroundNice);
}
}  // namespace

int run_service(const ServiceArgs& args) {
  lower_priority_of_background_services(args.type);
  log::Level level = log::Level::kInfo;
  if (!log::parse_level(args.log_level, level)) {
    std::cerr << "Error: --log-level: unknown level '" << args.log_level << "'\n";
    return 2;
  }
  const std::string id = args.service_id.empty() ? args.type + "_" + util::short_id() : args.service_id;
  log::init(id, args.log_file, level);
  bus::Endpoints endpoints;
  try {
    endpoints = bus::Endpoints::from_controller_address(args.controller);
  } catch (const std::exception& e) {
    std::cerr << "Error: --controller: " << e.what() << "\n";
    return 2;
  }
  // The mesh identity must be in place before the first socket connects or binds.
  if (!args.mesh_keys.empty() && endpoints.bus_frontend.rfind("tcp://", 0) == 0) {
    try {
      bus::install_mesh_security(args.joined ? bus::worker_mesh(args.mesh_keys)
                                             : bus::controller_mesh(args.mesh_keys, /*create=*/false));
    } catch (const std::exception& e) {
      std::cerr << "Error: --mesh-keys: " << e.what() << "\n";
      AIPERF_LOG(kError) << id << ": --mesh-keys: " << e.what();
      return 2;
    }
  }
  service::Identity identity{id, args.type, args.index};
  std::unique_ptr<service::Service> svc;
  try {
    if (args.type == "dataset") svc = std::make_unique<dataset::DatasetService>(identity, endpoints);
    else if (args.type == "timing") svc = std::make_unique<timing::TimingService>(identity, endpoints);
    else if (args.type == "worker") svc = std::make_unique<worker::WorkerService>(identity, endpoints);
    else if (args.type == "record_processor") svc = std::make_unique<record_processor::RecordProcessorService>(identity, endpoints);
    else if (args.type == "records") svc = std::make_unique<records::RecordsService>(identity, endpoints);
    else if (args.type == "telemetry") svc = std::make_unique<telemetry::TelemetryService>(identity, endpoints);
    else {
      std::cerr << "Error: --type: unknown service type '" << args.type
                << "'; valid: dataset, timing, worker, record_processor, records, telemetry\n";
      return 2;
    }
  } catch (const std::exception& e) {
    AIPERF_LOG(kError) << id << ": cannot start: " << e.what();
    return 1;
  }
  // tests/integration/profile_e2e_test.cpp loses commands on purpose this way.
  if (const char* drop = std::getenv("AIPERF_TEST_DROP_FIRST_COMMANDS")) svc->drop_first_commands(drop);
  AIPERF_LOG(kDebug) << id << " started";
  return svc->run();
}

}  // namespace aiperf::cli
