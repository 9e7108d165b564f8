// Telemetry service: the process around TelemetryCore (telemetry_core.h), which holds the
// rules (targets, baseline, warnings, final scrape, exports). This class subscribes to the
// run's results, answers configure once the core's baseline is in, publishes the core's
// TelemetryResults, and scrapes through ThreadScraper: a Scraper thread whose completion
// callbacks come back to the reactor thread through eventfds.
#pragma once
#include <functional>
#include <memory>

#include "scraper.h"
#include "service/service.h"
#include "telemetry_core.h"

namespace aiperf::telemetry {

// ScraperPort on a Scraper thread: scrapes reach the sink on that thread; first_round_done
// and done run on the reactor's thread.
class ThreadScraper final : public ScraperPort {
 public:
  explicit ThreadScraper(bus::Reactor& reactor) : reactor_(reactor) {}
  ~ThreadScraper() override;
  ThreadScraper(const ThreadScraper&) = delete;
  ThreadScraper& operator=(const ThreadScraper&) = delete;

  void start(std::vector<ScrapeTarget> targets, double timeout_s, Sink sink,
             std::function<void()> first_round_done) override;
  void scrape_now(std::vector<size_t> targets, double timeout_s, std::function<void()> done) override;
  void stop() override;

 private:
  bus::Reactor& reactor_;
  std::unique_ptr<Scraper> scraper_;
  int baseline_fd_ = -1;  // eventfd: every target's first scrape completed
  int final_fd_ = -1;     // eventfd: the final scrape completed
  std::function<void()> first_round_done_;
  std::function<void()> final_done_;
};

class TelemetryService final : public service::Service, private TelemetryOutput {
 public:
  TelemetryService(service::Identity identity, bus::Endpoints endpoints);

 private:
  void on_configure(const config::RunConfig& config) override;
  void on_bus(std::string_view topic, const proto::BusMessage& msg) override;
  void baseline_done() override;
  void results(const proto::TelemetryResults& results) override;

  ThreadScraper scraper_;  // before core_: the core stops it when destroyed
  TelemetryCore core_;
};

}  // namespace aiperf::telemetry
