#include <cstdio>
#include <filesystem>
#include <fstream>

#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>
#include <unistd.h>

#include "client_test_support.h"
#include "fakes/fake_http_server.h"
#include "fakes/self_signed_cert.h"
#include "http/http_client.h"

using namespace aiperf;
using aiperf::testing::body_of;
using aiperf::testing::FakeHttpServer;
using aiperf::testing::FakeRequest;
using aiperf::testing::FakeResponse;
using aiperf::testing::run_request;

namespace {

struct TlsFixture {
  TlsFixture()
      : identity(aiperf::testing::make_self_signed_identity()),
        server([](const FakeRequest&) {
          FakeResponse r;
          r.body_parts = {"secure"};
          return r;
        }, &identity),
        ca_file(std::filesystem::temp_directory_path() /
                ("aiperf_https_test_" + std::to_string(::getpid()) + ".pem")) {
    std::ofstream(ca_file) << identity.cert_pem;
  }
  ~TlsFixture() { std::filesystem::remove(ca_file); }

  http::Request request(const std::string& host) const {
    http::Request r;
    r.url = "https://" + host + ":" + std::to_string(server.port()) + "/v1/completions";
    r.body = "{}";
    return r;
  }

  aiperf::testing::TlsIdentity identity;
  FakeHttpServer server;
  std::filesystem::path ca_file;
  boost::asio::io_context io;
};

}  // namespace

TEST_CASE_METHOD(TlsFixture, "https with the server's CA verifies and succeeds") {
  http::ClientOptions options;
  options.ca_file = ca_file.string();
  http::HttpClient client(io, options);
  for (const char* host : {"127.0.0.1", "localhost"}) {  // IP SAN, then SNI + DNS SAN
    const auto r = run_request(io, client, request(host));
    INFO(host << ": " << (r.error ? r.error->message : ""));
    REQUIRE_FALSE(r.error);
    CHECK(body_of(r) == "secure");
  }
  const auto again = run_request(io, client, request("localhost"));
  REQUIRE_FALSE(again.error);
  CHECK(again.connection_reused);
}

TEST_CASE_METHOD(TlsFixture, "https against an untrusted certificate is a certificate error") {
  http::HttpClient client(io, {});
  const auto r = run_request(io, client, request("127.0.0.1"));
  REQUIRE(r.error);
  CHECK(r.error->type == "ClientConnectorCertificateError");
  CHECK(r.error->message.find("certificate verify failed") != std::string::npos);
  CHECK(r.error->message.find("127.0.0.1:" + std::to_string(server.port())) != std::string::npos);
}

TEST_CASE_METHOD(TlsFixture, "https with verification off accepts the certificate") {
  http::ClientOptions options;
  options.verify_tls = false;
  http::HttpClient client(io, options);
  const auto r = run_request(io, client, request("127.0.0.1"));
  REQUIRE_FALSE(r.error);
  CHECK(body_of(r) == "secure");
}

TEST_CASE_METHOD(TlsFixture, "a missing CA file fails https requests instead of throwing") {
  http::ClientOptions options;
  options.ca_file = "/nonexistent/ca.pem";
  http::HttpClient client(io, options);
  const auto r = run_request(io, client, request("127.0.0.1"));
  REQUIRE(r.error);
  CHECK(r.error->type == "ClientConnectorSSLError");
}

TEST_CASE_METHOD(TlsFixture, "https trace: the TLS handshake follows TCP connect and precedes the write") {
  http::ClientOptions options;
  options.ca_file = ca_file.string();
  http::HttpClient client(io, options);
  const auto r = run_request(io, client, request("127.0.0.1"));
  REQUIRE_FALSE(r.error);
  const http::Trace& t = r.trace;
  CHECK(t.tcp_connect_start_perf_ns <= t.tcp_connect_end_perf_ns);
  CHECK(t.tcp_connect_end_perf_ns <= t.tls_start_perf_ns);
  CHECK(t.tls_start_perf_ns <= t.tls_end_perf_ns);
  CHECK(t.tls_end_perf_ns <= t.send_start_perf_ns);
  CHECK(t.tls_start_perf_ns != 0);
}
