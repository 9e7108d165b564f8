// End-to-end across real network hosts on one machine: each "host" is a network namespace.
// The controller's namespace holds a bridge (10.77.0.1/24) and the mock server; every worker
// namespace is wired to that bridge by a veth pair. A CURVE-protected run with two remote
// workers on two hosts spreads its records over both, while a third host with a key the
// controller never authorised is refused (and logged) and contributes nothing.
// Needs root and `ip netns`; without them the test fails, it does not skip.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>
#include <stdexcept>

#include "process.h"

using aiperf::test::Process;
using aiperf::test::read_file;
using aiperf::test::read_lines;
using nlohmann::json;

namespace {

const std::string kAiperf = std::string(AIPERF_BIN_DIR) + "/aiperf";
const std::string kMockServer = std::string(AIPERF_BIN_DIR) + "/aiperf-mock-server";
const std::string kControllerAddr = "10.77.0.1";

// Runs a shell command; throws with its output if it fails.
std::string sh(const std::string& cmd) {
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) throw std::runtime_error("popen failed: " + cmd);
  std::string out;
  char buf[512];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = pclose(p);
  if (status != 0) throw std::runtime_error("`" + cmd + "` failed (status " + std::to_string(status) + "): " + out);
  return out;
}

std::string ip_binary() {
  for (const char* p : {"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"})
    if (access(p, X_OK) == 0) return p;
  throw std::runtime_error("the `ip` command (iproute2) is not installed: the netns mesh test cannot run");
}

// One controller host and `workers` worker hosts, named uniquely for this test process, torn
// down (with every veth and the bridge inside them) when the object goes, even on failure.
class Lan {
 public:
  explicit Lan(int workers) : prefix_("am" + std::to_string(getpid()) + "x" + std::to_string(next_id_++)) {
    try {
      add_ns(controller_ns());
      sh("ip -n " + controller_ns() + " link set lo up");
      sh("ip -n " + controller_ns() + " link add br0 type bridge");
      sh("ip -n " + controller_ns() + " addr add " + kControllerAddr + "/24 dev br0");
      sh("ip -n " + controller_ns() + " link set br0 up");
      for (int i = 1; i <= workers; ++i) {
        const std::string ns = worker_ns(i), port = "vw" + std::to_string(i);
        add_ns(ns);
        sh("ip -n " + ns + " link set lo up");
        sh("ip -n " + controller_ns() + " link add " + port + " type veth peer name eth0 netns " + ns);
        sh("ip -n " + controller_ns() + " link set " + port + " master br0 up");
        sh("ip -n " + ns + " addr add " + worker_addr(i) + "/24 dev eth0");
        sh("ip -n " + ns + " link set eth0 up");
      }
    } catch (...) {
      teardown();
      throw;
    }
  }
  ~Lan() { teardown(); }
  Lan(const Lan&) = delete;
  Lan& operator=(const Lan&) = delete;

  std::string controller_ns() const { return prefix_ + "c"; }
  std::string worker_ns(int i) const { return prefix_ + "w" + std::to_string(i); }
  static std::string worker_addr(int i) { return "10.77.0." + std::to_string(10 + i); }

  // `binary args...` inside namespace `ns`.
  std::vector<std::string> in(const std::string& ns, const std::string& binary, std::vector<std::string> args) const {
    std::vector<std::string> full{"netns", "exec", ns, binary};
    full.insert(full.end(), args.begin(), args.end());
    return full;
  }

 private:
  void add_ns(const std::string& ns) {
    sh("ip netns add " + ns);
    created_.push_back(ns);
  }
  void teardown() {
    for (auto it = created_.rbegin(); it != created_.rend(); ++it) std::system(("ip netns del " + *it + " 2>/dev/null").c_str());
    created_.clear();
  }

  static inline int next_id_ = 0;
  std::string prefix_;
  std::vector<std::string> created_;
};

