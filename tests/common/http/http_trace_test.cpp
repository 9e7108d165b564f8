// The client's trace of each phase: which stamps a new, reused, DNS-cached, TLS or failed
// request carries, and that they follow each other on the steady clock.
#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>

#include "client_test_support.h"
#include "fakes/fake_http_server.h"
#include "http/http_client.h"

using namespace aiperf;
using aiperf::testing::FakeHttpServer;
using aiperf::testing::FakeRequest;
using aiperf::testing::FakeResponse;
using aiperf::testing::run_request;

namespace {

FakeResponse ok() {
  FakeResponse r;
  r.body_parts = {"part-1", "part-22"};
  return r;
}

http::Request post(const std::string& host, int port, std::string body) {
  http::Request r;
  r.url = "http://" + host + ":" + std::to_string(port) + "/v1/completions";
  r.headers = {{"Content-Type", "application/json"}};
  r.body = std::move(body);
  return r;
}

}  // namespace

TEST_CASE("trace: a new connection by name resolves, connects, then writes; the next reuses it") {
  FakeHttpServer server([](const FakeRequest&) { return ok(); });
  boost::asio::io_context io;
  http::HttpClient client(io, {});
  const auto first = run_request(io, client, post("localhost", server.port(), "0123456789"));
  REQUIRE_FALSE(first.error);
  const http::Trace& t = first.trace;
  CHECK(t.connection_reused_perf_ns == 0);
  CHECK(t.dns_cache_hit_perf_ns == 0);
  CHECK(t.dns_cache_miss_perf_ns == t.dns_start_perf_ns);
  CHECK(first.start_perf_ns <= t.dns_start_perf_ns);
  CHECK(t.dns_start_perf_ns <= t.dns_end_perf_ns);
  CHECK(t.dns_end_perf_ns <= t.tcp_connect_start_perf_ns);
  CHECK(t.tcp_connect_start_perf_ns <= t.tcp_connect_end_perf_ns);
  CHECK(t.tcp_connect_end_perf_ns <= t.send_start_perf_ns);
  CHECK(t.send_start_perf_ns <= t.send_end_perf_ns);
  CHECK(t.send_end_perf_ns <= first.chunks.front().perf_ns);
  CHECK(t.tls_start_perf_ns == 0);  // plain http
  CHECK(t.pool_wait_start_perf_ns == 0);
  CHECK(t.error_perf_ns == 0);
  CHECK(t.body_bytes_sent == 10);
  CHECK(t.bytes_sent > t.body_bytes_sent);  // the head went out in the same write
  CHECK(t.remote_ip == "127.0.0.1");
  CHECK(t.remote_port == server.port());
  CHECK(t.local_ip == "127.0.0.1");
  CHECK(t.local_port != 0);

  const auto second = run_request(io, client, post("localhost", server.port(), "{}"));
  REQUIRE_FALSE(second.error);
  const http::Trace& u = second.trace;
  CHECK(u.connection_reused_perf_ns >= second.start_perf_ns);
  CHECK(u.connection_reused_perf_ns <= u.send_start_perf_ns);
  CHECK(u.dns_start_perf_ns == 0);
  CHECK(u.dns_cache_hit_perf_ns == 0);  // no connection made, so no lookup at all
  CHECK(u.tcp_connect_start_perf_ns == 0);
  CHECK(u.local_port == t.local_port);  // the same socket
  CHECK(u.body_bytes_sent == 2);
}

TEST_CASE("trace: a second connection to the same name hits the DNS cache; IPs never look up") {
  FakeHttpServer server([](const FakeRequest&) { return ok(); });
  boost::asio::io_context io;
  http::ClientOptions options;
  options.reuse = http::ConnectionReuse::kNever;
  http::HttpClient client(io, options);
  REQUIRE_FALSE(run_request(io, client, post("localhost", server.port(), "{}")).error);
  const auto cached = run_request(io, client, post("localhost", server.port(), "{}"));
  REQUIRE_FALSE(cached.error);
  CHECK(cached.trace.dns_cache_hit_perf_ns != 0);
  CHECK(cached.trace.dns_cache_miss_perf_ns == 0);
  CHECK(cached.trace.dns_start_perf_ns == 0);
  CHECK(cached.trace.tcp_connect_start_perf_ns >= cached.trace.dns_cache_hit_perf_ns);

  const auto ip = run_request(io, client, post("127.0.0.1", server.port(), "{}"));
  REQUIRE_FALSE(ip.error);
  CHECK(ip.trace.dns_cache_hit_perf_ns == 0);
  CHECK(ip.trace.dns_cache_miss_perf_ns == 0);
  CHECK(ip.trace.tcp_connect_start_perf_ns != 0);
  CHECK(server.connections_accepted() == 3);
}

TEST_CASE("trace: transport failures are stamped, HTTP status errors are not") {
  boost::asio::io_context io;
  http::HttpClient client(io, {});
  int free_port = 0;
  {
    FakeHttpServer gone([](const FakeRequest&) { return ok(); });
    free_port = gone.port();
  }
  const auto refused = run_request(io, client, post("127.0.0.1", free_port, "{}"));
  REQUIRE(refused.error);
  CHECK(refused.trace.error_perf_ns == refused.end_perf_ns);
  CHECK(refused.trace.tcp_connect_start_perf_ns != 0);
  CHECK(refused.trace.tcp_connect_end_perf_ns == 0);
  CHECK(refused.trace.send_start_perf_ns == 0);

  FakeHttpServer failing([](const FakeRequest&) {
    FakeResponse r;
    r.status = 500;
    r.body_parts = {"boom"};
    return r;
  });
  const auto status = run_request(io, client, post("127.0.0.1", failing.port(), "{}"));
  REQUIRE(status.error);
  CHECK(status.error->code == 500);
  CHECK(status.trace.error_perf_ns == 0);
}
