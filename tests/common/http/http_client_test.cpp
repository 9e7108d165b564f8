#include "http/http_client.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "client_test_support.h"
#include "fakes/fake_http_server.h"

using namespace std::chrono_literals;

using namespace aiperf;
using aiperf::testing::body_of;
using aiperf::testing::FakeHttpServer;
using aiperf::testing::FakeRequest;
using aiperf::testing::FakeResponse;
using aiperf::testing::run_request;

namespace {

http::Request post(const FakeHttpServer& server, std::string body = "{}") {
  http::Request r;
  r.url = "http://127.0.0.1:" + std::to_string(server.port()) + "/v1/chat/completions";
  r.headers = {{"Content-Type", "application/json"}, {"X-Request-ID", "req-1"}};
  r.body = std::move(body);
  return r;
}

FakeResponse ok(std::string body) {
  FakeResponse r;
  r.headers = {{"Content-Type", "application/json"}};
  r.body_parts = {std::move(body)};
  return r;
}

}  // namespace

TEST_CASE("request is sent with the given headers, Host and Content-Length") {
  FakeHttpServer server([](const FakeRequest&) { return ok(R"({"ok":true})"); });
  boost::asio::io_context io;
  http::HttpClient client(io, {});
  const auto r = run_request(io, client, post(server, R"({"x":1})"));
  REQUIRE_FALSE(r.error);
  CHECK(r.status == 200);
  CHECK(r.reason == "OK");
  CHECK(r.content_type == "application/json");
  CHECK(body_of(r) == R"({"ok":true})");
  CHECK_FALSE(r.connection_reused);
  CHECK(r.start_perf_ns > 0);
  CHECK(r.start_wall_ns > 0);
  CHECK(r.start_perf_ns <= r.ack_perf_ns);
  CHECK(r.ack_perf_ns <= r.end_perf_ns);

  const auto requests = server.requests();
  REQUIRE(requests.size() == 1);
  const FakeRequest& q = requests[0];
  CHECK(q.method == "POST");
  CHECK(q.target == "/v1/chat/completions");
  CHECK(q.body == R"({"x":1})");
  CHECK(q.header("Content-Type") == "application/json");
  CHECK(q.header("X-Request-ID") == "req-1");
  CHECK(q.header("Host") == "127.0.0.1:" + std::to_string(server.port()));
  CHECK(q.header("Content-Length") == "7");
  CHECK(q.header_count("Content-Length") == 1);
  CHECK(q.header("User-Agent").empty());  // nothing added beyond Host and Content-Length

  // Trace: the request's headers, the response's headers, when and how much was written.
  const http::Headers sent{{"Content-Type", "application/json"}, {"X-Request-ID", "req-1"}};
  CHECK(r.trace.request_headers == sent);
  bool saw_type = false;
  for (const auto& [name, value] : r.trace.response_headers) saw_type |= name == "Content-Type";
  CHECK(saw_type);
  CHECK(r.start_perf_ns <= r.trace.send_start_perf_ns);
  CHECK(r.trace.send_start_perf_ns <= r.trace.send_end_perf_ns);
  CHECK(r.trace.send_end_perf_ns <= r.ack_perf_ns);
  size_t head = q.method.size() + 1 + q.target.size() + std::string(" HTTP/1.1\r\n\r\n").size();
  for (const auto& [name, value] : q.headers) head += name.size() + 2 + value.size() + 2;
  CHECK(r.trace.bytes_sent == head + 7);
}

