#include "controller.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <map>
#include <set>

#include "bus/bus_client.h"
#include "bus/mesh_security.h"
#include "bus/reactor.h"
#include "control_preflight.h"
#include "endpoints/endpoint.h"
#include "endpoints/metric_context_for.h"
#include "export/records_jsonl_reader.h"
#include "log/log.h"
#include "mesh_setup.h"
#include "observers.h"
#include "process_manager.h"
#include "proxies.h"
#include "report.h"
#include "util/output_paths.h"
#include "util/uuid.h"

namespace aiperf::controller {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kRegistrationTimeout = 30 * kSecond;    // AIPERF_SERVICE_REGISTRATION_TIMEOUT
constexpr int64_t kConfigureTimeout = 300 * kSecond;      // AIPERF_SERVICE_PROFILE_CONFIGURE_TIMEOUT
constexpr int64_t kRemoteWorkerTimeout = 120 * kSecond;
constexpr int64_t kTelemetryTimeout = 10 * kSecond;       // final scrape after the results
constexpr int64_t kFinalizeTimeout = 10 * kSecond;        // records' results after a fatal loss
constexpr int64_t kCommandResendInterval = kSecond;

int g_signal_pipe[2] = {-1, -1};
void on_signal(int sig) {
  char c = static_cast<char>(sig);
  (void)!::write(g_signal_pipe[1], &c, 1);
}

enum class Stage { kRegistering, kConfiguring, kWaitingRemote, kRunning, kFinalizing, kCollecting, kDone };

const char* stage_name(Stage stage) {
  switch (stage) {
    case Stage::kRegistering: return "registering";
    case Stage::kConfiguring: return "configuring";
    case Stage::kWaitingRemote: return "waiting_remote";
    case Stage::kRunning: return "running";
    case Stage::kFinalizing: return "finalizing";
    case Stage::kCollecting: return "collecting";
    case Stage::kDone: return "done";
  }
  return "";
}

class Controller final : public RunControl {
 public:
  explicit Controller(const config::RunConfig& config)
      : config_(config),
        endpoints_(config.service.zmq_host.empty()
                       ? bus::Endpoints::ipc(config.service.zmq_ipc_path)
                       : bus::Endpoints::tcp(config.service.zmq_host, config.service.zmq_base_port)),
        proxies_(endpoints_),
        bus_(endpoints_, "system_controller") {}

  int run();

  void abort_run(const std::string& reason) override { abort(reason); }
  void worker_lost(const std::string& worker_id, const std::string& reason) override;
  bus::Reactor& reactor() override { return reactor_; }

 private:
  void set_stage(Stage stage);
  void finish_collecting();
  void spawn_services();
  void on_bus();
  void on_register(const proto::Register& reg);
  void on_response(const proto::CommandResponse& resp);
  const std::string& command_id(proto::CommandKind kind);
  void send_command(proto::CommandKind kind, const std::string& target_topic);
  void resend_unanswered();
  void maybe_start();
  void abort(const std::string& reason);
  void check_children();
  void on_child_exit(const ChildExit& exit);
  size_t alive_of(const std::string& type) const;
  void finalize_after_loss(const std::string& reason);
  void go_on_without(const std::string& id, const std::string& type, const std::string& reason);
  std::optional<proto::ProfileResults> recover_results() const;
  void on_signal_pipe();
  // A service asked to end the run as a failure (--failed-request-threshold): cancel as after
  // Ctrl-C, write the partial results, exit 1.
  void on_cancel_request(const proto::CancelRequest& request);

  const config::RunConfig& config_;
  bus::Endpoints endpoints_;
  Proxies proxies_;
  bus::BusClient bus_;
  bus::Reactor reactor_;
  ProcessManager processes_;
  Observers observers_;