// aiperf-mock-server inside the controller's namespace, on the bridge address.
struct NsMockServer {
  Process process;
  int port = 0;
  NsMockServer(const Lan& lan, const std::string& log_dir)
      : process(ip_binary(), lan.in(lan.controller_ns(), kMockServer, {"--host", kControllerAddr, "--port", "0", "--fast"}),
                log_dir, "mock") {
    const std::regex listening(R"(listening on http://[^:]+:(\d+))");
    std::smatch m;
    if (!aiperf::test::wait_until(
            [&] {
              const std::string out = process.out();
              if (!std::regex_search(out, m, listening)) return false;
              port = std::stoi(m[1]);
              return true;
            },
            30))
      throw std::runtime_error("mock server did not start in " + lan.controller_ns() + ": " + process.err());
  }
  std::string url() const { return "http://" + kControllerAddr + ":" + std::to_string(port); }
};

std::map<std::string, int> records_per_worker(const std::string& jsonl) {
  std::map<std::string, int> n;
  for (const auto& l : read_lines(jsonl)) ++n[json::parse(l)["metadata"]["worker_id"].get<std::string>()];
  return n;
}

}  // namespace

TEST_CASE("network namespaces work here (the mesh tests need them)", "[e2e][netns]") {
  REQUIRE(geteuid() == 0);
  const std::string tmp = aiperf::test::make_temp_dir();
  Lan lan(1);
  NsMockServer mock(lan, tmp);
  // A worker host reaches the controller host's server across its veth and the bridge.
  CHECK(sh("ip netns exec " + lan.worker_ns(1) + " curl -s -o /dev/null -w '%{http_code}' " + mock.url() + "/metrics") ==
        "200");
}

