// RunLifecycle's rules on fake time, without processes or sockets: what it publishes, when it
// gives up, and what a lost service costs the run.
#include "lifecycle.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "bus/bus_client.h"
#include "fakes/manual_timers.h"

using namespace aiperf;
using namespace aiperf::controller;

namespace {

constexpr Nanos kS = RunLifecycle::kSecond;

struct Published {
  std::string topic;
  proto::BusMessage msg;
};

class FakeLink final : public LifecycleLink {
 public:
  void publish(const std::string& topic, proto::BusMessage& msg) override { sent.push_back({topic, msg}); }
  void stop() override { ++stops; }

  // Commands of `kind` sent so far, as their topics.
  std::vector<std::string> commands(proto::CommandKind kind) const {
    std::vector<std::string> topics;
    for (const auto& p : sent)
      if (p.msg.has_command() && p.msg.command().kind() == kind) topics.push_back(p.topic);
    return topics;
  }
  std::string command_id(proto::CommandKind kind) const {
    for (const auto& p : sent)
      if (p.msg.has_command() && p.msg.command().kind() == kind) return p.msg.command().command_id();
    return "";
  }

  std::vector<Published> sent;
  int stops = 0;
};

class StageLog final : public RunObserver {
 public:
  explicit StageLog(std::vector<std::string>& stages) : stages_(stages) {}
  void on_stage(std::string_view stage) override { stages_.emplace_back(stage); }

 private:
  std::vector<std::string>& stages_;
};

const std::vector<std::pair<std::string, std::string>> kServices = {
    {"dataset_1", "dataset"},     {"timing_1", "timing"}, {"records_1", "records"}, {"telemetry_1", "telemetry"},
    {"rp_1", "record_processor"}, {"worker_1", "worker"}, {"worker_2", "worker"}};

struct Fixture {
  Fixture() {
    config.endpoint.timeout_seconds = 5;
    observers.push_back(std::make_unique<StageLog>(stages));
  }

  proto::BusMessage registration(const std::string& id, const std::string& type) {
    proto::BusMessage msg;
    auto* reg = msg.mutable_register_();
    reg->set_service_id(id);
    reg->set_service_type(type);
    reg->set_wall_ns(clock.wall_now());
    return msg;
  }
  proto::BusMessage response(proto::CommandKind kind, const std::string& id, bool ok = true) {
    proto::BusMessage msg;
    auto* resp = msg.mutable_command_response();
    resp->set_command_id(link.command_id(kind));
    resp->set_service_id(id);
    resp->set_ok(ok);
    if (!ok) resp->mutable_error()->set_message("no tokenizer");
    return msg;
  }
  void at(Nanos t) {
    clock.set(t);
    life.tick();
  }
  void start_all() {
    for (const auto& [id, type] : kServices) life.expect(id, type);
    life.begin();
  }
  void register_all() {
    for (const auto& [id, type] : kServices) life.on_message(registration(id, type));
  }
  void configure_all() {
    for (const auto& [id, type] : kServices) life.on_message(response(proto::COMMAND_CONFIGURE, id));
  }
  void run_all() {
    start_all();
    register_all();
    configure_all();
    for (const auto& [id, type] : kServices) life.on_message(response(proto::COMMAND_START, id));
  }

  config::RunConfig config;
  testing::ManualClock clock;
  FakeLink link;
  std::vector<std::string> stages;
  Observers observers;
  RunLifecycle life{config, clock, link, observers};
};

}  // namespace

