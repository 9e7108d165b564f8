#include "records_service.h"

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
// Lines are written in large pieces: a stream writes anything over 1 KiB (every line) with a
// system call of its own. At most a second's worth waits in memory.
constexpr size_t kJsonlBufferBytes = 1 << 20;
}  // namespace

void RecordsService::write_jsonl() {
  if (jsonl_buffer_.empty()) return;
  jsonl_.write(jsonl_buffer_.data(), static_cast<std::streamsize>(jsonl_buffer_.size()));
  jsonl_buffer_.clear();
}

RecordsService::RecordsService(service::Identity identity, bus::Endpoints endpoints)
    : Service(std::move(identity), std::move(endpoints)), pull_(bus::make_socket(zmq::socket_type::pull)) {
  bus::bind(pull_, this->endpoints().records);
  reactor().add_socket(pull_, [this] { on_records(); });
  subscribe(bus::topic::kPhase);
  reactor().call_every(kSecond, [this] {
    if (!config_) return;
    write_jsonl();
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
    jsonl_.open(path, std::ios::binary | std::ios::trunc);
    if (!jsonl_) throw std::runtime_error("cannot open " + path);
  }
  config_ = config;
}

void RecordsService::on_records() {
  zmq::message_t frame;
  for (int i = 0; i < 64 && pull_.recv(frame, zmq::recv_flags::dontwait); ++i) {
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
      if (jsonl_.is_open()) {
        metrics::append_record_jsonl(jsonl_buffer_, rec, context_);
        jsonl_buffer_ += '\n';
      }
    }
  }
  if (jsonl_buffer_.size() >= kJsonlBufferBytes) write_jsonl();
  maybe_finish();
}

void RecordsService::on_bus(std::string_view topic, const proto::BusMessage& msg) {
  if (!msg.has_phase_event()) return;
  const auto& ev = msg.phase_event();
  if (ev.phase() != proto::PHASE_PROFILING) return;
  if (ev.kind() == proto::PHASE_EVENT_START) profiling_start_wall_ns_ = ev.start_wall_ns();
  if (ev.kind() == proto::PHASE_EVENT_COMPLETE && !profiling_complete_) {
    profiling_complete_ = ev;
    deadline_timer_ = reactor().call_after(kRecordsDrainNs, [this] {
      if (finished_) return;
      AIPERF_LOG(kError) << "records: only " << success_ + errors_ << " of " << profiling_complete_->completed()
                         << " records arrived; finishing without the rest";
      finish();
    });
    maybe_finish();
  }
}

void RecordsService::maybe_finish() {
  if (finished_ || !profiling_complete_) return;
  if (success_ + errors_ >= profiling_complete_->completed()) finish();
}

void RecordsService::finish() {
  finished_ = true;
  live_.reset();  // the final results supersede any snapshot
  reactor().cancel(deadline_timer_);
  write_jsonl();
  if (jsonl_.is_open()) jsonl_.flush();
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
