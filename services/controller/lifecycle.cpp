#include "lifecycle.h"

#include <algorithm>
#include <iostream>

#include "bus/bus_client.h"
#include "log/log.h"
#include "util/uuid.h"

namespace aiperf::controller {

const char* stage_name(Stage stage) {
  switch (stage) {
    case Stage::kRegistering:
      return "registering";
    case Stage::kConfiguring:
      return "configuring";
    case Stage::kWaitingRemote:
      return "waiting_remote";
    case Stage::kRunning:
      return "running";
    case Stage::kFinalizing:
      return "finalizing";
    case Stage::kCollecting:
      return "collecting";
    case Stage::kDone:
      return "done";
  }
  return "";
}

RunLifecycle::RunLifecycle(const config::RunConfig& config, const Clock& clock, LifecycleLink& link,
                           Observers& observers)
    : config_(config), clock_(clock), link_(link), observers_(observers) {}

void RunLifecycle::expect(const std::string& id, const std::string& type) {
  expected_.insert(id);
  types_[id] = type;
}

void RunLifecycle::begin() {
  stage_deadline_ = clock_.steady_now() + kRegistrationTimeout;
  last_activity_ = clock_.steady_now();
}

size_t RunLifecycle::alive_of(const std::string& type) const {
  size_t n = 0;
  if (type == "worker")
    for (const auto& id : remote_workers_) n += !gone_.count(id);
  for (const auto& [id, t] : types_) n += t == type && !gone_.count(id);
  return n;
}

void RunLifecycle::worker_lost(const std::string& worker_id, const std::string& reason) {
  gone_.insert(worker_id);
  if (stage_ != Stage::kRunning) return abort(reason);
  if (alive_of("worker") > 0) return go_on_without(worker_id, "worker", reason);
  finalize_after_loss(reason);
}

// Timing settles what a lost worker held, the records service turns what will never come
// into error records; the exit code says the run was not whole.
void RunLifecycle::go_on_without(const std::string& id, const std::string& type, const std::string& reason) {
  std::cerr << "Error: " << reason << "; the run goes on without it\n";
  AIPERF_LOG(kError) << reason << "; the run goes on without it";
  losses_.push_back(reason);
  proto::BusMessage msg;
  auto* lost = msg.mutable_service_lost();
  lost->set_service_id(id);
  lost->set_service_type(type);
  lost->set_reason(reason);
  link_.publish(std::string(bus::topic::kLost), msg);
}

// What a dead service costs the run. Before the benchmark starts, the run. While it runs, a
// worker or record processor with others of its type left only costs what it held (error
// records), and telemetry only its data: the run goes on and exits 1. Any other loss ends the
// run with a summary of what was measured.
void RunLifecycle::on_child_exit(const std::string& id, int exit_code) {
  const auto t = types_.find(id);
  const std::string type = t == types_.end() ? "" : t->second;
  gone_.insert(id);
  if (stage_ == Stage::kDone) return;
  std::string reason = "exited unexpectedly with code " + std::to_string(exit_code);
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
// its results from what arrived (or, if it is the one gone, the controller recomputes them
// from its file).
void RunLifecycle::finalize_after_loss(const std::string& reason) {
  if (failure_.empty()) failure_ = reason + "; the summary holds the records measured until then";
  std::string records;
  for (const auto& [id, type] : types_)
    if (type == "records" && !gone_.count(id)) records = id;
  if (records.empty()) return abort(failure_);
  send_command(proto::COMMAND_CANCEL, std::string(bus::topic::kCommand));
  send_command(proto::COMMAND_FINALIZE, bus::topic::command_for(records));
  set_stage(Stage::kFinalizing);
  stage_deadline_ = clock_.steady_now() + kFinalizeTimeout;
}

void RunLifecycle::tick() {
  if (stage_ == Stage::kDone) return;
  resend_unanswered();
  check_deadlines(clock_.steady_now());
}

void RunLifecycle::check_deadlines(Nanos now) {
  if (stage_ == Stage::kFinalizing && now > stage_deadline_) {
    AIPERF_LOG(kWarning) << "the records service did not publish results in time";
    return abort(failure_);
  }
  if (stage_ == Stage::kCollecting && now > stage_deadline_) {
    AIPERF_LOG(kWarning) << "telemetry results did not arrive in time; writing the summary without them";
    return finish_collecting();
  }
  if (stage_ < Stage::kRunning && now > stage_deadline_) {
    if (stage_ == Stage::kRegistering) {
      std::string missing;
      for (const auto& id : expected_)
        if (!registered_.count(id)) missing += " " + id;
      return abort("services did not register in time:" + missing);
    }
    if (stage_ == Stage::kConfiguring) return abort("services did not finish configuring in time");
    return abort("expected " + std::to_string(config_.service.workers_remote) + " remote workers, " +
                 std::to_string(remote_workers_.size()) + " joined before the deadline");
  }
  // Inactivity watchdog: every request ends by its timeout, so a run that completes nothing
  // for longer than that is stuck, not slow.
  const auto idle_limit = static_cast<Nanos>((config_.endpoint.timeout_seconds + 60) * kSecond);
  if (stage_ == Stage::kRunning && now - last_activity_ > idle_limit) abort("no progress within the request timeout");
}

void RunLifecycle::set_stage(Stage stage) {
  const bool ending = stage == Stage::kDone && stage_ != Stage::kDone;
  stage_ = stage;
  for (auto& o : observers_) o->on_stage(stage_name(stage));
  if (ending) link_.stop();
}

void RunLifecycle::abort(const std::string& reason) {
  if (failure_.empty()) failure_ = reason;
  set_stage(Stage::kDone);
}

void RunLifecycle::finish_collecting() { set_stage(Stage::kDone); }

void RunLifecycle::on_signal(int sig) {
  if (!first_signal_) first_signal_ = sig;
  if (++signals_ == 1 && stage_ == Stage::kRunning) {
    std::cerr << "BENCHMARK CANCELLED: cancelling in-flight requests and writing partial results (interrupt again to "
                 "force)\n";
    send_command(proto::COMMAND_CANCEL, std::string(bus::topic::kCommand));
  } else {
    abort("interrupted");
  }
}

void RunLifecycle::on_cancel_request(const proto::CancelRequest& request) {
  if (cancel_requested_ || stage_ != Stage::kRunning || signals_ > 0) return;
  cancel_requested_ = true;
  if (failure_.empty()) failure_ = request.reason();
  AIPERF_LOG(kWarning) << request.service_id() << " asked to cancel the run: " << request.reason();
  send_command(proto::COMMAND_CANCEL, std::string(bus::topic::kCommand));
}

void RunLifecycle::on_phase_event(const proto::PhaseEvent& ev) {
  if (ev.completed() != last_completed_ || ev.kind() != proto::PHASE_EVENT_PROGRESS) {
    last_completed_ = ev.completed();
    last_activity_ = clock_.steady_now();
  }
  for (auto& o : observers_) o->on_phase(ev);
  if (ev.kind() == proto::PHASE_EVENT_COMPLETE)
    AIPERF_LOG(kInfo) << (ev.phase() == proto::PHASE_WARMUP ? "warmup" : "profiling")
                      << " phase complete: " << ev.completed() << " of " << ev.sent() << " requests returned";
}

void RunLifecycle::on_message(const proto::BusMessage& msg) {
  if (stage_ == Stage::kDone) return;
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
    on_phase_event(msg.phase_event());
  } else if (msg.has_cancel_request()) {
    on_cancel_request(msg.cancel_request());
  } else if (msg.has_records_progress()) {
    last_activity_ = clock_.steady_now();
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
    stage_deadline_ = clock_.steady_now() + kTelemetryTimeout;
    if (alive_of("telemetry") == 0) finish_collecting();
  } else if (msg.has_telemetry_results()) {
    telemetry_ = msg.telemetry_results();
    if (stage_ == Stage::kCollecting) finish_collecting();
  }
}

void RunLifecycle::on_register(const proto::Register& reg) {
  const std::string& id = reg.service_id();
  proto::BusMessage ack;
  ack.mutable_register_ack()->set_service_id(id);
  link_.publish(bus::topic::ack_for(id), ack);
  if (registered_.count(id)) return;  // a retry
  registered_.insert(id);
  const int64_t offset_ms = (clock_.wall_now() - reg.wall_ns()) / 1'000'000;
  AIPERF_LOG(kInfo) << "registered " << id << " (pid " << reg.pid() << " on " << reg.hostname() << ", clock offset ~"
                    << offset_ms << " ms)";
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
    stage_deadline_ = clock_.steady_now() + kConfigureTimeout;
    next_resend_ns_ = clock_.steady_now() + kCommandResendInterval;
    send_command(proto::COMMAND_CONFIGURE, std::string(bus::topic::kCommand));
  }
}

