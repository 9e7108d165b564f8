// End-to-end over loopback: a CURVE-protected run (--mesh-keys) admits a worker holding the
// shared key, and nothing else: a worker without keys never joins, and plain ZeroMQ sockets
// publishing a forged command or announcing a forged worker on the credit channel never reach
// the run. Also: a remote worker killed mid-run ends the run, named, within its heartbeat deadline.
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <map>
#include <thread>

#include <zmq.hpp>

#include "bus/socket.h"
#include "control.pb.h"
#include "credit.pb.h"
#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::Process;
using aiperf::test::read_file;
using aiperf::test::read_lines;
using nlohmann::json;

namespace {

const std::string kAiperf = std::string(AIPERF_BIN_DIR) + "/aiperf";

std::string address(int base) { return "tcp://127.0.0.1:" + std::to_string(base); }
std::string port(int base, int k) { return "tcp://127.0.0.1:" + std::to_string(base + k); }

// Plain (no CURVE) sockets that try to steer the run until stopped: a PUB on the event bus
// publishing a shutdown command, and a DEALER on the credit channel announcing a worker that
// would swallow credits. Either, if delivered, makes the run fail.
class Forger {
 public:
  explicit Forger(int base) {
    thread_ = std::thread([this, base] {
      zmq::context_t ctx;
      zmq::socket_t pub(ctx, zmq::socket_type::pub);
      zmq::socket_t dealer(ctx, zmq::socket_type::dealer);
      pub.set(zmq::sockopt::linger, 0);
      dealer.set(zmq::sockopt::linger, 0);
      dealer.set(zmq::sockopt::routing_id, "forged_worker");
      pub.connect(port(base, 0));     // event bus frontend (XSUB)
      dealer.connect(port(base, 2));  // credit ROUTER
      aiperf::proto::BusMessage cmd;
      cmd.set_version(aiperf::proto::PROTO_VERSION_CURRENT);
      cmd.mutable_command()->set_kind(aiperf::proto::COMMAND_SHUTDOWN);
      cmd.mutable_command()->set_command_id("forged");
      aiperf::proto::CreditMessage ready;
      ready.set_version(aiperf::proto::PROTO_VERSION_CURRENT);
      ready.mutable_ready()->set_worker_id("forged_worker");
      while (!stop_) {
        pub.send(zmq::str_buffer("cmd$"), zmq::send_flags::sndmore | zmq::send_flags::dontwait);
        const std::string body = cmd.SerializeAsString();
        pub.send(zmq::buffer(body), zmq::send_flags::dontwait);
        const std::string credit = ready.SerializeAsString();
        if (dealer.send(zmq::buffer(credit), zmq::send_flags::dontwait)) ++sent_;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    });
  }
  ~Forger() {
    stop_ = true;
    thread_.join();
  }
  int sent() const { return sent_; }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> sent_{0};
  std::thread thread_;
};

std::map<std::string, int> records_per_worker(const std::string& jsonl) {
  std::map<std::string, int> n;
  for (const auto& l : read_lines(jsonl)) ++n[json::parse(l)["metadata"]["worker_id"].get<std::string>()];
  return n;
}

}  // namespace

TEST_CASE("a CURVE run admits the keyed worker only: keyless workers and forged plain messages never arrive", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const int base = aiperf::test::free_port_range(7);
  const std::string dir = tmp + "/artifacts", keys = tmp + "/mesh";
  Process controller(kAiperf,
                     {"profile", "--artifact-dir", dir, "--tokenizer", "gpt2", "--ui-type", "none", "--model", "m",
                      "--url", mock.url(), "--request-count", "60", "--concurrency", "3", "--zmq-host", "127.0.0.1",
                      "--zmq-base-port", std::to_string(base), "--workers-max", "0", "--workers-remote", "1",
                      "--mesh-keys", keys},
                     tmp, "aiperf");
  // The controller creates the keys on first use; worker.secret is written last.
  REQUIRE(aiperf::test::wait_until([&] { return std::filesystem::exists(keys + "/worker.secret"); }, 30));

  Process keyless(kAiperf, {"worker", "--controller", address(base), "--service-id", "keyless_worker"}, tmp, "keyless");
  int forged_sent = 0;
  {
    Forger forger(base);
    // The forgeries run for the whole benchmark, from before the real worker joins.
    REQUIRE(aiperf::test::wait_until([&] { return forger.sent() >= 10; }, 30));
    Process keyed(kAiperf, {"worker", "--controller", address(base), "--mesh-keys", keys, "--service-id", "keyed_worker"},
                  tmp, "keyed");
    auto rc = controller.wait(120);
    forged_sent = forger.sent();
    INFO(controller.out() << controller.err() << keyed.err());
    REQUIRE(rc.has_value());
    CHECK(*rc == 0);
    CHECK(keyed.wait(30) == std::optional<int>(0));  // shut down by the controller
  }
  CHECK(forged_sent >= 10);
  CHECK(records_per_worker(dir + "/profile_export.jsonl") == std::map<std::string, int>{{"keyed_worker", 60}});

  // The keyless worker's handshakes are dropped; it gives up at its bus deadline and says why.
  const auto keyless_rc = keyless.wait(60);
  REQUIRE(keyless_rc.has_value());
  CHECK(*keyless_rc == 1);
  CHECK(keyless.err().find("event bus not reachable within deadline (keyless_worker); if the controller uses "
                           "--mesh-keys, pass --mesh-keys DIR") != std::string::npos);

  const std::string log = read_file(dir + "/logs/aiperf.log");
  CHECK(log.find("registered keyed_worker") != std::string::npos);
  CHECK(log.find("registered keyless_worker") == std::string::npos);
  CHECK(log.find("forged_worker") == std::string::npos);
  CHECK(log.find("mesh authenticated with CURVE keys from " + keys) != std::string::npos);
  CHECK(controller.err().find("unauthenticated") == std::string::npos);  // loopback never warns
}

TEST_CASE("a remote worker killed mid-run ends the run, naming the worker and its host", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "40"}, tmp);
  const int base = aiperf::test::free_port_range(7);
  const std::string dir = tmp + "/artifacts", keys = tmp + "/mesh";
  Process controller(kAiperf,
                     {"profile", "--artifact-dir", dir, "--tokenizer", "gpt2", "--ui-type", "none", "--model", "m",
                      "--url", mock.url(), "--request-count", "2000", "--concurrency", "2", "--zmq-host", "127.0.0.1",
                      "--zmq-base-port", std::to_string(base), "--workers-max", "0", "--workers-remote", "1",
                      "--mesh-keys", keys},
                     tmp, "aiperf");
  REQUIRE(aiperf::test::wait_until([&] { return std::filesystem::exists(keys + "/worker.secret"); }, 30));
  Process worker(kAiperf, {"worker", "--controller", address(base), "--mesh-keys", keys, "--service-id", "doomed_worker"},
                 tmp, "worker");
  REQUIRE(aiperf::test::wait_until([&] { return read_lines(dir + "/profile_export.jsonl").size() >= 10; }, 90));
  worker.kill_now(SIGKILL);

  const auto rc = controller.wait(120);
  INFO(controller.out() << controller.err());
  REQUIRE(rc.has_value());
  CHECK(*rc == 1);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  CHECK(controller.err().find("Error: remote worker doomed_worker on host " + std::string(host) +
                              " sent no heartbeat for ") != std::string::npos);
  CHECK(controller.err().find("the requests it holds cannot complete") != std::string::npos);
  CHECK(read_lines(dir + "/profile_export.jsonl").size() < 2000);
}