TEST_CASE("streaming body arrives as one chunk per part with increasing timestamps") {
  const std::vector<std::string> parts = {"data: 1\n\n", "data: 2\n\n", "data: 3\n\n",
                                          "data: [DONE]\n\n"};
  FakeHttpServer server([&](const FakeRequest&) {
    FakeResponse r;
    r.headers = {{"Content-Type", "text/event-stream"}};
    r.body_parts = parts;
    r.chunked = true;
    r.gate_parts = true;  // the next part goes out only once the client saw this one
    return r;
  });
  boost::asio::io_context io;
  http::HttpClient client(io, {});
  std::vector<std::pair<int64_t, std::string>> seen;
  http::SendOptions options;
  options.on_chunk = [&](int64_t t, const std::string& data) {
    seen.emplace_back(t, data);
    server.release();
  };
  const auto r = run_request(io, client, post(server), options);
  REQUIRE_FALSE(r.error);
  CHECK(r.content_type == "text/event-stream");
  REQUIRE(r.chunks.size() == parts.size());
  REQUIRE(seen.size() == parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    CHECK(r.chunks[i].data == parts[i]);
    CHECK(seen[i].first == r.chunks[i].perf_ns);
    CHECK(seen[i].second == parts[i]);
    if (i > 0) CHECK(r.chunks[i].perf_ns > r.chunks[i - 1].perf_ns);
  }
  CHECK(r.ack_perf_ns == r.chunks.front().perf_ns);  // head and first part in one read
  CHECK(r.end_perf_ns == r.chunks.back().perf_ns);
}

TEST_CASE("keep-alive: the second request reuses the pooled connection") {
  FakeHttpServer server([](const FakeRequest&) { return ok("hi"); });
  boost::asio::io_context io;
  http::HttpClient client(io, {});
  const auto first = run_request(io, client, post(server));
  const auto second = run_request(io, client, post(server));
  REQUIRE_FALSE(first.error);
  REQUIRE_FALSE(second.error);
  CHECK_FALSE(first.connection_reused);
  CHECK(second.connection_reused);
  CHECK(server.connections_accepted() == 1);
}

TEST_CASE("ConnectionReuse::kNever opens a connection per request") {
  FakeHttpServer server([](const FakeRequest&) { return ok("hi"); });
  boost::asio::io_context io;
  http::ClientOptions options;
  options.reuse = http::ConnectionReuse::kNever;
  http::HttpClient client(io, options);
  for (int i = 0; i < 3; ++i) {
    const auto r = run_request(io, client, post(server));
    REQUIRE_FALSE(r.error);
    CHECK_FALSE(r.connection_reused);
  }
  CHECK(server.connections_accepted() == 3);
}

TEST_CASE("ConnectionReuse::kStickySessions: one connection per session, closed after its last request") {
  FakeHttpServer server([](const FakeRequest&) { return ok("hi"); });
  boost::asio::io_context io;
  http::ClientOptions options;
  options.reuse = http::ConnectionReuse::kStickySessions;
  http::HttpClient client(io, options);
  auto send = [&](const std::string& session, bool last) {
    http::SendOptions o;
    o.session = session;
    o.last_of_session = last;
    auto r = run_request(io, client, post(server), std::move(o));
    REQUIRE_FALSE(r.error);
    return r;
  };
  // Turns of two conversations interleaved: each keeps its own connection, never the other's.
  const auto a1 = send("a", false);
  const auto b1 = send("b", false);
  const auto a2 = send("a", false);
  const auto b2 = send("b", true);
  const auto a3 = send("a", true);
  CHECK_FALSE(a1.connection_reused);
  CHECK_FALSE(b1.connection_reused);
  CHECK(a2.connection_reused);
  CHECK(b2.connection_reused);
  CHECK(a3.connection_reused);
  CHECK(a2.trace.local_port == a1.trace.local_port);
  CHECK(a3.trace.local_port == a1.trace.local_port);
  CHECK(b2.trace.local_port == b1.trace.local_port);
  CHECK(b1.trace.local_port != a1.trace.local_port);
  CHECK(server.connections_accepted() == 2);
  // After its last request a session's connection is gone: "a" again starts a new one, and a
  // request without a session gets a connection of its own, closed after it.
  CHECK_FALSE(send("a", false).connection_reused);
  CHECK_FALSE(send("", false).connection_reused);
  CHECK_FALSE(send("", false).connection_reused);
  CHECK(server.connections_accepted() == 5);
}