TEST_CASE("lifecycle: register, configure, start, results, telemetry, done", "[controller][lifecycle]") {
  Fixture f;
  f.start_all();
  f.register_all();
  // Each registration is acknowledged on the service's own topic; configure goes out once, to all.
  REQUIRE(f.link.sent.size() == kServices.size() + 1);
  CHECK(f.link.sent[0].topic == bus::topic::ack_for("dataset_1"));
  CHECK(f.link.sent[0].msg.register_ack().service_id() == "dataset_1");
  REQUIRE(f.link.commands(proto::COMMAND_CONFIGURE) == std::vector<std::string>{std::string(bus::topic::kCommand)});
  CHECK(nlohmann::json::parse(f.link.sent.back().msg.command().config_json())["endpoint"]["timeout_seconds"] == 5.0);
  CHECK(f.life.stage() == Stage::kConfiguring);

  f.configure_all();
  CHECK(f.life.stage() == Stage::kRunning);
  CHECK(f.life.reached_running());
  CHECK(f.link.commands(proto::COMMAND_START) == std::vector<std::string>{std::string(bus::topic::kCommand)});

  proto::BusMessage results;
  results.mutable_profile_results()->set_total_expected(10);
  f.life.on_message(results);
  CHECK(f.life.stage() == Stage::kCollecting);
  CHECK(f.link.stops == 0);
  proto::BusMessage telemetry;
  telemetry.mutable_telemetry_results();
  f.life.on_message(telemetry);
  CHECK(f.life.done());
  CHECK(f.link.stops == 1);
  CHECK(f.life.whole());
  REQUIRE(f.life.results());
  CHECK(f.life.results()->total_expected() == 10);
  CHECK(f.stages == std::vector<std::string>{"configuring", "waiting_remote", "running", "collecting", "done"});
}

TEST_CASE("lifecycle: a service that does not register in 30 s ends the run, naming it", "[controller][lifecycle]") {
  Fixture f;
  f.start_all();
  for (const auto& [id, type] : kServices)
    if (id != "rp_1" && id != "worker_2") f.life.on_message(f.registration(id, type));
  f.at(30 * kS);
  CHECK_FALSE(f.life.done());
  f.at(30 * kS + 1);
  CHECK(f.life.done());
  CHECK(f.life.failure() == "services did not register in time: rp_1 worker_2");
  CHECK(f.link.stops == 1);
  CHECK_FALSE(f.life.reached_running());
}

TEST_CASE("lifecycle: unanswered commands are resent every second on the service's topic, same id",
          "[controller][lifecycle]") {
  Fixture f;
  f.start_all();
  f.register_all();
  for (const auto& [id, type] : kServices)
    if (id != "timing_1") f.life.on_message(f.response(proto::COMMAND_CONFIGURE, id));
  const std::string id = f.link.command_id(proto::COMMAND_CONFIGURE);
  f.at(kS - 1);
  CHECK(f.link.commands(proto::COMMAND_CONFIGURE).size() == 1);
  f.at(kS);
  CHECK(f.link.commands(proto::COMMAND_CONFIGURE) ==
        std::vector<std::string>{std::string(bus::topic::kCommand), bus::topic::command_for("timing_1")});
  CHECK(f.link.sent.back().msg.command().command_id() == id);
  f.at(kS + kS / 2);  // not yet a second since the resend
  CHECK(f.link.commands(proto::COMMAND_CONFIGURE).size() == 2);

  f.life.on_message(f.response(proto::COMMAND_CONFIGURE, "timing_1"));
  CHECK(f.life.stage() == Stage::kRunning);
  // Running: only worker_2 has not answered start, so only it hears it again.
  for (const auto& [sid, type] : kServices)
    if (sid != "worker_2") f.life.on_message(f.response(proto::COMMAND_START, sid));
  f.at(3 * kS);
  CHECK(f.link.commands(proto::COMMAND_START) ==
        std::vector<std::string>{std::string(bus::topic::kCommand), bus::topic::command_for("worker_2")});
  CHECK(f.link.commands(proto::COMMAND_CONFIGURE).size() == 2);
}

TEST_CASE("lifecycle: configure failing in one service ends the run with its message", "[controller][lifecycle]") {
  Fixture f;
  f.start_all();
  f.register_all();
  f.life.on_message(f.response(proto::COMMAND_CONFIGURE, "dataset_1", false));
  CHECK(f.life.done());
  CHECK(f.life.failure() == "configure failed in dataset_1: no tokenizer");
  CHECK(f.link.commands(proto::COMMAND_START).empty());
}

