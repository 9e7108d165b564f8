#include "telemetry_core.h"

#include <algorithm>
#include <cstdio>

#include "export/summary_json.h"
#include "log/log.h"
#include "server_counters.h"
#include "sglang_spec_console.h"
#include "util/output_paths.h"
#include "util/version.h"

namespace aiperf::telemetry {
namespace {

Nanos telemetry_seconds_to_ns(double s) { return static_cast<Nanos>(s * 1e9); }

}  // namespace

TelemetryCore::TelemetryCore(Timers& timers, ScraperPort& scraper, TelemetryOutput& output)
    : timers_(timers), scraper_(scraper), output_(output) {}

TelemetryCore::~TelemetryCore() {
  if (started_) scraper_.stop();
}

std::string TelemetryCore::output_path(const std::string& default_name, const std::string& prefix_suffix) const {
  const std::string& prefix = config_.output.profile_export_prefix;
  if (!prefix.empty()) return config_.output.artifact_dir + "/" + prefix + prefix_suffix;
  return util::artifact_file(config_, default_name);
}

bool TelemetryCore::configure(const config::RunConfig& config) {
  config_ = config;
  const auto& t = config.telemetry;
  std::lock_guard lock(mutex_);
  auto add = [this](const std::vector<std::string>& urls, bool gpu, bool user) {
    for (const auto& url : urls) targets_.push_back(TargetState{url, gpu, user, false, ""});
  };
  if (t.gpu_enabled) {
    add(t.gpu_urls, true, true);
    add(t.gpu_default_urls, true, false);
  }
  if (t.server_metrics_enabled) {
    add(t.server_metrics_urls, false, true);
    add(t.server_metrics_default_urls, false, false);
    bool jsonl = false;
    for (const auto& f : t.server_metrics_formats) jsonl = jsonl || f == "jsonl";
    server_ = std::make_unique<ServerMetrics>(
        jsonl ? output_path("server_metrics_export.jsonl", "_server_metrics.jsonl") : "",
        config_.output.slice_duration);
  }
  return !targets_.empty();
}

void TelemetryCore::start() {
  const auto& t = config_.telemetry;
  std::vector<ScrapeTarget> scrape_targets;
  {
    std::lock_guard lock(mutex_);
    for (const TargetState& target : targets_)
      scrape_targets.push_back(
          {target.url, telemetry_seconds_to_ns(target.gpu ? t.gpu_interval_s : t.server_metrics_interval_s)});
  }
  // Scraping starts at configure, before profiling: the first scrape is every counter's
  // baseline, and configure is answered once it is in (a fast start-up otherwise began sending
  // first).
  started_ = true;
  scraper_.start(
      std::move(scrape_targets), t.scrape_timeout_s, [this](const Scrape& s) { on_scrape(s); },
      [this] { output_.baseline_done(); });
}

void TelemetryCore::on_scrape(const Scrape& s) {
  std::lock_guard lock(mutex_);
  if (finished_ || s.target >= targets_.size()) return;
  TargetState& target = targets_[s.target];
  if (!s.ok) {
    target.last_error = s.error;
    return;
  }
  bool useful = false;
  if (target.gpu) {
    useful = gpu_.add_scrape(target.url, s.wall_ns, s.body) > 0;
    if (!useful) target.last_error = "no DCGM GPU metrics in the response";
  } else {
    // The phase the scrape started in: the last tag from at or before its request's start.
    const ScrapePhase* phase = nullptr;
    for (const auto& [from_ns, tag] : phases_)
      if (from_ns <= s.wall_ns) phase = tag ? &*tag : nullptr;
    useful = server_->add_scrape(target.url, s.wall_ns, s.first_byte_wall_ns, s.latency_ns, s.body, phase);
    if (!useful) target.last_error = "not Prometheus text";
  }
  if (useful && !target.ok) AIPERF_LOG(kInfo) << "telemetry: " << target.url << " reachable";
  target.ok = target.ok || useful;
}

void TelemetryCore::on_phase_event(const proto::PhaseEvent& event) {
  const bool warmup = event.phase() == proto::PHASE_WARMUP;
  std::lock_guard lock(mutex_);
  if (event.kind() == proto::PHASE_EVENT_START) {
    // AIPerf 0.13's identity of a command-line phase: its index among the run's phases (the
    // warmup first), the profiling phase's index among profiling phases, its name and kind.
    ScrapePhase tag;
    tag.phase = tag.name = tag.kind = warmup ? "warmup" : "profiling";
    tag.phase_index = phase_starts_++;
    if (!warmup) tag.profiling_index = 0;
    phases_.emplace_back(event.start_wall_ns(), std::move(tag));
  } else if (event.kind() == proto::PHASE_EVENT_COMPLETE && warmup) {
    phases_.emplace_back(event.end_wall_ns(), std::nullopt);
  }
}

std::vector<TelemetryCore::TargetState> TelemetryCore::targets() const {
  std::lock_guard lock(mutex_);
  return targets_;
}

void TelemetryCore::on_profile_results(const proto::ProfileResults& results) {
  if (results_) return;
  results_ = results;
  if (!started_) return finish();
  // The final scrape catches what the last requests did. It asks only endpoints that have
  // answered, with a short deadline: the run's end must not wait on a stalled exporter.
  std::vector<size_t> reachable;
  {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < targets_.size(); ++i)
      if (targets_[i].ok) reachable.push_back(i);
  }
  const double timeout_s = std::min(config_.telemetry.scrape_timeout_s, kFinalScrapeTimeoutS);
  final_timer_ = timers_.call_after(telemetry_seconds_to_ns(timeout_s) + kFinalScrapeGraceNs, [this] { finish(); });
  scraper_.scrape_now(std::move(reachable), timeout_s, [this] { finish(); });
}

