#include "telemetry_service.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "export/summary_json.h"
#include "log/log.h"
#include "server_counters.h"
#include "util/output_paths.h"
#include "util/version.h"

namespace aiperf::telemetry {
namespace {

using util::kVersion;
// The final scrape's deadline: duration runs end within duration + grace + 1 s (issue #5).
constexpr double kFinalScrapeTimeoutS = 0.5;

int64_t seconds_to_ns(double s) { return static_cast<int64_t>(s * 1e9); }

}  // namespace

TelemetryService::~TelemetryService() {
  if (scraper_) scraper_->stop();
  if (final_fd_ >= 0) ::close(final_fd_);
  if (baseline_fd_ >= 0) ::close(baseline_fd_);
}

std::string TelemetryService::output_path(const std::string& default_name, const std::string& prefix_suffix) const {
  const std::string& prefix = config_.output.profile_export_prefix;
  if (!prefix.empty()) return config_.output.artifact_dir + "/" + prefix + prefix_suffix;
  return util::artifact_file(config_, default_name);
}

void TelemetryService::on_configure(const config::RunConfig& config) {
  config_ = config;
  subscribe(bus::topic::kResults);
  const auto& t = config.telemetry;
  auto add = [this](const std::vector<std::string>& urls, Kind kind, bool user) {
    for (const auto& url : urls) targets_.push_back(Target{url, kind, user, false, ""});
  };
  if (t.gpu_enabled) {
    add(t.gpu_urls, Kind::kGpu, true);
    add(t.gpu_default_urls, Kind::kGpu, false);
  }
  if (t.server_metrics_enabled) {
    add(t.server_metrics_urls, Kind::kServer, true);
    add(t.server_metrics_default_urls, Kind::kServer, false);
    bool jsonl = false;
    for (const auto& f : t.server_metrics_formats) jsonl = jsonl || f == "jsonl";
    server_ = std::make_unique<ServerMetrics>(
        jsonl ? output_path("server_metrics_export.jsonl", "_server_metrics.jsonl") : "");
  }
  if (targets_.empty()) return;
  final_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  reactor().add_fd(final_fd_, [this] {
    uint64_t n;
    while (::read(final_fd_, &n, sizeof n) == sizeof n) {
    }
    finish();
  });
  std::vector<ScrapeTarget> scrape_targets;
  for (const Target& target : targets_)
    scrape_targets.push_back({target.url, seconds_to_ns(target.kind == Kind::kGpu ? t.gpu_interval_s
                                                                                    : t.server_metrics_interval_s)});
  // Scraping starts now, before profiling: the first scrape is every counter's baseline, and
  // configure is answered once it is in (a fast start-up otherwise began sending first).
  baseline_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  reactor().add_fd(baseline_fd_, [this] {
    uint64_t n;
    if (::read(baseline_fd_, &n, sizeof n) == sizeof n) complete_configure(true);
  });
  defer_configure_response();
  scraper_ = std::make_unique<Scraper>(std::move(scrape_targets), t.scrape_timeout_s,
                                       [this](const Scrape& s) { on_scrape(s); });
  const int fd = baseline_fd_;
  scraper_->start([fd] {
    const uint64_t one = 1;
    (void)!::write(fd, &one, sizeof one);
  });
}

void TelemetryService::on_scrape(const Scrape& s) {
  std::lock_guard lock(mutex_);
  if (finished_) return;
  Target& target = targets_[s.target];
  if (!s.ok) {
    target.last_error = s.error;
    return;
  }
  bool useful = false;
  if (target.kind == Kind::kGpu) {
    useful = gpu_.add_scrape(target.url, s.wall_ns, s.body) > 0;
    if (!useful) target.last_error = "no DCGM GPU metrics in the response";
  } else {
    useful = server_->add_scrape(target.url, s.wall_ns, s.first_byte_wall_ns, s.latency_ns, s.body);
    if (!useful) target.last_error = "not Prometheus text";
  }
  if (useful && !target.ok) AIPERF_LOG(kInfo) << "telemetry: " << target.url << " reachable";
  target.ok = target.ok || useful;
}

void TelemetryService::on_bus(std::string_view, const proto::BusMessage& msg) {
  if (!msg.has_profile_results() || results_) return;
  results_ = msg.profile_results();
  if (!scraper_) return finish();
  // The final scrape catches what the last requests did. It asks only endpoints that have
  // answered, with a short deadline: the run's end must not wait on a stalled exporter.
  std::vector<size_t> reachable;
  {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < targets_.size(); ++i)
      if (targets_[i].ok) reachable.push_back(i);
  }
  const double timeout_s = std::min(config_.telemetry.scrape_timeout_s, kFinalScrapeTimeoutS);
  const int fd = final_fd_;
  scraper_->scrape_now(std::move(reachable), timeout_s, [fd] {
    const uint64_t one = 1;
    (void)!::write(fd, &one, sizeof one);
  });
  reactor().call_after(seconds_to_ns(timeout_s + 0.1), [this] { finish(); });
}