  Stage stage_ = Stage::kRegistering;
  std::set<std::string> expected_;          // spawned service ids
  std::map<std::string, std::string> types_;  // spawned service id -> service type
  std::set<std::string> gone_;              // spawned services whose process ended
  std::map<std::string, std::string> failures_;  // service id -> the ServiceFailed it sent
  std::vector<std::string> losses_;         // services the run went on without
  std::set<std::string> registered_;
  std::set<std::string> remote_workers_;
  std::set<std::string> configured_;
  std::set<std::string> started_;           // answered the start command
  std::set<std::string> cancelled_;         // answered the cancel command (after Ctrl-C)
  std::map<proto::CommandKind, std::string> command_ids_;
  std::string config_json_;                 // the configure command's payload, built once
  int64_t next_resend_ns_ = 0;
  std::string failure_;
  std::optional<proto::ProfileResults> results_;
  proto::TelemetryResults telemetry_;
  int64_t stage_deadline_ = 0;
  int64_t last_activity_ = 0;
  uint64_t last_completed_ = 0;
  int signals_ = 0;
  int first_signal_ = 0;          // SIGINT or SIGTERM: the exit code is 128 + it
  bool cancel_requested_ = false;  // a service asked for the run to be cancelled
  bool reached_running_ = false;  // start was sent: load may have gone out
};

void Controller::spawn_services() {
  const std::string address = config_.service.zmq_host.empty()
                                  ? "ipc://" + config_.service.zmq_ipc_path
                                  : "tcp://" + config_.service.zmq_host + ":" + std::to_string(config_.service.zmq_base_port);
  const std::string log_file = config_.output.artifact_dir + "/logs/aiperf.log";
  auto spawn = [&](const std::string& type, uint32_t index = 0) {
    const std::string id = type + "_" + util::short_id();
    std::vector<std::string> args{"service", "--type",     type,     "--service-id", id,
                                  "--index", std::to_string(index), "--controller", address,
                                  "--log-file", log_file, "--log-level", config_.service.log_level};
    // Children on tcp bind and connect CURVE sockets too, with the controller's key pair.
    if (bus::mesh_security()) args.insert(args.end(), {"--mesh-keys", config_.service.mesh_keys});
    processes_.spawn(id, args);
    expected_.insert(id);
    types_[id] = type;
  };
  spawn("dataset");
  spawn("timing");
  spawn("records");
  spawn("telemetry");
  for (uint32_t i = 0; i < config_.service.record_processors; ++i) spawn("record_processor", i);
  for (uint32_t i = 0; i < config_.service.workers; ++i) spawn("worker");
}

int Controller::run() {
  if (pipe2(g_signal_pipe, O_NONBLOCK | O_CLOEXEC) == 0) {
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    reactor_.add_fd(g_signal_pipe[0], [this] { on_signal_pipe(); });
  }
  bus_.wait_ready(30 * kSecond);
  bus_.subscribe(bus::topic::kRegister);
  bus_.subscribe(bus::topic::kResponse);
  bus_.subscribe(bus::topic::kPhase);
  bus_.subscribe(bus::topic::kResults);
  bus_.subscribe(bus::topic::kFailed);
  bus_.subscribe(bus::topic::kProgress);
  bus_.subscribe(bus::topic::kHeartbeat);
  bus_.subscribe(bus::topic::kLiveMetrics);
  bus_.subscribe(bus::topic::kTelemetry);
  reactor_.add_socket(bus_.sub_socket(), [this] { on_bus(); });

  spawn_services();
  stage_deadline_ = steady_now_ns() + kRegistrationTimeout;
  last_activity_ = steady_now_ns();
  reactor_.call_every(100'000'000, [this] { check_children(); });
  observers_ = make_observers(config_, *this);
  reactor_.call_every(250'000'000, [this] {
    for (auto& o : observers_) o->tick(steady_now_ns());
  });
  reactor_.run();
  for (auto& o : observers_) o->finish();

  bus_.subscribe("");  // nothing more to read; shut everyone down
  proto::BusMessage shutdown;
  shutdown.mutable_command()->set_kind(proto::COMMAND_SHUTDOWN);
  bus_.publish(bus::topic::kCommand, shutdown);
  processes_.stop_all(2000);

  if (!failure_.empty()) {
    std::cerr << "Error: " << failure_ << "\n";
    AIPERF_LOG(kError) << failure_;
  }
  // A second interrupt means "stop now": no recovery.
  if (!results_ && signals_ < 2) results_ = recover_results();
  const int interrupted = first_signal_ ? 128 + first_signal_ : 0;
  if (!results_) {
    std::cout << "No profile results to export\nLog File: " << config_.output.artifact_dir << "/logs/aiperf.log\n";
    return interrupted ? interrupted : 1;
  }
  const int rc = write_report(config_, *results_, telemetry_, failure_.empty() && losses_.empty());
  return interrupted ? interrupted : rc;
}

// The records service published nothing (it died, or the run ended before it could): the
// summary is recomputed from the records it wrote to profile_export.jsonl, which it writes as
// they arrive, in whole lines.
std::optional<proto::ProfileResults> Controller::recover_results() const {
  if (!reached_running_) return std::nullopt;
  const std::string path = util::artifact_file(config_, "profile_export.jsonl");
  const endpoints::EndpointInfo* ep = endpoints::find_endpoint(config_.endpoint.type);
  if (!ep || ::access(path.c_str(), R_OK) != 0) return std::nullopt;
  try {
    metrics::Aggregator aggregator(endpoints::metric_context_for(config_, *ep));
    const exporting::JsonlSpan span = exporting::read_records_jsonl(path, aggregator, {}, /*allow_torn_tail=*/true);
    if (span.records == 0) return std::nullopt;
    proto::ProfileResults results = aggregator.finalize();
    results.set_total_expected(span.records);
    results.set_start_ns(span.start_ns);
    results.set_end_ns(span.end_ns);
    results.set_was_cancelled(true);
    AIPERF_LOG(kWarning) << "summary recomputed from the " << span.records << " records in " << path;
    std::cerr << "Summary recomputed from the " << span.records << " records in " << path << "\n";
    return results;
  } catch (const std::exception& e) {
    AIPERF_LOG(kError) << "cannot recompute the summary: " << e.what();
    return std::nullopt;
  }
}

size_t Controller::alive_of(const std::string& type) const {
  size_t n = 0;
  if (type == "worker")
    for (const auto& id : remote_workers_) n += !gone_.count(id);
  for (const auto& [id, t] : types_) n += t == type && !gone_.count(id);
  return n;
}

void Controller::worker_lost(const std::string& worker_id, const std::string& reason) {
  gone_.insert(worker_id);
  if (stage_ != Stage::kRunning) return abort(reason);
  if (alive_of("worker") > 0) return go_on_without(worker_id, "worker", reason);
  finalize_after_loss(reason);
}

// Timing settles what a lost worker held, the records service turns what will never come
// into error records; the exit code says the run was not whole.
void Controller::go_on_without(const std::string& id, const std::string& type, const std::string& reason) {
  std::cerr << "Error: " << reason << "; the run goes on without it\n";
  AIPERF_LOG(kError) << reason << "; the run goes on without it";
  losses_.push_back(reason);
  proto::BusMessage msg;
  auto* lost = msg.mutable_service_lost();
  lost->set_service_id(id);
  lost->set_service_type(type);
  lost->set_reason(reason);
  bus_.publish(bus::topic::kLost, msg);
}

// What a dead service costs the run. Before the benchmark starts, the run. While it runs, a
// worker or record processor with others of its type left only costs what it held (error
// records), and telemetry only its data: the run goes on and exits 1. Any other loss ends the
// run with a summary of what was measured.
void Controller::on_child_exit(const ChildExit& exit) {
  const std::string& id = exit.service_id;
  const std::string type = types_[id];
  gone_.insert(id);
  if (stage_ == Stage::kDone) return;
  std::string reason = "exited unexpectedly with code " + std::to_string(exit.exit_code);
  if (auto f = failures_.find(id); f != failures_.end()) reason += " (" + f->second + ")";
  const std::string what = "service " + id + " " + reason;
  if (stage_ == Stage::kCollecting) {  // the results are in
    AIPERF_LOG(kWarning) << what;
    if (type == "telemetry") finish_collecting();
    return;
  }
  if (stage_ < Stage::kRunning) return abort(what);
  if (stage_ == Stage::kFinalizing) {
    AIPERF_LOG(kError) << what;
    if (type == "records") abort(failure_);
    return;
  }
  if (type == "telemetry" || ((type == "worker" || type == "record_processor") && alive_of(type) > 0)) {
    return go_on_without(id, type, what);
  }
  finalize_after_loss(what);
}

// The run cannot go on: in-flight requests are cancelled and the records service publishes
// its results from what arrived (or, if it is the one gone, they are recomputed from its file).
void Controller::finalize_after_loss(const std::string& reason) {
  if (failure_.empty()) failure_ = reason + "; the summary holds the records measured until then";
  std::string records;
  for (const auto& [id, type] : types_)
    if (type == "records" && !gone_.count(id)) records = id;
  if (records.empty()) return abort(failure_);
  send_command(proto::COMMAND_CANCEL, std::string(bus::topic::kCommand));
  send_command(proto::COMMAND_FINALIZE, bus::topic::command_for(records));
  set_stage(Stage::kFinalizing);
  stage_deadline_ = steady_now_ns() + kFinalizeTimeout;
}

void Controller::check_children() {
  for (const auto& exit : processes_.reap()) on_child_exit(exit);
  if (stage_ == Stage::kDone) return;
  resend_unanswered();
  const int64_t now = steady_now_ns();
  if (stage_ == Stage::kFinalizing && now > stage_deadline_) {
    AIPERF_LOG(kWarning) << "the records service did not publish results in time";
    abort(failure_);
    return;
  }
  if (stage_ == Stage::kCollecting && now > stage_deadline_) {
    AIPERF_LOG(kWarning) << "telemetry results did not arrive in time; writing the summary without them";
    finish_collecting();
    return;
  }
  if (stage_ != Stage::kRunning && stage_ != Stage::kDone && now > stage_deadline_) {
    if (stage_ == Stage::kRegistering) {
      std::string missing;
      for (const auto& id : expected_)
        if (!registered_.count(id)) missing += " " + id;
      abort("services did not register in time:" + missing);
    } else if (stage_ == Stage::kConfiguring) {
      abort("services did not finish configuring in time");
    } else {
      abort("expected " + std::to_string(config_.service.workers_remote) + " remote workers, " +
            std::to_string(remote_workers_.size()) + " joined before the deadline");
    }
  }
  // Inactivity watchdog: every request ends by its timeout, so a run that completes nothing
  // for longer than that is stuck, not slow.
  const int64_t idle_limit = static_cast<int64_t>((config_.endpoint.timeout_seconds + 60) * kSecond);
  if (stage_ == Stage::kRunning && now - last_activity_ > idle_limit) abort("no progress within the request timeout");
}

void Controller::set_stage(Stage stage) {
  stage_ = stage;
  for (auto& o : observers_) o->on_stage(stage_name(stage));
}

void Controller::abort(const std::string& reason) {
  if (failure_.empty()) failure_ = reason;
  set_stage(Stage::kDone);
  reactor_.stop();
}

void Controller::finish_collecting() {
  set_stage(Stage::kDone);
  reactor_.stop();
}

void Controller::on_signal_pipe() {
  char c;
  while (::read(g_signal_pipe[0], &c, 1) == 1) {
    if (!first_signal_) first_signal_ = c;
    if (++signals_ == 1 && stage_ == Stage::kRunning) {
      std::cerr << "BENCHMARK CANCELLED: cancelling in-flight requests and writing partial results (interrupt again to force)\n";
      send_command(proto::COMMAND_CANCEL, std::string(bus::topic::kCommand));
    } else {
      abort("interrupted");
    }
  }
}

void Controller::on_cancel_request(const proto::CancelRequest& request) {
  if (cancel_requested_ || stage_ != Stage::kRunning || signals_ > 0) return;
  cancel_requested_ = true;
  if (failure_.empty()) failure_ = request.reason();
  AIPERF_LOG(kWarning) << request.service_id() << " asked to cancel the run: " << request.reason();
  send_command(proto::COMMAND_CANCEL, std::string(bus::topic::kCommand));
}

void Controller::on_bus() {
  std::string topic;
  proto::BusMessage msg;
  while (!reactor_.stopped() && bus_.receive(topic, msg)) {
    if (topic.empty()) continue;
    if (msg.has_register_()) {
      on_register(msg.register_());
    } else if (msg.has_command_response()) {
      on_response(msg.command_response());
    } else if (msg.has_service_failed()) {
      const auto& failed = msg.service_failed();
      // A local child's exit follows and decides (on_child_exit); a remote one ends the run.
      if (types_.count(failed.service_id())) failures_[failed.service_id()] = failed.error().message();
      else abort(failed.service_id() + ": " + failed.error().message());
    } else if (msg.has_phase_event()) {
      const auto& ev = msg.phase_event();
      if (ev.completed() != last_completed_ || ev.kind() != proto::PHASE_EVENT_PROGRESS) {
        last_completed_ = ev.completed();
        last_activity_ = steady_now_ns();
      }
      for (auto& o : observers_) o->on_phase(ev);
      if (ev.kind() == proto::PHASE_EVENT_COMPLETE)
        AIPERF_LOG(kInfo) << (ev.phase() == proto::PHASE_WARMUP ? "warmup" : "profiling") << " phase complete: "
                          << ev.completed() << " of " << ev.sent() << " requests returned";
    } else if (msg.has_cancel_request()) {
      on_cancel_request(msg.cancel_request());
    } else if (msg.has_records_progress()) {
      last_activity_ = steady_now_ns();
      for (auto& o : observers_) o->on_records_progress(msg.records_progress());
    } else if (msg.has_heartbeat()) {
      for (auto& o : observers_) o->on_heartbeat(msg.heartbeat());
    } else if (msg.has_live_metrics()) {
      for (auto& o : observers_) o->on_live_metrics(msg.live_metrics());
    } else if (msg.has_profile_results()) {
      results_ = msg.profile_results();
      for (auto& o : observers_) o->on_results(*results_);
      // The telemetry service answers the results with its final scrape.
      set_stage(Stage::kCollecting);
      stage_deadline_ = steady_now_ns() + kTelemetryTimeout;
      if (alive_of("telemetry") == 0) finish_collecting();
    } else if (msg.has_telemetry_results()) {
      telemetry_ = msg.telemetry_results();
      if (stage_ == Stage::kCollecting) finish_collecting();
    }
  }
}

void Controller::on_register(const proto::Register& reg) {
  const std::string& id = reg.service_id();
  proto::BusMessage ack;
  ack.mutable_register_ack()->set_service_id(id);
  bus_.publish(bus::topic::ack_for(id), ack);
  if (registered_.count(id)) return;  // a retry
  registered_.insert(id);
  const int64_t offset_ms = (wall_now_ns() - reg.wall_ns()) / 1'000'000;
  AIPERF_LOG(kInfo) << "registered " << id << " (pid " << reg.pid() << " on " << reg.hostname()
                    << ", clock offset ~" << offset_ms << " ms)";
  if (!expected_.count(id)) {
    if (reg.service_type() != "worker") return;  // only workers may join from outside
    for (auto& o : observers_) o->on_register(reg, true);
    remote_workers_.insert(id);
    if (stage_ != Stage::kRegistering) send_command(proto::COMMAND_CONFIGURE, bus::topic::command_for(id));
    if (stage_ == Stage::kRunning) send_command(proto::COMMAND_START, bus::topic::command_for(id));
    return;
  }
  for (auto& o : observers_) o->on_register(reg, false);
  if (stage_ == Stage::kRegistering &&
      std::includes(registered_.begin(), registered_.end(), expected_.begin(), expected_.end())) {
    set_stage(Stage::kConfiguring);
    stage_deadline_ = steady_now_ns() + kConfigureTimeout;
    next_resend_ns_ = steady_now_ns() + kCommandResendInterval;
    send_command(proto::COMMAND_CONFIGURE, std::string(bus::topic::kCommand));
  }
}

// One id per command kind for the whole run: a resend carries the same id, so a service that
// already acted on it only answers again.
const std::string& Controller::command_id(proto::CommandKind kind) {
  std::string& id = command_ids_[kind];
  if (id.empty()) id = util::uuid4();
  return id;
}

void Controller::send_command(proto::CommandKind kind, const std::string& target_topic) {
  proto::BusMessage msg;
  auto* cmd = msg.mutable_command();
  cmd->set_kind(kind);
  cmd->set_command_id(command_id(kind));
  if (kind == proto::COMMAND_CONFIGURE) {
    if (config_json_.empty()) config_json_ = config::to_json(config_).dump();
    cmd->set_config_json(config_json_);
  }
  bus_.publish(target_topic, msg);
}

// A service can miss a published command while its subscription is still on the way to the
// controller (PUB drops what no subscriber has asked for yet). Every second, whoever has not
// answered configure (or start, once running) gets it again on its own topic.
void Controller::resend_unanswered() {
  const int64_t now = steady_now_ns();
  if (now < next_resend_ns_ || stage_ == Stage::kRegistering || stage_ >= Stage::kCollecting) return;
  next_resend_ns_ = now + kCommandResendInterval;
  std::set<std::string> participants = expected_;
  participants.insert(remote_workers_.begin(), remote_workers_.end());
  for (const auto& id : participants) {
    if (!configured_.count(id)) {
      send_command(proto::COMMAND_CONFIGURE, bus::topic::command_for(id));
    } else if (stage_ == Stage::kRunning && !started_.count(id)) {
      send_command(proto::COMMAND_START, bus::topic::command_for(id));
    } else if (stage_ == Stage::kRunning && (signals_ > 0 || cancel_requested_) && !cancelled_.count(id)) {
      send_command(proto::COMMAND_CANCEL, bus::topic::command_for(id));
    }
  }
}

void Controller::on_response(const proto::CommandResponse& resp) {
  if (resp.command_id() == command_ids_[proto::COMMAND_START]) {
    started_.insert(resp.service_id());
    return;
  }
  if (resp.command_id() == command_ids_[proto::COMMAND_CANCEL]) {
    cancelled_.insert(resp.service_id());
    return;
  }
  if (resp.command_id() != command_ids_[proto::COMMAND_CONFIGURE] || configured_.count(resp.service_id())) return;
  if (!resp.ok()) {
    abort("configure failed in " + resp.service_id() + ": " + resp.error().message());
    return;
  }
  configured_.insert(resp.service_id());
  maybe_start();
}

void Controller::maybe_start() {
  if (stage_ == Stage::kConfiguring &&
      std::includes(configured_.begin(), configured_.end(), expected_.begin(), expected_.end())) {
    set_stage(Stage::kWaitingRemote);
    stage_deadline_ = steady_now_ns() + kRemoteWorkerTimeout;
  }
  if (stage_ != Stage::kWaitingRemote) return;
  size_t remote_ready = 0;
  for (const auto& id : remote_workers_) remote_ready += configured_.count(id);
  if (remote_ready < config_.service.workers_remote) return;
  set_stage(Stage::kRunning);
  reached_running_ = true;
  last_activity_ = steady_now_ns();
  AIPERF_LOG(kInfo) << "all services configured; starting the benchmark";
  next_resend_ns_ = steady_now_ns() + kCommandResendInterval;
  send_command(proto::COMMAND_START, std::string(bus::topic::kCommand));
}

}  // namespace

int run_profile(const config::RunConfig& config) {
  // --reset-kv-cache: once per run (each trial of a multi-run), before any service starts.
  if (!reset_kv_cache_before_run(config)) return 1;
  try {
    setup_mesh(config.service);  // before the proxies bind
    Controller controller(config);
    return controller.run();
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    AIPERF_LOG(kError) << e.what();
    return 1;
  }
}

}  // namespace aiperf::controller
