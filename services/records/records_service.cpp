#include "records_service.h"

#include <google/protobuf/arena.h>

#include "bus/socket.h"
#include "jsonl_file.h"
#include "log/log.h"
#include "util/output_paths.h"

namespace aiperf::records {

RecordsService::RecordsService(service::Identity identity, bus::Endpoints endpoints)
    : Service(std::move(identity), std::move(endpoints)),
      pull_(bus::make_socket(zmq::socket_type::pull), "records metric records") {
  bus::bind(pull_.socket(), this->endpoints().records);
  reactor().add_socket(pull_.socket(), [this] { on_records(); });
  subscribe(bus::topic::kPhase);
  subscribe(bus::topic::kLost);
  reactor().call_every(1'000'000'000, [this] {
    if (!core_) return;
    proto::BusMessage msg;
    auto* p = msg.mutable_records_progress();
    p->set_phase(proto::PHASE_PROFILING);
    p->set_success_records(core_->success());
    p->set_error_records(core_->errors());
    publish(bus::topic::kProgress, msg);
  });
}

RecordsService::~RecordsService() {
  live_.reset();  // its callbacks read the core
}

void RecordsService::on_configure(const config::RunConfig& config) {
  live_.reset();
  std::unique_ptr<LineLog> log;
  if (config.output.export_level != config::ExportLevel::kSummary)
    log = std::make_unique<JsonlFile>(util::artifact_file(config, "profile_export.jsonl"));
  core_ = std::make_unique<RecordsCore>(config, reactor(), static_cast<ResultsSink&>(*this), std::move(log));
  prober_.reset();
  if (config.network_latency.should_probe()) {
    std::vector<ProbeTarget> targets = probe_targets(config.endpoint.urls);
    if (targets.empty()) AIPERF_LOG(kWarning) << "Network Latency: No probe targets discovered; nothing to do";
    auto connector = tcp_connector(targets);
    prober_ = std::make_unique<NetworkProber>(std::move(targets), config.network_latency.ping_interval_s, std::move(connector));
    const std::string& prefix = config.output.profile_export_prefix;
    network_latency_path_ = config.output.artifact_dir + "/" + (prefix.empty() ? "profile_export" : prefix) +
                            "_network_latency.jsonl";
    core_->set_network_rtt_source([this] { return measured_rtt_ns(); });
  }
  if (live_metrics_wanted(config))
    live_ = std::make_unique<LiveMetrics>(
        reactor(), [this] { return core_->received(); }, [this] { return core_->snapshot(); },
        [this](proto::BusMessage& msg) { publish(bus::topic::kLiveMetrics, msg); });
}

void RecordsService::on_records() {
  for (int frames = 0; frames < 64; ++frames) {
    // One arena per frame, starting in a block kept across frames: a batch is thousands of
    // small messages and strings, and allocating and freeing each was half of this service's
    // CPU.
    google::protobuf::ArenaOptions arena_options;
    arena_options.initial_block = arena_block_.data();
    arena_options.initial_block_size = arena_block_.size();
    google::protobuf::Arena arena(arena_options);
    auto& batch = *google::protobuf::Arena::CreateMessage<proto::MetricRecordBatch>(&arena);
    const bus::Received got = pull_.receive(batch);  // a malformed batch is logged by the channel
    if (got == bus::Received::kNone) break;
    if (got == bus::Received::kRejected || !core_) continue;
    for (const proto::MetricRecord& rec : batch.records()) core_->add(rec);
  }
  if (core_) core_->batch_done();
}

void RecordsService::on_bus(std::string_view topic, const proto::BusMessage& msg) {
  if (!core_) return;
  if (msg.has_service_lost()) core_->on_service_lost(msg.service_lost());
  if (msg.has_phase_event()) {
    // Probes span the benchmark from its first phase's start (AIPerf: PROFILE_START).
    if (prober_ && msg.phase_event().kind() == proto::PHASE_EVENT_START) prober_->start();
    core_->on_phase_event(msg.phase_event());
  }
}

void RecordsService::on_finalize() {
  if (core_) core_->finalize();
}

void RecordsService::on_terminate() {
  if (core_) core_->flush();
}

void RecordsService::cancel_run(const std::string& reason) {
  proto::BusMessage msg;
  msg.mutable_cancel_request()->set_service_id(identity().id);
  msg.mutable_cancel_request()->set_reason(reason);
  publish(bus::topic::kProgress, msg);
}

std::optional<double> RecordsService::measured_rtt_ns() {
  if (!prober_) return std::nullopt;
  const std::vector<ProbeSample>& samples = prober_->finish();
  std::string lines;
  for (const auto& s : samples) lines += network_latency_jsonl(s, prober_->targets()[s.target]) + "\n";
  try {
    util::write_file_atomically(network_latency_path_, lines);
  } catch (const std::exception& e) {
    AIPERF_LOG(kError) << "network latency export: " << e.what();
  }
  return mean_rtt_ns(samples);
}

void RecordsService::results(const proto::ProfileResults& results) {
  live_.reset();  // the final results supersede any snapshot
  proto::BusMessage msg;
  *msg.mutable_profile_results() = results;
  publish(bus::topic::kResults, msg);
}

}  // namespace aiperf::records