void TelemetryService::finish() {
  if (finished_) return;
  if (scraper_) scraper_->stop();
  std::lock_guard lock(mutex_);
  finished_ = true;
  proto::BusMessage out;
  proto::TelemetryResults& r = *out.mutable_telemetry_results();
  int64_t start_ns = results_->start_ns();
  int64_t end_ns = results_->end_ns();
  if (end_ns <= start_ns) end_ns = start_ns + 1;

  std::vector<std::string> gpu_configured, gpu_ok, server_configured, server_ok;
  for (const Target& t : targets_) {
    const bool gpu = t.kind == Kind::kGpu;
    // AIPerf 0.13 lists the GPU endpoints the user named plus the defaults that answered (an
    // unreachable default is not "configured"); server metrics list every target.
    if (!gpu || t.user_given || t.ok) (gpu ? gpu_configured : server_configured).push_back(t.url);
    if (t.ok) (gpu ? gpu_ok : server_ok).push_back(t.url);
    if (t.ok) continue;
    const std::string what = gpu ? "GPU telemetry endpoint " : "server metrics endpoint ";
    const std::string why = t.last_error.empty() ? "no response" : t.last_error;
    AIPERF_LOG(kInfo) << "telemetry: " << what << t.url << " unreachable (" << why << ")";
    if (t.user_given) r.add_warnings(what + t.url + " unreachable (" + why + "); no metrics from it");
  }

  try {
    if (config_.telemetry.gpu_enabled) {
      // As AIPerf 0.13: with GPU telemetry on, the summary JSON's telemetry_data, the CSV's GPU
      // header and the console's GPU part are there even when no exporter answered.
      const std::vector<GpuSummary> gpus = gpu_.has_data() ? gpu_.summarize(start_ns) : std::vector<GpuSummary>{};
      // Label values are the exporter's bytes: invalid UTF-8 is replaced, as in the other exports.
      r.set_telemetry_data_json(telemetry_data_json(gpus, gpu_configured, gpu_ok, start_ns, end_ns)
                                    .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
      r.set_csv_section(telemetry_csv_section(gpus));
      if (gpu_.has_data()) {
        const std::string path = output_path("gpu_telemetry_export.jsonl", "_gpu_telemetry.jsonl");
        util::write_file_atomically(path, gpu_.jsonl());
        r.add_export_lines("GPU Telemetry: " + path);
      }
      r.set_console_unicode(telemetry_console(gpus, gpu_configured, gpu_ok, true));
      r.set_console_ascii(telemetry_console(gpus, gpu_configured, gpu_ok, false));
    }
    if (server_) {
      server_->flush_jsonl();
      const std::string jsonl = output_path("server_metrics_export.jsonl", "_server_metrics.jsonl");
      if (server_ok.empty()) {
        std::remove(jsonl.c_str());  // opened at configure, never written
      } else {
        if (auto totals = known_counter_totals(server_->series(), start_ns, end_ns))
          r.set_server_counters_json(exporting::counter_totals_json(*totals).dump());
        ExportHeader header{kVersion, config_.benchmark_id, config::input_config_json(config_)};
        for (const auto& format : config_.telemetry.server_metrics_formats) {
          if (format == "json") {
            const std::string path = output_path("server_metrics_export.json", "_server_metrics.json");
            util::write_file_atomically(
                path, server_->export_json(header, server_configured, server_ok, start_ns, end_ns)
                              .dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
            r.add_export_lines("Server Metrics JSON Export: " + path);
          } else if (format == "csv") {
            const std::string path = output_path("server_metrics_export.csv", "_server_metrics.csv");
            util::write_file_atomically(path, server_->export_csv(header, start_ns, end_ns));
            r.add_export_lines("Server Metrics CSV Export: " + path);
          } else if (format == "jsonl") {
            r.add_export_lines("Server Metrics JSONL Export: " + jsonl);
          }
        }
      }
    }
  } catch (const std::exception& e) {
    r.add_warnings(std::string("telemetry exports failed: ") + e.what());
  }
  publish(bus::topic::kTelemetry, out);
}

}  // namespace aiperf::telemetry