TEST_CASE("servers that close after every response work for sequential requests") {
  SECTION("Connection: close") {
    FakeHttpServer server([](const FakeRequest&) {
      auto r = ok("bye");
      r.close_after = true;
      return r;
    });
    boost::asio::io_context io;
    http::HttpClient client(io, {});
    for (int i = 0; i < 5; ++i) {
      const auto r = run_request(io, client, post(server));
      REQUIRE_FALSE(r.error);
      CHECK(body_of(r) == "bye");
      CHECK_FALSE(r.connection_reused);
    }
    CHECK(server.connections_accepted() == 5);
  }
  SECTION("HTTP/1.0 with the body delimited by the close (llama.cpp style)") {
    FakeHttpServer server([](const FakeRequest&) {
      auto r = ok("data: x\n\n");
      r.body_parts.push_back("data: y\n\n");
      r.http10 = true;
      return r;
    });
    boost::asio::io_context io;
    http::HttpClient client(io, {});
    for (int i = 0; i < 5; ++i) {
      const auto r = run_request(io, client, post(server));
      REQUIRE_FALSE(r.error);
      CHECK(body_of(r) == "data: x\n\ndata: y\n\n");
    }
    CHECK(server.connections_accepted() == 5);
  }
}

// Reused at once, the connection is not peeked at (no syscall): the request written on it meets
// the FIN and is retried on a fresh one; the server sees each request once either way.
TEST_CASE("a pooled connection the server closed while idle does not fail the next request") {
  FakeHttpServer server([](const FakeRequest&) {
    auto r = ok("once");
    r.close_silently = true;
    return r;
  });
  boost::asio::io_context io;
  http::HttpClient client(io, {});
  REQUIRE_FALSE(run_request(io, client, post(server)).error);
  // The server's FIN has reached the client before the next request (bounded wait).
  for (int i = 0; i < 2000 && server.connections_closed() < 1; ++i) std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(5ms);
  const auto second = run_request(io, client, post(server));
  REQUIRE_FALSE(second.error);
  CHECK(body_of(second) == "once");
  CHECK_FALSE(second.connection_reused);
  CHECK(server.connections_accepted() == 2);
  CHECK(server.requests().size() == 2);  // nothing was sent on the closed one
}

TEST_CASE("a request reset after it was written is an error record, never sent again") {
  std::atomic<int> n{0};
  FakeHttpServer server([&](const FakeRequest&) {
    auto r = ok("first");
    if (n++ > 0) r.reset_without_answer = true;
    return r;
  });
  boost::asio::io_context io;
  http::HttpClient client(io, {});
  REQUIRE_FALSE(run_request(io, client, post(server)).error);
  const auto second = run_request(io, client, post(server));  // on the kept-alive connection
  REQUIRE(second.error);
  CHECK(second.connection_reused);
  CHECK(second.error->type == "ServerDisconnectedError");
  CHECK(server.requests().size() == 2);  // the server saw it once
  CHECK(server.connections_accepted() == 1);
}

// llama.cpp's server closes the connection after each streamed response although it advertised
// keep-alive; a request written in that moment gets a FIN and no byte of answer.
TEST_CASE("a kept-alive connection closed (FIN) without an answer is retried once on a fresh one") {
  std::atomic<int> n{0};
  FakeHttpServer server([&](const FakeRequest&) {
    auto r = ok("answer " + std::to_string(n));
    if (n++ == 1) r.close_without_answer = true;
    return r;
  });
  boost::asio::io_context io;
  http::HttpClient client(io, {});
  REQUIRE_FALSE(run_request(io, client, post(server)).error);
  const auto second = run_request(io, client, post(server));
  REQUIRE_FALSE(second.error);
  CHECK(body_of(second) == "answer 2");
  CHECK_FALSE(second.connection_reused);
  CHECK(server.requests().size() == 3);
  CHECK(server.connections_accepted() == 2);
}

TEST_CASE("a fresh connection closed (FIN) without an answer is ServerDisconnectedError, not retried") {
  FakeHttpServer server([&](const FakeRequest&) {
    auto r = ok("never");
    r.close_without_answer = true;
    return r;
  });
  boost::asio::io_context io;
  http::HttpClient client(io, {});
  const auto r = run_request(io, client, post(server));
  REQUIRE(r.error);
  CHECK_FALSE(r.error->code);
  CHECK(r.error->type == "ServerDisconnectedError");
  CHECK(r.error->message == "Server disconnected");
  CHECK(r.status == 0);
  CHECK(server.requests().size() == 1);
}