TEST_CASE("a remote worker killed while a local one remains: the run goes on, its requests become WorkerLost errors",
          "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "40", "--itl", "1"}, tmp);
  const int base = aiperf::test::free_port_range(7);
  const std::string dir = tmp + "/artifacts", keys = tmp + "/mesh";
  constexpr int kRequests = 600;
  Process controller(kAiperf,
                     {"profile", "--artifact-dir", dir, "--tokenizer", "gpt2", "--ui-type", "none", "--model", "m",
                      "--url", mock.url(), "--isl", "8", "--osl", "2", "--request-count", std::to_string(kRequests),
                      "--concurrency", "4",
                      "--zmq-host", "127.0.0.1", "--zmq-base-port", std::to_string(base), "--workers-max", "1",
                      "--workers-remote", "1", "--mesh-keys", keys},
                     tmp, "aiperf");
  REQUIRE(aiperf::test::wait_until([&] { return std::filesystem::exists(keys + "/worker.secret"); }, 30));
  Process worker(kAiperf, {"worker", "--controller", address(base), "--mesh-keys", keys, "--service-id", "doomed_worker"},
                 tmp, "worker");
  REQUIRE(aiperf::test::wait_until([&] { return read_lines(dir + "/profile_export.jsonl").size() >= 10; }, 90));
  worker.kill_now(SIGKILL);

  const auto rc = controller.wait(120);
  INFO(controller.out() << controller.err());
  REQUIRE(rc.has_value());
  CHECK(*rc == 1);
  CHECK(controller.err().find("Error: remote worker doomed_worker on host ") != std::string::npos);
  CHECK(controller.err().find("; the run goes on without it") != std::string::npos);
  const auto lines = read_lines(dir + "/profile_export.jsonl");
  CHECK(lines.size() == kRequests);
  int lost = 0;
  for (const auto& l : lines) lost += l.find("\"type\":\"WorkerLost\"") != std::string::npos;
  CHECK(lost >= 1);  // it held requests: concurrency 4 over two workers
}
