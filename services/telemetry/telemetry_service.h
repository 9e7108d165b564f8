// Telemetry service: scrapes DCGM exporters (GPU telemetry, spec §6.7) and the inference
// server's Prometheus endpoints (server metrics, §6.8) on its own scraper thread from configure
// until the run's results, then answers the ProfileResults with one final scrape and the
// TelemetryResults the controller puts into the summary exports. Endpoints that never answer
// are dropped with one warning (user-given URLs only: the defaults are tried quietly).
// Configure completes after the first scrape of every endpoint (at most the scrape timeout).
#pragma once
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "gpu_telemetry.h"
#include "scraper.h"
#include "server_metrics.h"
#include "service/service.h"

namespace aiperf::telemetry {

class TelemetryService final : public service::Service {
 public:
  using Service::Service;
  ~TelemetryService() override;

 private:
  enum class Kind { kGpu, kServer };
  struct Target {
    std::string url;
    Kind kind;
    bool user_given;
    bool ok = false;         // at least one useful scrape
    std::string last_error;  // of the most recent failed scrape
  };

  void on_configure(const config::RunConfig& config) override;
  void on_bus(std::string_view topic, const proto::BusMessage& msg) override;
  void on_scrape(const Scrape& scrape);  // scraper thread
  void finish();                         // reactor thread, once
  std::string output_path(const std::string& default_name, const std::string& prefix_suffix) const;

  config::RunConfig config_;
  std::mutex mutex_;  // guards targets_, gpu_, server_ (the scraper thread writes them)
  std::vector<Target> targets_;
  GpuTelemetry gpu_;
  std::unique_ptr<ServerMetrics> server_;
  std::unique_ptr<Scraper> scraper_;
  std::optional<proto::ProfileResults> results_;
  int final_fd_ = -1;  // eventfd: the final scrape completed
  // Configure is answered once every target's first scrape (the counters' baseline) has
  // completed, answered or failed, so that no profiling request precedes the baseline.
  int baseline_fd_ = -1;  // eventfd: every target's first scrape completed
  bool finished_ = false;
};

}  // namespace aiperf::telemetry
