#include "records_core.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "endpoints/endpoint.h"
#include "endpoints/metric_context_for.h"
#include "export/console_table.h"
#include "log/log.h"
#include "metrics/record_jsonl.h"
#include "accuracy/results.h"
#include "outputs_json.h"
#include "raw_merge.h"
#include "util/output_paths.h"

namespace aiperf::records {
namespace {

constexpr Nanos kSecond = 1'000'000'000;

metrics::MetricContext context_for(const config::RunConfig& config) {
  const endpoints::EndpointInfo* ep = endpoints::find_endpoint(config.endpoint.type);
  if (!ep) throw std::runtime_error("unknown endpoint type " + config.endpoint.type);
  return endpoints::metric_context_for(config, *ep);
}

// `timing_lost`: the timing service counted credits of workers it lost (the bus may not have
// announced them yet).
const char* loss_type(const std::vector<proto::ServiceLost>& lost, bool timing_lost) {
  bool workers = timing_lost, processors = false;
  for (const auto& l : lost) (l.service_type() == "worker" ? workers : processors) = true;
  if (workers && processors) return "ServiceLost";
  return workers ? "WorkerLost" : "RecordProcessorLost";
}

}  // namespace

RecordsCore::RecordsCore(const config::RunConfig& config, Timers& timers, ResultsSink& sink,
                         std::unique_ptr<LineLog> log)
    : config_(config),
      timers_(timers),
      sink_(sink),
      log_(std::move(log)),
      context_(context_for(config)),
      aggregator_(context_) {
  if (config.output.slice_duration) timeslices_ = std::make_unique<Timeslices>(context_, *config.output.slice_duration);
}

RecordsCore::~RecordsCore() {
  timers_.cancel(deadline_timer_);
  timers_.cancel(quiet_timer_);
}

void RecordsCore::append_line(const proto::MetricRecord& record) {
  if (!log_) return;
  metrics::append_record_jsonl(lines_, record, context_);
  lines_ += '\n';
}

void RecordsCore::add(const proto::MetricRecord& rec) {
  if (rec.metadata().phase() != proto::PHASE_PROFILING || finished_) return;
  rec.has_error() ? ++errors_ : ++success_;
  maybe_hint_cache_reporting(rec);
  aggregator_.add(rec);
  if (timeslices_) timeslices_->add(rec);
  append_line(rec);
  fresh_ = true;
  check_failed_threshold();
}

void RecordsCore::maybe_hint_cache_reporting(const proto::MetricRecord& rec) {
  // AIPerf 0.13 warns once, at the first record with usage prompt tokens but no prompt-cache
  // reads, so a long run can be stopped and restarted with the server's cache reporting on.
  if (cache_hint_logged_) return;
  bool prompt = false;
  for (const auto& m : rec.metrics()) {
    if (m.tag() == "usage_prompt_cache_read_tokens") return;
    prompt = prompt || m.tag() == "usage_prompt_tokens";
  }
  if (!prompt) return;
  cache_hint_logged_ = true;
  if (!log::enabled(log::Level::kWarning)) return;
  // A progress display (simple or dashboard UI) owns the terminal: the line goes to the log
  // file only there (the dashboard shows the log's tail), and the console repeats the hint with
  // the results.
  if (config_.service.ui_type == config::UiType::kNone) {
    log::write(log::Level::kWarning, exporting::kCacheReportingHint);
  } else {
    log::write_to_file(log::Level::kWarning, exporting::kCacheReportingHint);
  }
}

void RecordsCore::check_failed_threshold() {
  const auto& threshold = config_.loadgen.failed_request_threshold;
  if (!threshold || threshold_tripped_) return;
  // The grace floor: a single early failure must not end the run.
  const uint64_t floor = std::max<uint64_t>(config_.loadgen.profiling.concurrency.value_or(1), 10);
  const uint64_t total = received();
  if (total < floor) return;
  const double rate = static_cast<double>(errors_) / static_cast<double>(total);
  if (rate <= *threshold) return;
  threshold_tripped_ = true;
  char ratio[96];
  std::snprintf(ratio, sizeof ratio, " = %.3f > %.3f", rate, *threshold);
  const std::string reason = "--failed-request-threshold exceeded: " + std::to_string(errors_) + "/" +
                             std::to_string(total) + ratio + " (grace floor " + std::to_string(floor) +
                             "): run cancelled";
  AIPERF_LOG(kWarning) << reason;
  sink_.cancel_run(reason);
}

double RecordsCore::network_rtt_ns() const {
  const auto& n = config_.network_latency;
  if (!n.enabled) return 0;
  std::optional<double> rtt;
  if (n.mean_ms) {
    rtt = *n.mean_ms * 1e6;
  } else if (rtt_source_) {
    rtt = rtt_source_();
  }
  if (!rtt && !n.mean_ms) {
    AIPERF_LOG(kWarning) << "Network latency calibration enabled but no successful RTT probes were collected; "
                            "skipping network_adjusted_* metrics.";
  }
  // An RTT of 0 would make the adjusted metrics copies of the raw ones.
  if (!rtt || *rtt <= 0) return 0;
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.3f", *rtt / 1e6);
  AIPERF_LOG(kInfo) << "Network latency calibration: subtracting " << (n.mean_ms ? "a fixed" : "measured")
                    << " mean RTT of " << ms << " ms from latency metrics (network_adjusted_* metrics).";
  return *rtt;
}

void RecordsCore::flush() {
  if (log_ && !lines_.empty()) log_->append(lines_);
  lines_.clear();
}

void RecordsCore::batch_done() {
  if (fresh_) last_record_ns_ = timers_.clock().steady_now();
  fresh_ = false;
  flush();
  maybe_finish();
}

void RecordsCore::on_service_lost(const proto::ServiceLost& lost) {
  if (lost.service_type() != "worker" && lost.service_type() != "record_processor") return;
  if (lost_.empty()) first_loss_wall_ns_ = timers_.clock().wall_now();
  lost_.push_back(lost);
  maybe_finish();
}

void RecordsCore::on_phase_event(const proto::PhaseEvent& ev) {
  if (ev.phase() != proto::PHASE_PROFILING) return;
  if (ev.kind() == proto::PHASE_EVENT_START) profiling_start_wall_ns_ = ev.start_wall_ns();
  if (ev.kind() != proto::PHASE_EVENT_COMPLETE || profiling_complete_) return;
  profiling_complete_ = ev;
  last_record_ns_ = std::max(last_record_ns_, timers_.clock().steady_now());
  deadline_timer_ = timers_.call_after(kDrainNs, [this] {
    deadline_timer_ = 0;
    if (finished_) return;
    AIPERF_LOG(kError) << "records: only " << received() << " of " << profiling_complete_->completed()
                       << " records arrived within " << kDrainNs / kSecond << " s";
    add_missing_records("RecordLost", "no record arrived for this request within " +
                                          std::to_string(kDrainNs / kSecond) + " s of the end of the profiling phase");
    finish();
  });
  maybe_finish();
}

void RecordsCore::maybe_finish() {
  if (finished_ || !profiling_complete_) return;
  if (received() >= profiling_complete_->completed()) return finish();
  if ((lost_.empty() && profiling_complete_->lost() == 0) || quiet_timer_) return;
  // Records that can still come are on their way without pause; quiet means the rest died
  // with the worker or record processor that held them.
  quiet_timer_ = timers_.call_every(kLossQuietNs / 4, [this] {
    if (finished_ || timers_.clock().steady_now() - last_record_ns_ < kLossQuietNs) return;
    std::string who;
    for (const auto& l : lost_) who += (who.empty() ? "" : "; ") + l.reason();
    if (who.empty()) who = "a worker was lost";
    add_missing_records(loss_type(lost_, profiling_complete_->lost() > 0), "the request's record was lost: " + who);
    finish();
  });
}

// Called when the phase is over and nothing more can come: one error record per credit that
// the timing service counted as returned and whose record never arrived.
void RecordsCore::add_missing_records(const std::string& type, const std::string& message) {
  if (!profiling_complete_) return;
  const uint64_t completed = profiling_complete_->completed();
  if (received() >= completed) return;
  AIPERF_LOG(kWarning) << "records: " << completed - received() << " records missing; counting them as " << type
                       << " errors";
  // They end where the loss was noticed (the phase end when nothing died), so they cannot
  // stretch the benchmark's duration.
  const Nanos end = profiling_complete_->end_wall_ns();
  const Nanos at = first_loss_wall_ns_ ? std::min(first_loss_wall_ns_, end) : end;
  proto::MetricRecord rec;
  rec.set_version(proto::PROTO_VERSION_CURRENT);
  auto* md = rec.mutable_metadata();
  md->set_phase(proto::PHASE_PROFILING);
  md->set_credit_issued_ns(at);
  md->set_request_start_ns(at);
  md->set_request_end_ns(at);
  if (lost_.size() == 1 && lost_[0].service_type() == "worker") md->set_worker_id(lost_[0].service_id());
  rec.mutable_error()->set_type(type);
  rec.mutable_error()->set_message(message);
  while (received() < completed) {
    ++errors_;
    aggregator_.add(rec);
    if (timeslices_) timeslices_->add(rec);
    append_line(rec);
  }
  flush();
}

void RecordsCore::finalize() {
  if (finished_) return;
  AIPERF_LOG(kWarning) << "records: finalizing with the " << received() << " records that arrived";
  if (!profiling_complete_) {
    // The phase never ended (the timing service is gone): its span is what the records show.
    proto::PhaseEvent ev;
    ev.set_phase(proto::PHASE_PROFILING);
    ev.set_completed(received());
    ev.set_start_wall_ns(profiling_start_wall_ns_);
    ev.set_end_wall_ns(timers_.clock().wall_now());
    ev.set_was_cancelled(true);
    profiling_complete_ = ev;
  }
  finish();
}

void RecordsCore::finish() {
  finished_ = true;
  timers_.cancel(deadline_timer_);
  timers_.cancel(quiet_timer_);
  deadline_timer_ = quiet_timer_ = 0;
  flush();
  // Before the timeslices and the summary, which both report it.
  const double rtt_ns = network_rtt_ns();
  if (timeslices_) timeslices_->set_network_rtt_ns(rtt_ns);
  if (config_.output.export_level == config::ExportLevel::kRaw) {
    // Every processor flushed its lines before sending the records counted above.
    try {
      merge_raw_records(config_.output.artifact_dir + "/" + util::kRawRecordsDir,
                        util::artifact_file(config_, "profile_export_raw.jsonl"));
    } catch (const std::exception& e) {
      AIPERF_LOG(kError) << "raw export: " << e.what();
    }
  }
  if (config_.output.export_outputs_json) {
    try {
      const OutputsJsonResult r = merge_output_fragments(
          config_.output.artifact_dir + "/" + util::kOutputFragmentsDir, config_.output.artifact_dir + "/outputs.json");
      if (r.skipped > 0) {
        AIPERF_LOG(kWarning) << "outputs.json: skipped " << r.skipped << " unreadable fragment lines";
      }
    } catch (const std::exception& e) {
      AIPERF_LOG(kError) << "outputs.json export: " << e.what();
    }
  }
  if (timeslices_) {
    try {
      write_timeslice_files(config_, timeslices_->finalize());
    } catch (const std::exception& e) {
      AIPERF_LOG(kError) << "timeslice export: " << e.what();
    }
  }
  aggregator_.set_network_rtt_ns(rtt_ns);
  // The sweep-line metrics weigh the profiling phase, start to the last return (AIPerf's
  // export window: the phase start to its requests' end).
  if (profiling_complete_->end_wall_ns() > profiling_complete_->start_wall_ns() &&
      profiling_complete_->start_wall_ns() > 0) {
    aggregator_.set_sweep_window_ns(static_cast<double>(profiling_complete_->start_wall_ns()),
                                    static_cast<double>(profiling_complete_->end_wall_ns()));
  }
  proto::ProfileResults results = aggregator_.finalize();
  if (config_.accuracy.enabled()) {
    // Every processor flushed its graded lines before sending the records counted above.
    try {
      const accuracy::Summary s = accuracy::merge_fragments(
          config_.output.artifact_dir + "/" + accuracy::kAccuracyFragmentsDir,
          util::artifact_file(config_, "accuracy_export.jsonl"), config_.output.artifact_dir + "/accuracy_results.csv");
      for (auto& m : accuracy::summary_metrics(s)) *results.add_records() = std::move(m);
    } catch (const std::exception& e) {
      AIPERF_LOG(kError) << "accuracy export: " << e.what();
    }
  }
  results.set_total_expected(profiling_complete_->completed());
  results.set_start_ns(profiling_complete_->start_wall_ns());
  results.set_end_ns(profiling_complete_->end_wall_ns());
  results.set_was_cancelled(profiling_complete_->was_cancelled());
  AIPERF_LOG(kInfo) << "records: " << success_ << " successful, " << errors_ << " errors";
  sink_.results(results);
}

}  // namespace aiperf::records