// One id per command kind for the whole run: a resend carries the same id, so a service that
// already acted on it only answers again.
const std::string& RunLifecycle::command_id(proto::CommandKind kind) {
  std::string& id = command_ids_[kind];
  if (id.empty()) id = util::uuid4();
  return id;
}

void RunLifecycle::send_command(proto::CommandKind kind, const std::string& target_topic) {
  proto::BusMessage msg;
  auto* cmd = msg.mutable_command();
  cmd->set_kind(kind);
  cmd->set_command_id(command_id(kind));
  if (kind == proto::COMMAND_CONFIGURE) {
    if (config_json_.empty()) config_json_ = config::to_json(config_).dump();
    cmd->set_config_json(config_json_);
  }
  link_.publish(target_topic, msg);
}

// A service can miss a published command while its subscription is still on the way to the
// controller (PUB drops what no subscriber has asked for yet). Every second, whoever has not
// answered configure (or start, once running) gets it again on its own topic.
void RunLifecycle::resend_unanswered() {
  const Nanos now = clock_.steady_now();
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

void RunLifecycle::on_response(const proto::CommandResponse& resp) {
  if (resp.command_id() == command_ids_[proto::COMMAND_START]) {
    started_.insert(resp.service_id());
    return;
  }
  if (resp.command_id() == command_ids_[proto::COMMAND_CANCEL]) {
    cancelled_.insert(resp.service_id());
    return;
  }
  if (resp.command_id() != command_ids_[proto::COMMAND_CONFIGURE] || configured_.count(resp.service_id())) return;
  if (!resp.ok()) return abort("configure failed in " + resp.service_id() + ": " + resp.error().message());
  configured_.insert(resp.service_id());
  maybe_start();
}

void RunLifecycle::maybe_start() {
  if (stage_ == Stage::kConfiguring &&
      std::includes(configured_.begin(), configured_.end(), expected_.begin(), expected_.end())) {
    set_stage(Stage::kWaitingRemote);
    stage_deadline_ = clock_.steady_now() + kRemoteWorkerTimeout;
  }
  if (stage_ != Stage::kWaitingRemote) return;
  size_t remote_ready = 0;
  for (const auto& id : remote_workers_) remote_ready += configured_.count(id);
  if (remote_ready < config_.service.workers_remote) return;
  set_stage(Stage::kRunning);
  reached_running_ = true;
  last_activity_ = clock_.steady_now();
  AIPERF_LOG(kInfo) << "all services configured; starting the benchmark";
  next_resend_ns_ = clock_.steady_now() + kCommandResendInterval;
  send_command(proto::COMMAND_START, std::string(bus::topic::kCommand));
}

}  // namespace aiperf::controller
