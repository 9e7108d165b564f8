#include "records_service.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <google/protobuf/arena.h>

#include "bus/socket.h"
#include "endpoints/endpoint.h"
#include "endpoints/metric_context_for.h"
#include "log/log.h"
#include "metrics/record_jsonl.h"
#include "raw_merge.h"
#include "util/output_paths.h"

namespace aiperf::records {
namespace {
constexpr int64_t kSecond = 1'000'000'000;
// How long to wait for records still in the pipeline after the last credit returned.
constexpr int64_t kRecordsDrainNs = 30 * kSecond;
// After a worker or record processor died, records that can still come arrive without pause
// (the pipeline drains in order): this long without one means the rest are lost.
constexpr int64_t kLossQuietNs = kSecond;

const char* loss_type(const std::vector<proto::ServiceLost>& lost) {
  bool workers = false, processors = false;
  for (const auto& l : lost) (l.service_type() == "worker" ? workers : processors) = true;
  if (workers && processors) return "ServiceLost";
  return workers ? "WorkerLost" : "RecordProcessorLost";
}
}  // namespace

RecordsService::~RecordsService() {
  if (jsonl_fd_ >= 0) ::close(jsonl_fd_);
}

// One write per batch of whole lines: a crash at any instant leaves whole lines behind. A
// failed write (a full disk) is cut back to the last whole line, and the file stops there.
void RecordsService::write_jsonl() {
  size_t done = 0;
  while (jsonl_fd_ >= 0 && done < jsonl_buffer_.size()) {
    const ssize_t n = ::write(jsonl_fd_, jsonl_buffer_.data() + done, jsonl_buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      AIPERF_LOG(kError) << "cannot write profile_export.jsonl: " << std::strerror(errno)
                         << "; it ends at the last whole record, records are still aggregated";
      (void)::ftruncate(jsonl_fd_, static_cast<off_t>(jsonl_bytes_));
      ::close(jsonl_fd_);
      jsonl_fd_ = -1;
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (jsonl_fd_ >= 0) jsonl_bytes_ += done;
  jsonl_buffer_.clear();
}

RecordsService::RecordsService(service::Identity identity, bus::Endpoints endpoints)
    : Service(std::move(identity), std::move(endpoints)), pull_(bus::make_socket(zmq::socket_type::pull)) {
  bus::bind(pull_, this->endpoints().records);
  reactor().add_socket(pull_, [this] { on_records(); });
  subscribe(bus::topic::kPhase);
  subscribe(bus::topic::kLost);
  reactor().call_every(kSecond, [this] {
    if (!config_) return;
    proto::BusMessage msg;
    auto* p = msg.mutable_records_progress();
    p->set_phase(proto::PHASE_PROFILING);
    p->set_success_records(success_);
    p->set_error_records(errors_);
    publish(bus::topic::kProgress, msg);
  });
}

void RecordsService::on_configure(const config::RunConfig& config) {
  const endpoints::EndpointInfo* ep = endpoints::find_endpoint(config.endpoint.type);
  if (!ep) throw std::runtime_error("unknown endpoint type " + config.endpoint.type);
  context_ = endpoints::metric_context_for(config, *ep);
  aggregator_ = std::make_unique<metrics::Aggregator>(context_);
  if (live_metrics_wanted(config))
    live_ = std::make_unique<LiveMetrics>(
        reactor(), [this] { return success_ + errors_; }, [this] { return aggregator_->finalize(); },
        [this](proto::BusMessage& msg) { publish(bus::topic::kLiveMetrics, msg); });
  if (config.output.slice_duration) timeslices_ = std::make_unique<Timeslices>(context_, *config.output.slice_duration);
  if (config.output.export_level != "summary") {
    const std::string path = util::artifact_file(config, "profile_export.jsonl");
    if (jsonl_fd_ >= 0) ::close(jsonl_fd_);
    jsonl_fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (jsonl_fd_ < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  }
  config_ = config;
}

void RecordsService::on_records() {
  zmq::message_t frame;
  int frames = 0;
  for (; frames < 64 && pull_.recv(frame, zmq::recv_flags::dontwait); ++frames) {
    // One arena per frame, starting in a block kept across frames: a batch is thousands of
    // small messages and strings, and allocating and freeing each was half of this service's
    // CPU.
    google::protobuf::ArenaOptions arena_options;
    arena_options.initial_block = arena_block_.data();
    arena_options.initial_block_size = arena_block_.size();
    google::protobuf::Arena arena(arena_options);
    auto& batch = *google::protobuf::Arena::CreateMessage<proto::MetricRecordBatch>(&arena);
    if (!bus::parse_proto(frame, batch) || batch.version() != proto::PROTO_VERSION_CURRENT) {
      AIPERF_LOG(kError) << "dropping a malformed metric record batch";
      continue;
    }
    for (const proto::MetricRecord& rec : batch.records()) {
      if (rec.metadata().phase() != proto::PHASE_PROFILING || finished_ || !aggregator_) continue;
      rec.has_error() ? ++errors_ : ++success_;
      aggregator_->add(rec);
      if (timeslices_) timeslices_->add(rec);
      if (jsonl_fd_ >= 0) {
        metrics::append_record_jsonl(jsonl_buffer_, rec, context_);
        jsonl_buffer_ += '\n';
      }
    }
  }
  if (frames > 0) last_record_ns_ = steady_now_ns();
  write_jsonl();
  maybe_finish();
}

void RecordsService::on_bus(std::string_view topic, const proto::BusMessage& msg) {
  if (msg.has_service_lost()) {
    if (lost_.empty()) first_loss_wall_ns_ = wall_now_ns();
    lost_.push_back(msg.service_lost());
    maybe_finish();
    return;
  }
  if (!msg.has_phase_event()) return;
  const auto& ev = msg.phase_event();
  if (ev.phase() != proto::PHASE_PROFILING) return;
  if (ev.kind() == proto::PHASE_EVENT_START) profiling_start_wall_ns_ = ev.start_wall_ns();
  if (ev.kind() == proto::PHASE_EVENT_COMPLETE && !profiling_complete_) {
    profiling_complete_ = ev;
    last_record_ns_ = std::max(last_record_ns_, steady_now_ns());
    deadline_timer_ = reactor().call_after(kRecordsDrainNs, [this] {
      if (finished_) return;
      AIPERF_LOG(kError) << "records: only " << success_ + errors_ << " of " << profiling_complete_->completed()
                         << " records arrived within " << kRecordsDrainNs / kSecond << " s";
      add_missing_records("RecordLost", "no record arrived for this request within " +
                                            std::to_string(kRecordsDrainNs / kSecond) +
                                            " s of the end of the profiling phase");
      finish();
    });
    maybe_finish();
  }
}

void RecordsService::maybe_finish() {
  if (finished_ || !profiling_complete_) return;
  if (success_ + errors_ >= profiling_complete_->completed()) return finish();
  if ((lost_.empty() && profiling_complete_->lost() == 0) || quiet_timer_) return;
  // Records that can still come are on their way without pause; quiet means the rest died
  // with the worker or record processor that held them.
  quiet_timer_ = reactor().call_every(kLossQuietNs / 4, [this] {
    if (finished_ || steady_now_ns() - last_record_ns_ < kLossQuietNs) return;
    std::string who;
    for (const auto& l : lost_) who += (who.empty() ? "" : "; ") + l.reason();
    if (who.empty()) who = "a worker was lost";
    add_missing_records(loss_type(lost_), "the request's record was lost: " + who);
    finish();
  });
}

// Called when the phase is over and nothing more can come: one error record per credit that
// the timing service counted as returned and whose record never arrived.
void RecordsService::add_missing_records(const std::string& type, const std::string& message) {
  if (!profiling_complete_ || !aggregator_) return;
  const uint64_t received = success_ + errors_;
  const uint64_t completed = profiling_complete_->completed();
  if (received >= completed) return;
  AIPERF_LOG(kWarning) << "records: " << completed - received << " records missing; counting them as " << type
                       << " errors";
  // They end where the loss was noticed (the phase end when nothing died), so they cannot
  // stretch the benchmark's duration.
  const int64_t at = first_loss_wall_ns_ ? std::min(first_loss_wall_ns_, profiling_complete_->end_wall_ns())
                                         : profiling_complete_->end_wall_ns();
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
  for (uint64_t i = received; i < completed; ++i) {
    ++errors_;
    aggregator_->add(rec);
    if (timeslices_) timeslices_->add(rec);
    if (jsonl_fd_ >= 0) {
      metrics::append_record_jsonl(jsonl_buffer_, rec, context_);
      jsonl_buffer_ += '\n';
    }
  }
  write_jsonl();
}

void RecordsService::on_finalize() {
  if (finished_ || !aggregator_) return;
  AIPERF_LOG(kWarning) << "records: finalizing with the " << success_ + errors_ << " records that arrived";
  if (!profiling_complete_) {
    // The phase never ended (the timing service is gone): its span is what the records show.
    proto::PhaseEvent ev;
    ev.set_phase(proto::PHASE_PROFILING);
    ev.set_completed(success_ + errors_);
    ev.set_start_wall_ns(profiling_start_wall_ns_);
    ev.set_end_wall_ns(wall_now_ns());
    ev.set_was_cancelled(true);
    profiling_complete_ = ev;
  }
  finish();
}

void RecordsService::finish() {
  finished_ = true;
  live_.reset();  // the final results supersede any snapshot
  reactor().cancel(deadline_timer_);
  reactor().cancel(quiet_timer_);
  write_jsonl();
  if (config_->output.export_level == "raw") {
    // Every processor flushed its lines before sending the records counted above.
    try {
      merge_raw_records(config_->output.artifact_dir + "/" + util::kRawRecordsDir,
                        util::artifact_file(*config_, "profile_export_raw.jsonl"));
    } catch (const std::exception& e) {
      AIPERF_LOG(kError) << "raw export: " << e.what();
    }
  }
  if (timeslices_) {
    try {
      write_timeslice_files(*config_, timeslices_->finalize());
    } catch (const std::exception& e) {
      AIPERF_LOG(kError) << "timeslice export: " << e.what();
    }
  }
  proto::BusMessage msg;
  proto::ProfileResults* results = msg.mutable_profile_results();
  *results = aggregator_->finalize();
  results->set_total_expected(profiling_complete_->completed());
  results->set_start_ns(profiling_complete_->start_wall_ns());
  results->set_end_ns(profiling_complete_->end_wall_ns());
  results->set_was_cancelled(profiling_complete_->was_cancelled());
  publish(bus::topic::kResults, msg);
  AIPERF_LOG(kInfo) << "records: " << success_ << " successful, " << errors_ << " errors";
}

}  // namespace aiperf::records
