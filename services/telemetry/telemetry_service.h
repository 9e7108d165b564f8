// Telemetry service: GPU (DCGM) and server-metrics scraping. For now it only takes part in
// the lifecycle (registers, configures, shuts down); scraping is tracked in its own issue.
#pragma once
#include "service/service.h"

namespace aiperf::telemetry {

class TelemetryService final : public service::Service {
 public:
  using Service::Service;

 private:
  void on_configure(const config::RunConfig& config) override {}
};

}  // namespace aiperf::telemetry