TEST_CASE("lifecycle: a worker lost with another left costs only what it held", "[controller][lifecycle]") {
  Fixture f;
  f.run_all();
  f.life.on_child_exit("worker_1", 137);
  CHECK(f.life.stage() == Stage::kRunning);
  CHECK_FALSE(f.life.whole());
  CHECK(f.life.failure().empty());
  const auto& lost = f.link.sent.back();
  CHECK(lost.topic == bus::topic::kLost);
  CHECK(lost.msg.service_lost().service_id() == "worker_1");
  CHECK(lost.msg.service_lost().service_type() == "worker");
  CHECK(lost.msg.service_lost().reason() == "service worker_1 exited unexpectedly with code 137");

  // The last worker: in-flight requests are cancelled and the records service finalizes.
  f.life.on_child_exit("worker_2", 1);
  CHECK(f.life.stage() == Stage::kFinalizing);
  CHECK(f.link.commands(proto::COMMAND_CANCEL) == std::vector<std::string>{std::string(bus::topic::kCommand)});
  CHECK(f.link.commands(proto::COMMAND_FINALIZE) == std::vector<std::string>{bus::topic::command_for("records_1")});
  CHECK(f.life.failure() ==
        "service worker_2 exited unexpectedly with code 1; the summary holds the records measured until then");
  // The records service does not answer within 10 s: the run ends without its results.
  f.at(10 * kS);
  CHECK_FALSE(f.life.done());
  f.at(10 * kS + 1);
  CHECK(f.life.done());
  CHECK_FALSE(f.life.results());
}

TEST_CASE("lifecycle: a service's own failure message explains its exit; before running it ends the run",
          "[controller][lifecycle]") {
  Fixture f;
  f.start_all();
  f.register_all();
  proto::BusMessage failed;
  failed.mutable_service_failed()->set_service_id("dataset_1");
  failed.mutable_service_failed()->mutable_error()->set_message("cannot read prompts.jsonl");
  f.life.on_message(failed);
  CHECK_FALSE(f.life.done());  // the exit decides
  f.life.on_child_exit("dataset_1", 1);
  CHECK(f.life.done());
  CHECK(f.life.failure() == "service dataset_1 exited unexpectedly with code 1 (cannot read prompts.jsonl)");
}

TEST_CASE("lifecycle: losing the records service while running ends the run at once", "[controller][lifecycle]") {
  Fixture f;
  f.run_all();
  f.life.on_child_exit("records_1", 139);
  CHECK(f.life.done());
  CHECK(f.life.failure() ==
        "service records_1 exited unexpectedly with code 139; the summary holds the records measured until then");
  CHECK(f.life.reached_running());  // the controller recomputes the summary from the records file
}

TEST_CASE("lifecycle: telemetry lost after the results ends collecting", "[controller][lifecycle]") {
  Fixture f;
  f.run_all();
  proto::BusMessage results;
  results.mutable_profile_results();
  f.life.on_message(results);
  f.life.on_child_exit("telemetry_1", 1);
  CHECK(f.life.done());
  CHECK(f.life.whole());
}

TEST_CASE("lifecycle: telemetry results that never come are waited for 10 s", "[controller][lifecycle]") {
  Fixture f;
  f.run_all();
  proto::BusMessage results;
  results.mutable_profile_results();
  f.clock.set(50 * kS);
  f.life.on_message(results);
  f.at(60 * kS);
  CHECK(f.life.stage() == Stage::kCollecting);
  f.at(60 * kS + 1);
  CHECK(f.life.done());
  CHECK(f.life.whole());
}

TEST_CASE("lifecycle: the first interrupt cancels, the second ends the run", "[controller][lifecycle]") {
  Fixture f;
  f.run_all();
  f.life.on_signal(2);
  CHECK_FALSE(f.life.done());
  CHECK(f.link.commands(proto::COMMAND_CANCEL).size() == 1);
  // Whoever has not answered the cancel hears it again.
  for (const auto& [id, type] : kServices)
    if (id != "worker_1") f.life.on_message(f.response(proto::COMMAND_CANCEL, id));
  f.at(kS);
  CHECK(f.link.commands(proto::COMMAND_CANCEL) ==
        std::vector<std::string>{std::string(bus::topic::kCommand), bus::topic::command_for("worker_1")});
  f.life.on_signal(15);
  CHECK(f.life.done());
  CHECK(f.life.failure() == "interrupted");
  CHECK(f.life.signals() == 2);
  CHECK(f.life.first_signal() == 2);
}