TEST_CASE("two authorised worker hosts share a CURVE run, a third host with a foreign key is refused", "[e2e][netns]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  Lan lan(3);
  NsMockServer mock(lan, tmp);
  const std::string dir = tmp + "/artifacts", keys = tmp + "/mesh", foreign = tmp + "/foreign";
  const std::string controller_addr = "tcp://" + kControllerAddr + ":5660";
  Process controller(ip_binary(),
                     lan.in(lan.controller_ns(), kAiperf,
                            {"profile", "--artifact-dir", dir, "--tokenizer", "gpt2", "--ui-type", "none", "--model", "m",
                             "--url", mock.url(), "--request-count", "200", "--concurrency", "8", "--zmq-host",
                             kControllerAddr, "--zmq-base-port", "5660", "--workers-max", "0", "--workers-remote", "2",
                             "--mesh-keys", keys}),
                     tmp, "aiperf");
  // First use creates the keys; worker.secret is written last. "Copying the folder to the
  // worker hosts" is free here: the namespaces share the file system.
  REQUIRE(aiperf::test::wait_until([&] { return std::filesystem::exists(keys + "/worker.secret"); }, 30));

  // Host 3 has only the controller's public key: its worker makes its own pair, never authorised.
  std::filesystem::create_directories(foreign);
  std::filesystem::copy_file(keys + "/controller.pub", foreign + "/controller.pub");
  Process intruder(ip_binary(),
                   lan.in(lan.worker_ns(3), kAiperf,
                          {"worker", "--controller", controller_addr, "--mesh-keys", foreign, "--service-id", "intruder_worker"}),
                   tmp, "intruder");
  REQUIRE(aiperf::test::wait_until([&] { return std::filesystem::exists(foreign + "/worker.pub"); }, 30));
  const std::string intruder_key = read_lines(foreign + "/worker.pub").at(0);
  // Its refusal is in the controller's log before the real workers even start.
  const std::string refusal = "mesh: refused CURVE client key " + intruder_key + " from " + Lan::worker_addr(3) + " on tcp://";
  REQUIRE(aiperf::test::wait_until([&] { return read_file(dir + "/logs/aiperf.log").find(refusal) != std::string::npos; }, 30));

  Process w1(ip_binary(),
             lan.in(lan.worker_ns(1), kAiperf,
                    {"worker", "--controller", controller_addr, "--mesh-keys", keys, "--service-id", "mesh_worker_1"}),
             tmp, "worker1");
  Process w2(ip_binary(),
             lan.in(lan.worker_ns(2), kAiperf,
                    {"worker", "--controller", controller_addr, "--mesh-keys", keys, "--service-id", "mesh_worker_2"}),
             tmp, "worker2");
  const auto rc = controller.wait(180);
  INFO(controller.out() << controller.err() << w1.err() << w2.err() << intruder.err());
  REQUIRE(rc.has_value());
  CHECK(*rc == 0);
  const auto per_worker = records_per_worker(dir + "/profile_export.jsonl");
  CHECK(read_lines(dir + "/profile_export.jsonl").size() == 200);
  REQUIRE(per_worker.size() == 2);
  CHECK(per_worker.count("mesh_worker_1") == 1);
  CHECK(per_worker.count("mesh_worker_2") == 1);
  CHECK(per_worker.at("mesh_worker_1") + per_worker.at("mesh_worker_2") == 200);
  CHECK(w1.wait(30) == std::optional<int>(0));
  CHECK(w2.wait(30) == std::optional<int>(0));

  const std::string log = read_file(dir + "/logs/aiperf.log");
  CHECK(log.find("registered intruder_worker") == std::string::npos);
  CHECK(log.find("remote worker mesh_worker_1 joined from host ") != std::string::npos);
  CHECK(log.find("remote worker mesh_worker_2 joined from host ") != std::string::npos);
  // Every refusal in the log is the intruder's, from host 3.
  size_t refusals = 0, intruder_refusals = 0;
  for (size_t at = log.find("refused CURVE client key"); at != std::string::npos; at = log.find("refused CURVE client key", at + 1)) {
    ++refusals;
    intruder_refusals += log.compare(at - 6, refusal.size(), refusal) == 0;
  }
  CHECK(refusals >= 1);
  CHECK(intruder_refusals == refusals);
  CHECK(controller.err().find("unauthenticated") == std::string::npos);

  // The intruder never gets through and gives up at its bus deadline.
  const auto intruder_rc = intruder.wait(60);
  REQUIRE(intruder_rc.has_value());
  CHECK(*intruder_rc == 1);
  CHECK(intruder.err().find("generated worker key pair " + foreign + "/worker.pub (public key " + intruder_key) !=
        std::string::npos);
  CHECK(intruder.err().find("event bus not reachable within deadline (intruder_worker); if the controller refuses "
                            "this worker's key, authorise it") != std::string::npos);
}

TEST_CASE("a tcp mesh on a non-loopback address without --mesh-keys warns that it is unauthenticated", "[e2e][netns]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  Lan lan(0);
  NsMockServer mock(lan, tmp);
  const std::string dir = tmp + "/artifacts";
  Process controller(ip_binary(),
                     lan.in(lan.controller_ns(), kAiperf,
                            {"profile", "--artifact-dir", dir, "--tokenizer", "gpt2", "--ui-type", "none", "--model", "m",
                             "--url", mock.url(), "--request-count", "10", "--concurrency", "1", "--zmq-host",
                             kControllerAddr, "--zmq-base-port", "5660", "--workers-max", "1"}),
                     tmp, "aiperf");
  const auto rc = controller.wait(120);
  INFO(controller.out() << controller.err());
  REQUIRE(rc.has_value());
  CHECK(*rc == 0);
  CHECK(read_lines(dir + "/profile_export.jsonl").size() == 10);
  CHECK(controller.err().find("the tcp mesh on " + kControllerAddr +
                              " is unauthenticated: any host that reaches its ports can join or forge commands; use "
                              "--mesh-keys DIR (docs/mesh.md)") != std::string::npos);
}
