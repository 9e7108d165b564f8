#include "service/service.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

#include "log/log.h"

namespace aiperf::service {
namespace {
constexpr Nanos kSecond = 1'000'000'000;
constexpr Nanos kProbeTimeout = 30 * kSecond;
constexpr Nanos kRegisterInterval = kSecond;
constexpr Nanos kRegisterTimeout = 60 * kSecond;

int g_term_pipe[2] = {-1, -1};
void on_sigterm(int) {
  char c = 1;
  (void)!::write(g_term_pipe[1], &c, 1);
}

std::string host_name() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}
}  // namespace

Service::Service(Identity identity, bus::Endpoints endpoints)
    : identity_(std::move(identity)), endpoints_(std::move(endpoints)), bus_(endpoints_, identity_.id) {}

int Service::run() {
  // Subscribed before the probe: once the probe comes back, these subscriptions (sent ahead
  // of it on the same connection) have passed the proxy too.
  bus_.subscribe(bus::topic::kCommand);
  bus_.subscribe(bus::topic::command_for(identity_.id));
  bus_.subscribe(bus::topic::ack_for(identity_.id));
  try {
    bus_.wait_ready(kProbeTimeout);
  } catch (const std::exception& e) {
    AIPERF_LOG(kError) << e.what();
    return 1;
  }
  reactor_.add_socket(bus_.sub_socket(), [this] { on_bus_readable(); });
  // SIGTERM (sent by the controller at shutdown, or by the kernel when the controller dies:
  // PR_SET_PDEATHSIG) ends the process through the reactor, so what was measured is saved.
  if (g_term_pipe[0] < 0 && pipe2(g_term_pipe, O_NONBLOCK | O_CLOEXEC) == 0) {
    reactor_.add_fd(g_term_pipe[0], [this] {
      char c;
      while (::read(g_term_pipe[0], &c, 1) == 1) {
      }
      AIPERF_LOG(kInfo) << identity_.id << ": terminated";
      on_terminate();
      exit_code_ = 128 + SIGTERM;
      reactor_.stop();
    });
    signal(SIGTERM, on_sigterm);
  }

  // Register until acknowledged; give up after the deadline (controller gone or mesh broken).
  const Nanos give_up = steady_now_ns() + kRegisterTimeout;
  send_register();
  reactor_.call_every(kRegisterInterval, [this, give_up] {
    if (registered_) return;
    if (steady_now_ns() > give_up) {
      AIPERF_LOG(kError) << identity_.id << ": no registration acknowledgement from the controller";
      exit_code_ = 1;
      reactor_.stop();
      return;
    }
    send_register();
  });
  reactor_.call_every(kHeartbeatInterval, [this] {
    proto::BusMessage msg;
    auto* hb = msg.mutable_heartbeat();
    hb->set_service_id(identity_.id);
    hb->set_service_type(identity_.type);
    hb->set_state(proto::STATE_RUNNING);
    bus_.publish(bus::topic::kHeartbeat, msg);
  });
  reactor_.run();
  return exit_code_;
}

void Service::send_register() {
  proto::BusMessage msg;
  auto* reg = msg.mutable_register_();
  reg->set_service_id(identity_.id);
  reg->set_service_type(identity_.type);
  reg->set_pid(getpid());
  reg->set_hostname(host_name());
  reg->set_wall_ns(wall_now_ns());
  bus_.publish(bus::topic::kRegister, msg);
}

void Service::on_bus_readable() {
  std::string topic;
  proto::BusMessage msg;
  while (!reactor_.stopped() && bus_.receive(topic, msg)) {
    if (topic.empty()) continue;  // malformed frame
    if (msg.has_register_ack()) {
      registered_ = true;
    } else if (msg.has_command()) {
      handle_command(msg.command());
    } else {
      on_bus(topic, msg);
    }
  }
}

void Service::drop_first_commands(std::string_view kinds) {
  drop_first_ = "," + std::string(kinds) + ",";
}

bool Service::drop_for_test(const proto::Command& cmd) {
  if (drop_first_.empty()) return false;
  const char* name = cmd.kind() == proto::COMMAND_CONFIGURE ? "configure" : cmd.kind() == proto::COMMAND_START ? "start" : "";
  if (!*name || drop_first_.find("," + std::string(name) + ",") == std::string::npos) return false;
  if (!dropped_for_test_.insert(cmd.kind()).second) return false;
  AIPERF_LOG(kWarning) << identity_.id << ": ignoring the first " << name << " command (fault injection)";
  return true;
}

void Service::handle_command(const proto::Command& cmd) {
  if (drop_for_test(cmd)) return;
  switch (cmd.kind()) {
    case proto::COMMAND_CONFIGURE: {
      if (cmd.command_id() == pending_configure_id_) {  // a resend
        if (configure_result_) respond(cmd.command_id(), configure_result_->first, configure_result_->second);
        return;  // still deferred: the answer follows when the configuration completes
      }
      configure_deferred_ = false;
      configure_result_.reset();
      pending_configure_id_ = cmd.command_id();
      try {
        on_configure(config::run_config_from_json(nlohmann::json::parse(cmd.config_json())));
      } catch (const std::exception& e) {
        complete_configure(false, e.what());
        return;
      }
      if (!configure_deferred_) complete_configure(true);
      return;
    }
    case proto::COMMAND_START:
      if (handled_commands_.insert(cmd.command_id()).second) on_start();
      respond(cmd.command_id(), true, "");
      return;
    case proto::COMMAND_CANCEL:
      if (handled_commands_.insert(cmd.command_id()).second) on_cancel();
      respond(cmd.command_id(), true, "");
      return;
    case proto::COMMAND_FINALIZE:
      if (handled_commands_.insert(cmd.command_id()).second) on_finalize();
      respond(cmd.command_id(), true, "");
      return;
    case proto::COMMAND_SHUTDOWN:
      reactor_.stop();
      return;
    default:
      return;
  }
}

void Service::complete_configure(bool ok, const std::string& error) {
  configure_result_.emplace(ok, error);
  respond(pending_configure_id_, ok, error);
}

void Service::respond(const std::string& command_id, bool ok, const std::string& error) {
  proto::BusMessage msg;
  auto* r = msg.mutable_command_response();
  r->set_command_id(command_id);
  r->set_service_id(identity_.id);
  r->set_ok(ok);
  if (!ok) {
    r->mutable_error()->set_type("ServiceError");
    r->mutable_error()->set_message(error);
    AIPERF_LOG(kError) << identity_.id << ": " << error;
  }
  bus_.publish(bus::topic::kResponse, msg);
}

void Service::fail(const std::string& message) {
  AIPERF_LOG(kError) << identity_.id << " failed: " << message;
  proto::BusMessage msg;
  auto* f = msg.mutable_service_failed();
  f->set_service_id(identity_.id);
  f->mutable_error()->set_type("ServiceError");
  f->mutable_error()->set_message(message);
  bus_.publish(bus::topic::kFailed, msg);
  exit_code_ = 1;
  reactor_.stop();
}

}  // namespace aiperf::service
