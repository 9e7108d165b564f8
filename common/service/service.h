// Service: the lifecycle every child process shares. run() connects to the event bus,
// proves it delivers (probe), registers with the controller (retried until acknowledged),
// then dispatches commands (configure, start, cancel, shutdown) and heartbeats on one
// reactor thread. Every wait has a deadline; a fatal error is published as ServiceFailed
// and the process exits non-zero. SIGTERM stops the reactor after on_terminate() (exit 143).
#pragma once
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "bus/bus_client.h"
#include "bus/endpoints.h"
#include "bus/reactor.h"
#include "config/run_config.h"

namespace aiperf::service {

// How often every service publishes a Heartbeat; the controller's WorkerMonitor derives its
// silence deadline for remote workers from it.
inline constexpr Nanos kHeartbeatInterval = 2'000'000'000;

struct Identity {
  std::string id;    // e.g. "worker_1a2b3c4d"
  std::string type;  // e.g. "worker"
  uint32_t index = 0;  // which of its type's replicas (record processors: Endpoints::raw_direct)
};

class Service {
 public:
  Service(Identity identity, bus::Endpoints endpoints);
  virtual ~Service() = default;

  // Returns the process exit code.
  int run();

  // Fault injection for end-to-end tests of lost commands: ignore the first command of each
  // kind listed ("configure,start"), as if the message had been lost on the way.
  void drop_first_commands(std::string_view kinds);

 protected:
  // Hooks, all on the reactor thread. Throwing from on_configure fails the configure command.
  virtual void on_configure(const config::RunConfig& config) = 0;
  virtual void on_start() {}
  virtual void on_cancel() {}
  // A service the run cannot go on without died: publish what you have now (records).
  virtual void on_finalize() {}
  // The process was asked to stop (SIGTERM, e.g. the controller died): save what must
  // survive (written records) before run() returns.
  virtual void on_terminate() {}
  virtual void on_bus(std::string_view topic, const proto::BusMessage& msg) {}

  // Call inside on_configure to answer later with complete_configure().
  void defer_configure_response() { configure_deferred_ = true; }
  void complete_configure(bool ok, const std::string& error = "");

  void subscribe(std::string_view topic) { bus_.subscribe(topic); }
  void publish(std::string_view topic, proto::BusMessage& msg) { bus_.publish(topic, msg); }
  void fail(const std::string& message);  // publish ServiceFailed, exit 1

  bus::Reactor& reactor() { return reactor_; }
  const bus::Endpoints& endpoints() const { return endpoints_; }
  const Identity& identity() const { return identity_; }

 private:
  void on_bus_readable();
  void handle_command(const proto::Command& cmd);
  void respond(const std::string& command_id, bool ok, const std::string& error);
  bool drop_for_test(const proto::Command& cmd);
  void send_register();

  Identity identity_;
  bus::Endpoints endpoints_;
  bus::Reactor reactor_;
  bus::BusClient bus_;
  bool registered_ = false;
  bool configure_deferred_ = false;
  std::string pending_configure_id_;
  // The controller resends a command until it is answered (a PUB/SUB message can be missed
  // while a subscription is still propagating); a resend is answered again, never re-run.
  std::optional<std::pair<bool, std::string>> configure_result_;  // ok, error
  std::set<std::string> handled_commands_;                          // start / cancel ids
  std::string drop_first_;                                          // ",configure,start," or ""
  std::set<int> dropped_for_test_;                                  // command kinds
  int exit_code_ = 0;
};

}  // namespace aiperf::service