void TelemetryCore::finish() {
  if (finished_) return;
  if (started_) scraper_.stop();
  timers_.cancel(final_timer_);
  std::lock_guard lock(mutex_);
  finished_ = true;
  proto::TelemetryResults r;
  int64_t start_ns = results_->start_ns();
  int64_t end_ns = results_->end_ns();
  if (end_ns <= start_ns) end_ns = start_ns + 1;

  std::vector<std::string> gpu_configured, gpu_ok, server_configured, server_ok;
  for (const TargetState& t : targets_) {
    // AIPerf 0.13 lists the GPU endpoints the user named plus the defaults that answered (an
    // unreachable default is not "configured"); server metrics list every target.
    if (!t.gpu || t.user_given || t.ok) (t.gpu ? gpu_configured : server_configured).push_back(t.url);
    if (t.ok) (t.gpu ? gpu_ok : server_ok).push_back(t.url);
    if (t.ok) continue;
    const std::string what = t.gpu ? "GPU telemetry endpoint " : "server metrics endpoint ";
    const std::string why = t.last_error.empty() ? "no response" : t.last_error;
    AIPERF_LOG(kInfo) << "telemetry: " << what << t.url << " unreachable (" << why << ")";
    if (t.user_given) r.add_warnings(what + t.url + " unreachable (" + why + "); no metrics from it");
  }

  try {
    // SGLang's speculative-decoding table, which AIPerf 0.13 prints after the power-efficiency
    // tables and before the GPU ones (on its own when GPU telemetry is off).
    std::string spec_unicode, spec_ascii;
    if (server_ && !server_ok.empty()) {
      spec_unicode = sglang_spec_decode_console(server_->series(), start_ns, config_.endpoint.model_names, true);
      spec_ascii = sglang_spec_decode_console(server_->series(), start_ns, config_.endpoint.model_names, false);
    }
    if (!config_.telemetry.gpu_enabled && !spec_unicode.empty()) {
      r.set_console_unicode("\n" + spec_unicode);
      r.set_console_ascii("\n" + spec_ascii);
    }
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
      std::string efficiency_unicode, efficiency_ascii;
      for (const std::string& platform : gpu_.platforms()) {
        // AIPerf 0.13's window: the profiling phase, the energy counter read up to a grace
        // after it (the scrape that closes the phase lands after its end).
        double duration_s = static_cast<double>(results_->end_ns() - results_->start_ns()) / 1e9;
        if (duration_s <= 0) {
          const auto [first, last] = gpu_.scrape_span();
          duration_s = static_cast<double>(last - first) / 1e9;
        }
        std::optional<int64_t> concurrency;
        if (config_.loadgen.concurrency) concurrency = *config_.loadgen.concurrency;
        const auto efficiency = metrics::energy_efficiency_metrics(
            platform, gpu_.energy_totals(platform, start_ns, results_->end_ns(), kEnergyGraceNs), duration_s,
            metrics::run_totals(*results_, concurrency));
        for (const auto& m : efficiency) *r.add_efficiency_metrics() = m;
        efficiency_unicode += power_efficiency_console(platform, efficiency, true);
        efficiency_ascii += power_efficiency_console(platform, efficiency, false);
      }
      r.set_console_unicode(telemetry_console(gpus, gpu_configured, gpu_ok, true, efficiency_unicode, spec_unicode));
      r.set_console_ascii(telemetry_console(gpus, gpu_configured, gpu_ok, false, efficiency_ascii, spec_ascii));
    }
    if (server_) {
      server_->flush_jsonl();
      const std::string jsonl = output_path("server_metrics_export.jsonl", "_server_metrics.jsonl");
      if (server_ok.empty()) {
        std::remove(jsonl.c_str());  // opened at configure, never written
      } else {
        if (auto totals = known_counter_totals(server_->series(), start_ns, end_ns))
          r.set_server_counters_json(exporting::counter_totals_json(*totals).dump());
        ExportHeader header{util::kVersion, config_.benchmark_id, config::input_config_json(config_, true)};
        for (const auto& format : config_.telemetry.server_metrics_formats) {
          if (format == "json") {
            const std::string path = output_path("server_metrics_export.json", "_server_metrics.json");
            util::write_file_atomically(path,
                                        server_->export_json(header, server_configured, server_ok, start_ns, end_ns)
                                            .dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
            r.add_export_lines("Server Metrics JSON Export: " + path);
          } else if (format == "csv") {
            const std::string path = output_path("server_metrics_export.csv", "_server_metrics.csv");
            util::write_file_atomically(path, server_->export_csv(header, start_ns));
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
  output_.results(r);
}

}  // namespace aiperf::telemetry
