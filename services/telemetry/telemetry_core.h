// TelemetryCore: the telemetry service's rules, without its threads and sockets. It scrapes DCGM
// exporters (GPU telemetry, spec §6.7) and the inference server's Prometheus endpoints (server
// metrics, §6.8) from configure until the run's results, then answers the ProfileResults with
// one final scrape and the TelemetryResults the controller puts into the summary exports.
// Endpoints that never answer get one warning each (user-given URLs only: the defaults are
// tried quietly). Configure completes after every target's first scrape (the baseline).
// Scrapes come from a ScraperPort (a thread of HTTP requests in the service, scripted values
// in unit tests); time from the Timers port.
#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/run_config.h"
#include "control.pb.h"
#include "gpu_telemetry.h"
#include "results.pb.h"
#include "scraper.h"
#include "server_metrics.h"
#include "telemetry.pb.h"
#include "time/timers.h"

namespace aiperf::telemetry {

// Where scrapes come from. `sink` may run on any thread (the core locks); `first_round_done`
// and `done` run on the owner's thread, after the scrapes they follow went to the sink.
class ScraperPort {
 public:
  using Sink = std::function<void(const Scrape&)>;
  virtual ~ScraperPort() = default;
  // Scrapes every target at once, then each every its period, each request within
  // `timeout_s`. `first_round_done` once every target's first scrape completed or failed.
  virtual void start(std::vector<ScrapeTarget> targets, double timeout_s, Sink sink,
                     std::function<void()> first_round_done) = 0;
  // Scrapes the given targets (indices into start's targets) once more now, each within
  // `timeout_s`; `done` after the last of them completed.
  virtual void scrape_now(std::vector<size_t> targets, double timeout_s, std::function<void()> done) = 0;
  // No scrape reaches the sink after it returns. Idempotent.
  virtual void stop() = 0;
};

// What the core hands back to the service.
class TelemetryOutput {
 public:
  virtual ~TelemetryOutput() = default;
  // Every target's first scrape is in: configure may be answered.
  virtual void baseline_done() = 0;
  // The run's telemetry results, once.
  virtual void results(const proto::TelemetryResults& results) = 0;
};

class TelemetryCore {
 public:
  // The final scrape's deadline: duration runs end within duration + grace + 1 s (issue #5).
  static constexpr double kFinalScrapeTimeoutS = 0.5;
  // How long after the final scrape's deadline the results go out without it.
  static constexpr Nanos kFinalScrapeGraceNs = 100'000'000;
  // AIPerf 0.13's FINAL_SCRAPE_GRACE_NS: the energy counter's window runs this long past the
  // profiling end, so the scrape that closes the phase counts (2 x the 0.333 s period).
  static constexpr Nanos kEnergyGraceNs = 666'000'000;

  TelemetryCore(Timers& timers, ScraperPort& scraper, TelemetryOutput& output);
  ~TelemetryCore();  // stops the scraper
  TelemetryCore(const TelemetryCore&) = delete;
  TelemetryCore& operator=(const TelemetryCore&) = delete;

  // The run's targets: per enabled kind, the user's URLs then the defaults. Opens
  // server_metrics_export.jsonl when that format is asked for. Returns whether there is any
  // target, i.e. whether configure must wait for baseline_done().
  bool configure(const config::RunConfig& config);
  // Starts scraping the targets (after configure returned true).
  void start();
  // One scrape of target `scrape.target`; any thread.
  void on_scrape(const Scrape& scrape);
  // A credit phase started or completed (the timing service's phase events): server metrics
  // scrapes that start from a phase's start are tagged with it in server_metrics_export.jsonl,
  // as AIPerf 0.13 does; a warmup's tag ends with it, the profiling phase's holds to the end.
  void on_phase_event(const proto::PhaseEvent& event);
  // The run's results: one final scrape of the targets that answered, within
  // min(--scrape-timeout, kFinalScrapeTimeoutS), then the TelemetryResults. Later calls do
  // nothing.
  void on_profile_results(const proto::ProfileResults& results);

  struct TargetState {
    std::string url;
    bool gpu = false;
    bool user_given = false;
    bool ok = false;         // at least one useful scrape
    std::string last_error;  // of the most recent failed scrape
  };
  std::vector<TargetState> targets() const;

 private:
  void finish();  // once
  std::string output_path(const std::string& default_name, const std::string& prefix_suffix) const;

  Timers& timers_;
  ScraperPort& scraper_;
  TelemetryOutput& output_;
  config::RunConfig config_;
  mutable std::mutex mutex_;  // guards targets_, gpu_, server_, phases_, finished_ (scrapes arrive on any thread)
  std::vector<TargetState> targets_;
  GpuTelemetry gpu_;
  std::unique_ptr<ServerMetrics> server_;
  // From which wall time which phase tag holds (none: between phases), in time order.
  std::vector<std::pair<int64_t, std::optional<ScrapePhase>>> phases_;
  int phase_starts_ = 0;
  bool started_ = false;
  std::optional<proto::ProfileResults> results_;
  Timers::TimerId final_timer_ = 0;
  bool finished_ = false;
};

}  // namespace aiperf::telemetry