TEST_CASE("lifecycle: an interrupt before running ends the run at once", "[controller][lifecycle]") {
  Fixture f;
  f.start_all();
  f.life.on_signal(15);
  CHECK(f.life.done());
  CHECK(f.life.first_signal() == 15);
  CHECK(f.link.commands(proto::COMMAND_CANCEL).empty());
}

TEST_CASE("lifecycle: a cancel request (failed-request threshold) cancels once and fails the run",
          "[controller][lifecycle]") {
  Fixture f;
  f.run_all();
  proto::BusMessage req;
  req.mutable_cancel_request()->set_service_id("records_1");
  req.mutable_cancel_request()->set_reason("failed requests exceeded 10%");
  f.life.on_message(req);
  f.life.on_message(req);
  CHECK(f.link.commands(proto::COMMAND_CANCEL).size() == 1);
  CHECK(f.life.failure() == "failed requests exceeded 10%");
  CHECK_FALSE(f.life.done());
}

TEST_CASE("lifecycle: nothing completed for the request timeout + 60 s is a stuck run", "[controller][lifecycle]") {
  Fixture f;  // request timeout 5 s: the limit is 65 s without progress
  f.run_all();
  proto::BusMessage progress;
  auto* ev = progress.mutable_phase_event();
  ev->set_kind(proto::PHASE_EVENT_PROGRESS);
  ev->set_completed(3);
  f.clock.set(40 * kS);
  f.life.on_message(progress);  // progress at 40 s
  f.at(100 * kS);
  f.life.on_message(progress);  // the same count again is not progress
  f.at(105 * kS);
  CHECK_FALSE(f.life.done());
  f.at(105 * kS + 1);
  CHECK(f.life.done());
  CHECK(f.life.failure() == "no progress within the request timeout");
}

TEST_CASE("lifecycle: remote workers join, configure and start; too few in 120 s ends the run",
          "[controller][lifecycle]") {
  Fixture f;
  f.config.service.workers_remote = 2;
  f.start_all();
  f.register_all();
  f.configure_all();
  CHECK(f.life.stage() == Stage::kWaitingRemote);
  f.life.on_message(f.registration("remote_a", "worker"));
  f.life.on_message(f.registration("intruder", "dataset"));  // only workers may join
  CHECK(f.link.commands(proto::COMMAND_CONFIGURE) ==
        std::vector<std::string>{std::string(bus::topic::kCommand), bus::topic::command_for("remote_a")});
  f.life.on_message(f.response(proto::COMMAND_CONFIGURE, "remote_a"));
  CHECK(f.life.stage() == Stage::kWaitingRemote);

  f.at(120 * kS + 1);
  CHECK(f.life.done());
  CHECK(f.life.failure() == "expected 2 remote workers, 1 joined before the deadline");
}

TEST_CASE("lifecycle: a remote worker joining a running benchmark gets configure and start",
          "[controller][lifecycle]") {
  Fixture f;
  f.run_all();
  f.life.on_message(f.registration("remote_b", "worker"));
  CHECK(f.link.commands(proto::COMMAND_CONFIGURE).back() == bus::topic::command_for("remote_b"));
  CHECK(f.link.commands(proto::COMMAND_START).back() == bus::topic::command_for("remote_b"));
  // A monitor reports it silent: other workers remain, so the run goes on.
  f.life.worker_lost("remote_b", "remote worker remote_b silent for 30 s");
  CHECK(f.life.stage() == Stage::kRunning);
  CHECK(f.link.sent.back().msg.service_lost().reason() == "remote worker remote_b silent for 30 s");
}