TEST_CASE("connection refused is a ClientConnectorError naming host and port") {
  boost::asio::io_context io;
  uint16_t port;
  {
    boost::asio::ip::tcp::acceptor probe(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    port = probe.local_endpoint().port();
  }  // closed: nothing listens there now
  http::HttpClient client(io, {});
  http::Request req;
  req.url = "http://127.0.0.1:" + std::to_string(port) + "/v1/completions";
  const auto r = run_request(io, client, req);
  REQUIRE(r.error);
  CHECK_FALSE(r.error->code);
  CHECK(r.error->type == "ClientConnectorError");
  CHECK(r.error->message == "Cannot connect to host 127.0.0.1:" + std::to_string(port) +
                                " ssl:default [Connection refused]");
  CHECK(r.status == 0);
  CHECK(r.ack_perf_ns == 0);
}

TEST_CASE("HTTP 500 is an error with the reason as type and the body as message") {
  FakeHttpServer server([](const FakeRequest&) {
    FakeResponse r;
    r.status = 500;
    r.body_parts = {R"({"error":"model exploded"})"};
    return r;
  });
  boost::asio::io_context io;
  http::HttpClient client(io, {});
  const auto r = run_request(io, client, post(server));
  REQUIRE(r.error);
  CHECK(r.error->code == 500);
  CHECK(r.error->type == "Internal Server Error");
  CHECK(r.error->message == R"({"error":"model exploded"})");
  CHECK(r.status == 500);
}

TEST_CASE("a server that never answers times out") {
  FakeHttpServer server([](const FakeRequest&) {
    FakeResponse r;
    r.never_answer = true;
    return r;
  });
  boost::asio::io_context io;
  http::HttpClient client(io, {});
  http::SendOptions options;
  options.timeout_seconds = 0.2;
  const auto r = run_request(io, client, post(server), options);
  REQUIRE(r.error);
  CHECK_FALSE(r.error->code);
  CHECK(r.error->type == "TimeoutError");
  CHECK(r.error->message == "Request timed out after 0.2 seconds");
  CHECK_FALSE(r.cancelled);
}

TEST_CASE("cancel mid-stream ends the request with 499") {
  FakeHttpServer server([](const FakeRequest&) {
    FakeResponse r;
    r.headers = {{"Content-Type", "text/event-stream"}};
    r.body_parts = {"data: 1\n\n", "data: 2\n\n"};
    r.chunked = true;
    r.gate_parts = true;  // never released: the stream stalls after the first part
    return r;
  });
  boost::asio::io_context io;
  http::HttpClient client(io, {});
  http::CancelHandlePtr handle;
  std::optional<http::Result> result;
  http::SendOptions options;
  options.on_chunk = [&](int64_t, const std::string&) { handle->cancel(); };
  handle = client.send(post(server), options, [&](http::Result&& r) { result = std::move(r); });
  io.run();
  REQUIRE(result);
  REQUIRE(result->error);
  CHECK(result->error->code == 499);
  CHECK(result->error->type == "RequestCancellationError");
  CHECK(result->error->message == "Request cancelled by external signal");
  CHECK(result->cancelled);
  CHECK(result->chunks.size() == 1);
  handle->cancel();  // after completion: a no-op
}

TEST_CASE("failures before any I/O call back after send() returns, exactly once") {
  boost::asio::io_context io;
  http::HttpClient client(io, {});
  http::Request req;
  req.url = "localhost:8000/v1";
  int calls = 0;
  std::optional<http::Result> result;
  client.send(req, {}, [&](http::Result&& r) {
    ++calls;
    result = std::move(r);
  });
  CHECK(calls == 0);
  io.run();
  CHECK(calls == 1);
  REQUIRE(result->error);
  CHECK(result->error->type == "InvalidURL");
}

TEST_CASE("connection limit: requests beyond it wait for a slot and reuse the connections") {
  FakeHttpServer server([](const FakeRequest&) { return ok("hi"); });
  boost::asio::io_context io;
  http::ClientOptions options;
  options.connection_limit = 2;
  http::HttpClient client(io, options);
  std::vector<http::Result> results(5);
  int done = 0;
  for (auto& slot : results) {
    client.send(post(server), {}, [&](http::Result&& r) {
      slot = std::move(r);
      ++done;
    });
  }
  io.run();
  REQUIRE(done == 5);
  for (size_t i = 0; i < results.size(); ++i) {
    INFO("request " << i);
    REQUIRE_FALSE(results[i].error);
    const http::Trace& t = results[i].trace;
    if (i < 2) {
      CHECK(t.pool_wait_start_perf_ns == 0);
      CHECK_FALSE(results[i].connection_reused);
    } else {  // queued, then handed a connection another request released
      CHECK(t.pool_wait_start_perf_ns >= results[i].start_perf_ns);
      CHECK(t.pool_wait_end_perf_ns >= t.pool_wait_start_perf_ns);
      CHECK(results[i].connection_reused);
    }
  }
  CHECK(server.connections_accepted() == 2);
}

TEST_CASE("connection limit: a queued request can still time out or be cancelled") {
  FakeHttpServer server([](const FakeRequest&) {
    FakeResponse r;
    r.never_answer = true;
    return r;
  });
  boost::asio::io_context io;
  http::ClientOptions options;
  options.connection_limit = 1;
  http::HttpClient client(io, options);
  std::optional<http::Result> holder, timed_out, cancelled;
  http::SendOptions slow, fast;
  slow.timeout_seconds = 0.5;
  fast.timeout_seconds = 0.1;
  client.send(post(server), slow, [&](http::Result&& r) { holder = std::move(r); });
  client.send(post(server), fast, [&](http::Result&& r) { timed_out = std::move(r); });
  auto handle = client.send(post(server), slow, [&](http::Result&& r) { cancelled = std::move(r); });
  handle->cancel();
  io.run();
  REQUIRE(holder);
  REQUIRE(timed_out);
  REQUIRE(cancelled);
  CHECK(holder->error->type == "TimeoutError");
  CHECK(timed_out->error->type == "TimeoutError");
  CHECK(timed_out->trace.pool_wait_start_perf_ns > 0);
  CHECK(timed_out->trace.tcp_connect_start_perf_ns == 0);  // never got a slot
  CHECK(cancelled->error->code == 499);
  CHECK(cancelled->trace.tcp_connect_start_perf_ns == 0);
  CHECK(server.connections_accepted() == 1);
}

TEST_CASE("local addresses: new connections bind to each source address in turn") {
  FakeHttpServer server([](const FakeRequest&) { return ok("hi"); });
  boost::asio::io_context io;
  http::ClientOptions options;
  options.reuse = http::ConnectionReuse::kNever;
  // ::1 is for IPv6 servers only and "nonsense" is ignored: the v4 sources alternate.
  options.local_addresses = {"127.0.0.2", "::1", "nonsense", "127.0.0.3"};
  http::HttpClient client(io, options);
  std::vector<std::string> sources;
  for (int i = 0; i < 4; ++i) {
    const auto r = run_request(io, client, post(server));
    REQUIRE_FALSE(r.error);
    sources.push_back(r.trace.local_ip);
  }
  CHECK(sources == std::vector<std::string>{"127.0.0.2", "127.0.0.3", "127.0.0.2", "127.0.0.3"});
  CHECK(server.connections_accepted() == 4);
}

TEST_CASE("local addresses: an address this host does not have fails the request as a connect error") {
  FakeHttpServer server([](const FakeRequest&) { return ok("hi"); });
  boost::asio::io_context io;
  http::ClientOptions options;
  options.local_addresses = {"192.0.2.1"};  // TEST-NET-1: never local
  http::HttpClient client(io, options);
  const auto r = run_request(io, client, post(server));
  REQUIRE(r.error);
  CHECK(r.error->type == "ClientConnectorError");
  CHECK(server.connections_accepted() == 0);
}
