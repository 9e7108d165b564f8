// --network-latency-automatic's parts: targets from the URLs, the JSONL line, the mean, the
// prober's top-up to 5 successes (with a fake connector), and one real TCP handshake against
// a listening socket and a refused one on loopback.
#include "network_probe.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <memory>

using namespace aiperf::records;

TEST_CASE("probe targets: one per distinct host:port, scheme default ports") {
  const auto t = probe_targets({"http://127.0.0.1:8000", "http://127.0.0.1:8000/v1", "https://example.com",
                                "localhost:9000", "http://example.com", "http://"});
  REQUIRE(t.size() == 4);
  CHECK(t[0].url == "http://127.0.0.1:8000");
  CHECK(t[0].host == "127.0.0.1");
  CHECK(t[0].port == 8000);
  CHECK(t[1].host == "example.com");
  CHECK(t[1].port == 443);
  CHECK(t[2].host == "localhost");
  CHECK(t[2].port == 9000);
  CHECK(t[3].port == 80);
}

TEST_CASE("network latency JSONL: the reference's keys, None fields left out") {
  const ProbeTarget target{"http://127.0.0.1:18732", "127.0.0.1", 18732};
  ProbeSample ok;
  ok.timestamp_ns = 1795701591365915999;
  ok.rtt_ns = 561195;
  CHECK(network_latency_jsonl(ok, target) ==
        R"({"timestamp_ns":1795701591365915999,"target_url":"http://127.0.0.1:18732","target_host":"127.0.0.1",)"
        R"("target_port":18732,"probe_type":"tcp_connect","rtt_ns":561195,"success":true})");
  ProbeSample bad;
  bad.timestamp_ns = 7;
  bad.error_type = "ConnectionRefusedError";
  bad.error_message = "[Errno 111] Connect call failed ('127.0.0.1', 18732)";
  CHECK(network_latency_jsonl(bad, target) ==
        R"x({"timestamp_ns":7,"target_url":"http://127.0.0.1:18732","target_host":"127.0.0.1","target_port":18732,)x"
        R"x("probe_type":"tcp_connect","success":false,"error":{"type":"ConnectionRefusedError",)x"
        R"x("message":"[Errno 111] Connect call failed ('127.0.0.1', 18732)"}})x");
}

TEST_CASE("mean RTT over the successful samples only") {
  std::vector<ProbeSample> s(4);
  s[0].rtt_ns = 100;
  s[1].rtt_ns = 300;
  s[3].rtt_ns = 200;
  CHECK(mean_rtt_ns(s) == 200.0);
  CHECK(successful_samples(s) == 3);
  CHECK_FALSE(mean_rtt_ns({ProbeSample{}}));
}

namespace {
// Every third probe of a target fails; RTTs count up by 1 µs.
struct FakeConnector : Connector {
  int calls = 0;
  std::shared_ptr<int> shared_calls = std::make_shared<int>(0);  // outlives the connector
  ProbeSample probe(size_t index, const ProbeTarget&) override {
    ProbeSample s;
    s.target = index;
    s.timestamp_ns = ++calls;
    ++*shared_calls;
    if (calls % 3 == 0) s.error_type = "TimeoutError";
    else s.rtt_ns = calls * 1000;
    return s;
  }
};
}  // namespace

TEST_CASE("prober: a run too short for any probe is topped up to 5 successes per target") {
  auto connector = std::make_unique<FakeConnector>();
  FakeConnector* fake = connector.get();
  NetworkProber prober({{"http://a:1", "a", 1}, {"http://b:2", "b", 2}}, 1000.0, std::move(connector));
  // Never started: only the top-up probes. Target 0: calls 1,2,(3 fails),4,5,(6),7 -> 5 ok.
  const auto& samples = prober.finish();
  CHECK(successful_samples(samples) == 10);
  CHECK(samples.size() == 14);  // 7 tries each: every third one failed
  CHECK(samples[0].target == 0);
  CHECK(samples[13].target == 1);
  CHECK(fake->calls == 14);
  CHECK(prober.finish().size() == 14);  // idempotent
}

TEST_CASE("prober: started, it probes at once, then tops up at the end") {
  auto connector = std::make_unique<FakeConnector>();
  NetworkProber prober({{"http://a:1", "a", 1}}, 1000.0, std::move(connector));
  prober.start();
  const auto& samples = prober.finish();  // the first round ran (or runs before the stop)
  CHECK(successful_samples(samples) == 5);
  CHECK(samples.size() == 7);
}

TEST_CASE("prober: destroyed without finish, it stops at once and probes no more") {
  auto connector = std::make_unique<FakeConnector>();
  const std::shared_ptr<int> calls = connector->shared_calls;
  {
    NetworkProber prober({{"http://a:1", "a", 1}}, 1000.0, std::move(connector));
    prober.start();
  }
  CHECK(*calls <= 1);  // at most the first round; no top-up
}

TEST_CASE("tcp connector: a listening port answers, a closed one is refused") {
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(listener >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(listener, 8) == 0);
  socklen_t len = sizeof addr;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  const uint16_t open_port = ntohs(addr.sin_port);

  // A port nobody listens on: bind one, note it, close it.
  const int closed = ::socket(AF_INET, SOCK_STREAM, 0);
  addr.sin_port = 0;
  ::bind(closed, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  ::getsockname(closed, reinterpret_cast<sockaddr*>(&addr), &len);
  const uint16_t closed_port = ntohs(addr.sin_port);
  ::close(closed);

  const std::vector<ProbeTarget> targets{{"http://127.0.0.1", "127.0.0.1", open_port},
                                         {"http://127.0.0.1", "127.0.0.1", closed_port}};
  auto c = tcp_connector(targets, 2.0);
  const ProbeSample ok = c->probe(0, targets[0]);
  REQUIRE(ok.rtt_ns);
  CHECK(*ok.rtt_ns > 0);
  CHECK(ok.timestamp_ns > 0);
  const ProbeSample refused = c->probe(1, targets[1]);
  CHECK_FALSE(refused.rtt_ns);
  CHECK(refused.error_type == "ConnectionRefusedError");
  CHECK(refused.error_message == "[Errno 111] Connect call failed ('127.0.0.1', " + std::to_string(closed_port) + ")");
  ::close(listener);
}
