// WorkerMonitor with a fake clock: remote workers are watched through their heartbeats and a
// silent one ends the run once, naming the worker and its host; local services are not its job.
#include <catch2/catch.hpp>

#include <fstream>

#include "bus/reactor.h"
#include "log/log.h"
#include "worker_monitor.h"

using namespace aiperf;
using namespace aiperf::controller;

namespace {
constexpr Nanos kS = 1'000'000'000;

struct FakeClock : Clock {
  Nanos steady = 1000 * kS;
  Nanos wall = 1'700'000'000 * kS;
  Nanos steady_now() const override { return steady; }
  Nanos wall_now() const override { return wall; }
};

struct FakeControl : RunControl {
  std::vector<std::string> aborts;
  bus::Reactor reactor_;
  void abort_run(const std::string& reason) override { aborts.push_back(reason); }
  void worker_lost(const std::string& id, const std::string& reason) override { aborts.push_back(id + ": " + reason); }
  bus::Reactor& reactor() override { return reactor_; }
};

proto::Register reg(const std::string& id, const std::string& host, Nanos wall_ns) {
  proto::Register r;
  r.set_service_id(id);
  r.set_service_type("worker");
  r.set_hostname(host);
  r.set_pid(42);
  r.set_wall_ns(wall_ns);
  return r;
}

proto::Heartbeat hb(const std::string& id) {
  proto::Heartbeat h;
  h.set_service_id(id);
  h.set_service_type("worker");
  return h;
}
}  // namespace

TEST_CASE("the silence deadline is three heartbeat intervals plus a second") {
  CHECK(kRemoteWorkerSilenceDeadline == 7 * kS);
}

TEST_CASE("heartbeats keep a remote worker alive, silence past the deadline reports it lost once") {
  FakeClock clock;
  FakeControl control;
  WorkerMonitor monitor(control, clock);
  monitor.on_register(reg("w1", "gpu-01", clock.wall), true);
  monitor.on_register(reg("w2", "gpu-02", clock.wall), true);
  CHECK(monitor.remote_workers() == 2);

  // w1 beats every 2 s for 8 s; w2 goes quiet after its first beat at +2 s.
  for (int t = 2; t <= 9; t += 2) {
    clock.steady += 2 * kS;
    monitor.on_heartbeat(hb("w1"));
    if (t == 2) monitor.on_heartbeat(hb("w2"));
    monitor.tick(clock.steady);
  }
  // w2 last seen at +2 s, now +8 s: 6 s silent, within 7 s.
  CHECK(control.aborts.empty());
  clock.steady += kS;  // +9 s: exactly 7 s silent is still within the deadline
  monitor.tick(clock.steady);
  CHECK(control.aborts.empty());
  clock.steady += 1;  // one nanosecond past it
  monitor.tick(clock.steady);
  REQUIRE(control.aborts.size() == 1);
  CHECK(control.aborts[0] ==
        "w2: remote worker w2 on host gpu-02 sent no heartbeat for 7.0 s (deadline 7.0 s); the requests it holds "
        "cannot complete");
  CHECK(monitor.remote_workers() == 1);
  // w2 is not reported again; w1, still watched, is reported once it too falls silent.
  clock.steady += 10 * kS;
  monitor.tick(clock.steady);
  monitor.tick(clock.steady);
  REQUIRE(control.aborts.size() == 2);
  CHECK(control.aborts[1].rfind("w1: remote worker w1 on host gpu-01", 0) == 0);
}

TEST_CASE("a worker that registers and never beats is caught by its registration time") {
  FakeClock clock;
  FakeControl control;
  WorkerMonitor monitor(control, clock, 3 * kS);
  monitor.on_register(reg("w1", "gpu-01", clock.wall), true);
  clock.steady += 3 * kS;
  monitor.tick(clock.steady);
  CHECK(control.aborts.empty());
  clock.steady += 1;
  monitor.tick(clock.steady);
  CHECK(control.aborts.size() == 1);
}

TEST_CASE("a registration retry refreshes the worker without re-adding it") {
  FakeClock clock;
  FakeControl control;
  WorkerMonitor monitor(control, clock, 3 * kS);
  monitor.on_register(reg("w1", "gpu-01", clock.wall), true);
  clock.steady += 2 * kS;
  monitor.on_register(reg("w1", "gpu-01", clock.wall), true);
  clock.steady += 3 * kS;
  monitor.tick(clock.steady);
  CHECK(control.aborts.empty());
  CHECK(monitor.remote_workers() == 1);
}

TEST_CASE("local services and unknown heartbeats are not watched") {
  FakeClock clock;
  FakeControl control;
  WorkerMonitor monitor(control, clock, 3 * kS);
  monitor.on_register(reg("worker_local", "controller-host", clock.wall), false);
  monitor.on_heartbeat(hb("someone_else"));
  CHECK(monitor.remote_workers() == 0);
  clock.steady += 100 * kS;
  monitor.tick(clock.steady);
  CHECK(control.aborts.empty());
}

TEST_CASE("once the results are in, a worker may go quiet") {
  for (const char* stage : {"collecting", "done"}) {
    FakeClock clock;
    FakeControl control;
    WorkerMonitor monitor(control, clock, 3 * kS);
    monitor.on_register(reg("w1", "gpu-01", clock.wall), true);
    monitor.on_stage("running");
    monitor.on_stage(stage);
    clock.steady += 100 * kS;
    monitor.tick(clock.steady);
    CHECK(control.aborts.empty());
  }
}

TEST_CASE("the join is logged with the host and the clock offset") {
  char tmpl[] = "/tmp/aiperf-monitor-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string log_path = std::string(tmpl) + "/aiperf.log";
  log::init("system_controller", log_path, log::Level::kInfo);
  FakeClock clock;
  FakeControl control;
  WorkerMonitor monitor(control, clock);
  // The worker stamped its registration 1.5 ms before the controller's clock read it.
  monitor.on_register(reg("w9", "gpu-09", clock.wall - 1'500'000), true);
  log::set_file("");
  std::ifstream in(log_path);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  CHECK(text.find("remote worker w9 joined from host gpu-09 (pid 42); its wall clock is 1.5 ms behind the "
                  "controller's (positive = behind, bus latency included)") != std::string::npos);
}
