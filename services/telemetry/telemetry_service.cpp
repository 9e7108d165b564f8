#include "telemetry_service.h"

#include <sys/eventfd.h>
#include <unistd.h>

namespace aiperf::telemetry {
namespace {

void signal_eventfd(int fd) {
  const uint64_t one = 1;
  (void)!::write(fd, &one, sizeof one);
}

}  // namespace

ThreadScraper::~ThreadScraper() {
  stop();
  if (final_fd_ >= 0) ::close(final_fd_);
  if (baseline_fd_ >= 0) ::close(baseline_fd_);
}

void ThreadScraper::start(std::vector<ScrapeTarget> targets, double timeout_s, Sink sink,
                          std::function<void()> first_round_done) {
  first_round_done_ = std::move(first_round_done);
  final_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  reactor_.add_fd(final_fd_, [this] {
    uint64_t n;
    while (::read(final_fd_, &n, sizeof n) == sizeof n) {}
    if (final_done_) final_done_();
  });
  baseline_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  reactor_.add_fd(baseline_fd_, [this] {
    uint64_t n;
    if (::read(baseline_fd_, &n, sizeof n) == sizeof n && first_round_done_) first_round_done_();
  });
  scraper_ = std::make_unique<Scraper>(std::move(targets), timeout_s, std::move(sink));
  const int fd = baseline_fd_;
  scraper_->start([fd] { signal_eventfd(fd); });
}

void ThreadScraper::scrape_now(std::vector<size_t> targets, double timeout_s, std::function<void()> done) {
  final_done_ = std::move(done);
  const int fd = final_fd_;
  scraper_->scrape_now(std::move(targets), timeout_s, [fd] { signal_eventfd(fd); });
}

void ThreadScraper::stop() {
  if (scraper_) scraper_->stop();
}

TelemetryService::TelemetryService(service::Identity identity, bus::Endpoints endpoints)
    : Service(std::move(identity), std::move(endpoints)), scraper_(reactor()), core_(reactor(), scraper_, *this) {}

void TelemetryService::on_configure(const config::RunConfig& config) {
  subscribe(bus::topic::kResults);
  subscribe(bus::topic::kPhase);
  if (!core_.configure(config)) return;
  defer_configure_response();
  core_.start();
}

void TelemetryService::baseline_done() { complete_configure(true); }

void TelemetryService::on_bus(std::string_view, const proto::BusMessage& msg) {
  if (msg.has_phase_event()) core_.on_phase_event(msg.phase_event());
  if (msg.has_profile_results()) core_.on_profile_results(msg.profile_results());
}

void TelemetryService::results(const proto::TelemetryResults& results) {
  proto::BusMessage out;
  *out.mutable_telemetry_results() = results;
  publish(bus::topic::kTelemetry, out);
}

}  // namespace aiperf::telemetry
