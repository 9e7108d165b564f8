// RunLifecycle: the controller's rules without its processes, sockets or signal handlers.
// It walks the services through register -> configure -> start, resends commands a service
// missed, decides what a lost service costs the run, keeps the stage deadlines and the
// inactivity watchdog, and collects the results:
//  - every spawned service must register within 30 s and answer configure within 300 s; with
//    --workers-remote, that many remote workers must join and configure within 120 s more;
//  - a service that has not answered configure (or start, or cancel) gets it again on its own
//    topic every second, with the same command id;
//  - while running, a lost worker or record processor with others of its type left, or the
//    telemetry service, costs only what it held (the run goes on, exit 1); any other loss
//    cancels in-flight requests and asks the records service for the results measured so far
//    (10 s), or ends the run if the records service is the one gone;
//  - the first SIGINT/SIGTERM while running cancels and waits for partial results; a second
//    one (or one before running) ends the run at once;
//  - nothing completed for the request timeout + 60 s while running means stuck: abort.
// Single-threaded; time comes from the Clock, commands go out through the LifecycleLink, so
// unit tests drive it with fake time and read what it published.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/run_config.h"
#include "control.pb.h"
#include "results.pb.h"
#include "run_observer.h"
#include "time/clock.h"

namespace aiperf::controller {

enum class Stage { kRegistering, kConfiguring, kWaitingRemote, kRunning, kFinalizing, kCollecting, kDone };
const char* stage_name(Stage stage);

// What the lifecycle does to the outside: publish on the bus, and end the controller's loop.
class LifecycleLink {
 public:
  virtual ~LifecycleLink() = default;
  virtual void publish(const std::string& topic, proto::BusMessage& msg) = 0;  // stamps it
  // The run reached Stage::kDone: the controller's loop stops (called once).
  virtual void stop() = 0;
};

class RunLifecycle {
 public:
  static constexpr Nanos kSecond = 1'000'000'000;
  static constexpr Nanos kRegistrationTimeout = 30 * kSecond;  // AIPERF_SERVICE_REGISTRATION_TIMEOUT
  static constexpr Nanos kConfigureTimeout = 300 * kSecond;    // AIPERF_SERVICE_PROFILE_CONFIGURE_TIMEOUT
  static constexpr Nanos kRemoteWorkerTimeout = 120 * kSecond;
  static constexpr Nanos kTelemetryTimeout = 10 * kSecond;  // final scrape after the results
  static constexpr Nanos kFinalizeTimeout = 10 * kSecond;   // records' results after a fatal loss
  static constexpr Nanos kCommandResendInterval = kSecond;

  // `observers` are told of stages and events; they may be added to after construction.
  RunLifecycle(const config::RunConfig& config, const Clock& clock, LifecycleLink& link, Observers& observers);

  // A spawned service of `type` ("dataset", "worker", ...) the run waits for.
  void expect(const std::string& id, const std::string& type);
  // The services are spawned: the registration deadline and the watchdog start now.
  void begin();
  // Everything the controller subscribed to.
  void on_message(const proto::BusMessage& msg);
  // A spawned service's process ended (`exit_code`: 128 + signal when killed).
  void on_child_exit(const std::string& id, int exit_code);
  // About every 100 ms: resends and deadlines.
  void tick();
  // SIGINT or SIGTERM arrived.
  void on_signal(int sig);
  // RunControl's two actions, for observers.
  void abort(const std::string& reason);
  void worker_lost(const std::string& worker_id, const std::string& reason);

  Stage stage() const { return stage_; }
  bool done() const { return stage_ == Stage::kDone; }
  // Why the run failed ("" if it did not).
  const std::string& failure() const { return failure_; }
  // No failure and no service lost: the exit code may be 0.
  bool whole() const { return failure_.empty() && losses_.empty(); }
  // Start was sent: load may have gone out, so records may exist.
  bool reached_running() const { return reached_running_; }
  int signals() const { return signals_; }
  int first_signal() const { return first_signal_; }  // 0: none
  std::optional<proto::ProfileResults>& results() { return results_; }
  const proto::TelemetryResults& telemetry() const { return telemetry_; }

 private:
  void set_stage(Stage stage);
  void finish_collecting();
  void on_register(const proto::Register& reg);
  void on_response(const proto::CommandResponse& resp);
  void on_phase_event(const proto::PhaseEvent& ev);
  void on_cancel_request(const proto::CancelRequest& request);
  const std::string& command_id(proto::CommandKind kind);
  void send_command(proto::CommandKind kind, const std::string& target_topic);
  void resend_unanswered();
  void maybe_start();
  size_t alive_of(const std::string& type) const;
  void finalize_after_loss(const std::string& reason);
  void go_on_without(const std::string& id, const std::string& type, const std::string& reason);
  void check_deadlines(Nanos now);

  const config::RunConfig& config_;
  const Clock& clock_;
  LifecycleLink& link_;
  Observers& observers_;

  Stage stage_ = Stage::kRegistering;
  std::set<std::string> expected_;               // spawned service ids
  std::map<std::string, std::string> types_;     // spawned service id -> service type
  std::set<std::string> gone_;                   // services whose process ended (or were lost)
  std::map<std::string, std::string> failures_;  // service id -> the ServiceFailed it sent
  std::vector<std::string> losses_;              // services the run went on without
  std::set<std::string> registered_;
  std::set<std::string> remote_workers_;
  std::set<std::string> configured_;
  std::set<std::string> started_;    // answered the start command
  std::set<std::string> cancelled_;  // answered the cancel command
  std::map<proto::CommandKind, std::string> command_ids_;
  std::string config_json_;  // the configure command's payload, built once
  Nanos next_resend_ns_ = 0;
  std::string failure_;
  std::optional<proto::ProfileResults> results_;
  proto::TelemetryResults telemetry_;
  Nanos stage_deadline_ = 0;
  Nanos last_activity_ = 0;
  uint64_t last_completed_ = 0;
  int signals_ = 0;
  int first_signal_ = 0;           // SIGINT or SIGTERM: the exit code is 128 + it
  bool cancel_requested_ = false;  // a service asked for the run to be cancelled
  bool reached_running_ = false;
};

}  // namespace aiperf::controller
