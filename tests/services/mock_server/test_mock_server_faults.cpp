// --fault modes: parsing, seeded selection, and what each one does to the bytes on the wire.
#include <catch2/catch.hpp>

#include <sys/socket.h>
#include <sys/time.h>

#include <chrono>
#include <map>

#include "cli_options.h"
#include "server_fixture.h"

using namespace aiperf::mock;
using namespace aiperf::mock::test;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

std::string chat_body(bool stream, int tokens = 8) {
  return json{{"messages", {{{"role", "user"}, {"content", "hello there"}}}},
              {"max_tokens", tokens},
              {"ignore_eos", true},
              {"stream", stream}}
      .dump();
}

std::string request_bytes(const std::string& target, const std::string& body) {
  return "POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

// What a client sees of one response on a fresh connection: every byte until the server closes
// (or 5 s pass), how the connection ended, and when the first byte / the head's end arrived.
struct Wire {
  std::string bytes;
  bool reset = false;      // ECONNRESET
  bool eof = false;        // orderly close
  bool timed_out = false;  // still open after the read timeout
  double first_byte_s = -1, head_done_s = -1, total_s = 0;

  std::string head() const { return bytes.substr(0, bytes.find("\r\n\r\n") + 4); }
  std::string body() const { return bytes.substr(bytes.find("\r\n\r\n") + 4); }
  bool has(std::string_view s) const { return bytes.find(s) != std::string::npos; }
};

// A complete chunked body, or a complete Content-Length body.
bool complete(const Wire& w) {
  const size_t end = w.bytes.find("\r\n\r\n");
  if (end == std::string::npos) return false;
  const std::string head = w.bytes.substr(0, end + 4);
  if (head.find("Transfer-Encoding: chunked") != std::string::npos) return w.bytes.ends_with("\r\n0\r\n\r\n");
  const auto at = head.find("Content-Length: ");
  return at != std::string::npos && w.bytes.size() - end - 4 >= std::stoul(head.substr(at + 16));
}

// `until_close`: keep reading after a complete response, until the server closes.
Wire exchange(uint16_t port, const std::string& raw, double read_timeout_s = 5.0, bool until_close = false) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket(io);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), port});
  timeval tv{static_cast<time_t>(read_timeout_s), static_cast<suseconds_t>((read_timeout_s - int(read_timeout_s)) * 1e6)};
  ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  const auto start = Clock::now();
  boost::asio::write(socket, boost::asio::buffer(raw));
  Wire wire;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::recv(socket.native_handle(), buf, sizeof buf, 0);
    const double t = std::chrono::duration<double>(Clock::now() - start).count();
    if (n > 0) {
      if (wire.first_byte_s < 0) wire.first_byte_s = t;
      wire.bytes.append(buf, static_cast<size_t>(n));
      if (wire.head_done_s < 0 && wire.bytes.find("\r\n\r\n") != std::string::npos) wire.head_done_s = t;
      if (!until_close && complete(wire)) break;  // kept alive: the response is all there
      continue;
    }
    if (n == 0) wire.eof = true;
    else if (errno == ECONNRESET) wire.reset = true;
    else wire.timed_out = true;
    break;
  }
  wire.total_s = std::chrono::duration<double>(Clock::now() - start).count();
  return wire;
}

MockConfig with_fault(std::string_view spec) {
  MockConfig config = fast_config();
  std::string error;
  auto parsed = parse_fault_spec(spec, error);
  REQUIRE(parsed);
  config.faults = {*parsed};
  return config;
}

size_t content_length(const Wire& w) {
  const auto at = w.head().find("Content-Length: ");
  return at == std::string::npos ? 0 : std::stoul(w.head().substr(at + 16));
}

}  // namespace

TEST_CASE("fault specs parse and are checked together") {
  std::string error;
  auto spec = parse_fault_spec("http_429", error);
  REQUIRE(spec);
  CHECK(spec->kind == Fault::http_429);
  CHECK(spec->percent == 100.0);
  spec = parse_fault_spec("stall_mid_stream:12.5", error);
  REQUIRE(spec);
  CHECK(spec->kind == Fault::stall_mid_stream);
  CHECK(spec->percent == 12.5);
  for (const char* bad : {"nope", "http_5xx:0", "http_5xx:101", "http_5xx:x", "http_5xx:", "http_5xx:5%"}) {
    INFO(bad);
    CHECK_FALSE(parse_fault_spec(bad, error));
    CHECK_FALSE(error.empty());
  }
  for (size_t i = 0; i < kFaultCount; ++i) CHECK(parse_fault_spec(kFaultNames[i], error)->kind == static_cast<Fault>(i));

  CHECK(check_fault_specs({{Fault::http_5xx, 60}, {Fault::http_429, 40}}).empty());
  CHECK_FALSE(check_fault_specs({{Fault::http_5xx, 60}, {Fault::http_429, 41}}).empty());
  CHECK_FALSE(check_fault_specs({{Fault::http_5xx, 10}, {Fault::http_5xx, 10}}).empty());
  // The TLS fault is per connection, outside the requests' 100%.
  CHECK(check_fault_specs({{Fault::http_5xx, 100}, {Fault::tls_handshake_failure, 100}}).empty());
}

TEST_CASE("a seeded mix draws each fault at its share, the same way every time") {
  const std::vector<FaultSpec> mix{{Fault::http_5xx, 20}, {Fault::reset_mid_stream, 30}, {Fault::huge_event, 10}};
  auto run = [&] {
    FaultInjector injector(mix, 11);
    std::vector<int> seq;
    for (int i = 0; i < 20000; ++i) {
      auto d = injector.draw();
      seq.push_back(d ? static_cast<int>(d->kind) * 1000 + d->status : -1);
    }
    return seq;
  };
  const auto a = run();
  CHECK(a == run());
  std::map<int, int> kinds, statuses;
  for (int v : a) {
    ++kinds[v < 0 ? -1 : v / 1000];
    if (v >= 0 && v / 1000 == static_cast<int>(Fault::http_5xx)) ++statuses[v % 1000];
  }
  CHECK(kinds[static_cast<int>(Fault::http_5xx)] == Approx(4000).epsilon(0.08));
  CHECK(kinds[static_cast<int>(Fault::reset_mid_stream)] == Approx(6000).epsilon(0.08));
  CHECK(kinds[static_cast<int>(Fault::huge_event)] == Approx(2000).epsilon(0.08));
  CHECK(kinds[-1] == Approx(8000).epsilon(0.08));
  CHECK(statuses.size() == 3);  // 500, 502 and 503 all occur
  for (auto [status, n] : statuses) CHECK((status == 500 || status == 502 || status == 503));

  FaultInjector none({}, 1);
  CHECK_FALSE(none.draw());
  CHECK_FALSE(none.watches_tls());
  FaultInjector all({{Fault::stall_after_headers, 100}}, std::nullopt);
  for (int i = 0; i < 100; ++i) CHECK(all.draw()->kind == Fault::stall_after_headers);
}

TEST_CASE("status faults: 5xx, 429 with Retry-After, an HTML page") {
  for (const bool stream : {false, true}) {
    INFO("stream " << stream);
    {
      ServerFixture fixture(with_fault("http_5xx"));
      const Wire w = exchange(fixture.server.port(), request_bytes("/v1/chat/completions", chat_body(stream)));
      const int status = std::stoi(w.bytes.substr(9, 3));
      CHECK((status == 500 || status == 502 || status == 503));
    }
    {
      MockConfig config = with_fault("http_429");
      config.fault_retry_after_s = 3;
      ServerFixture fixture(config);
      auto client = fixture.client();
      const auto response = client.send(make_request(http::verb::post, "/v1/completions",
                                                     R"({"prompt":"hi","max_tokens":4,"stream":)" +
                                                         std::string(stream ? "true" : "false") + "}"));
      CHECK(response.result_int() == 429);
      CHECK(response[http::field::retry_after] == "3");
      CHECK(json::parse(response.body())["error"]["type"] == "rate_limit_error");
      CHECK(client.send(make_request(http::verb::get, "/health")).result_int() == 200);  // kept alive
    }
    {
      ServerFixture fixture(with_fault("wrong_content_type"));
      auto client = fixture.client();
      const auto response = client.send(make_request(http::verb::post, "/v1/chat/completions", chat_body(stream)));
      CHECK(response.result_int() == 200);
      CHECK(response[http::field::content_type].starts_with("text/html"));
      CHECK(response.body().starts_with("<!DOCTYPE html>"));
    }
  }
}

TEST_CASE("resets: before the headers, and in the middle of the output") {
  {
    ServerFixture fixture(with_fault("reset_before_headers"));
    const Wire w = exchange(fixture.server.port(), request_bytes("/v1/chat/completions", chat_body(true)));
    CHECK(w.bytes.empty());
    CHECK(w.reset);
  }
  ServerFixture fixture(with_fault("reset_mid_stream"));
  const Wire s = exchange(fixture.server.port(), request_bytes("/v1/chat/completions", chat_body(true)));
  CHECK(s.reset);
  CHECK(s.head().starts_with("HTTP/1.1 200"));
  CHECK(s.has("chat.completion.chunk"));  // the first half of the tokens went out
  CHECK_FALSE(s.has("[DONE]"));
  const Wire n = exchange(fixture.server.port(), request_bytes("/v1/completions", R"({"prompt":"hi","max_tokens":8})"));
  CHECK(n.reset);
  CHECK(n.body().size() < content_length(n));
  CHECK(n.body().size() > 0);
}

TEST_CASE("truncated chunked encoding: chunks, then FIN without the last chunk") {
  ServerFixture fixture(with_fault("truncated_chunked"));
  for (const bool stream : {true, false}) {
    INFO("stream " << stream);
    const Wire w = exchange(fixture.server.port(), request_bytes("/v1/chat/completions", chat_body(stream)));
    CHECK(w.eof);
    CHECK(w.has("Transfer-Encoding: chunked"));
    CHECK_FALSE(w.bytes.ends_with("0\r\n\r\n"));
    CHECK(w.body().size() > 0);
  }
}

TEST_CASE("malformed JSON and error events") {
  {
    ServerFixture fixture(with_fault("malformed_json"));
    auto client = fixture.client();
    const auto streamed = client.send_streaming(make_request(http::verb::post, "/v1/chat/completions", chat_body(true)));
    int broken = 0;
    for (const auto& chunk : streamed.chunks) {
      if (chunk == "data: [DONE]\n\n") continue;
      if (json::parse(chunk.substr(6), nullptr, false).is_discarded()) ++broken;
    }
    CHECK(broken == 1);
    CHECK(streamed.chunks.back() == "data: [DONE]\n\n");  // the stream itself completes
    const auto full = client.send(make_request(http::verb::post, "/v1/chat/completions", chat_body(false)));
    CHECK(full.result_int() == 200);
    CHECK(json::parse(full.body(), nullptr, false).is_discarded());
  }
  ServerFixture fixture(with_fault("error_event"));
  auto client = fixture.client();
  for (const bool stream : {true, false}) {
    INFO("stream " << stream);
    const auto streamed = client.send_streaming(make_request(http::verb::post, "/v1/chat/completions", chat_body(stream)));
    CHECK(streamed.header[http::field::content_type] == "text/event-stream");
    REQUIRE_FALSE(streamed.chunks.empty());
    CHECK(streamed.chunks.back().starts_with("event: error\ndata: {\"error\""));
    CHECK(streamed.chunks.size() == (stream ? 5u : 1u));  // 4 of 8 tokens first when streaming
  }
}

TEST_CASE("stalls hold the response, then it completes") {
  MockConfig config = with_fault("stall_mid_stream");
  config.fault_stall_ms = 300;
  {
    ServerFixture fixture(config);
    const Wire w = exchange(fixture.server.port(), request_bytes("/v1/chat/completions", chat_body(true)));
    CHECK(w.total_s >= 0.29);
    CHECK(w.first_byte_s < 0.2);
    CHECK(w.has("[DONE]"));
    const std::string body = chat_body(false);
    const Wire n = exchange(fixture.server.port(), request_bytes("/v1/chat/completions", body));
    CHECK(n.total_s >= 0.29);
    CHECK(n.body().size() == content_length(n));
  }
  config.faults = {{Fault::stall_after_headers, 100}};
  ServerFixture fixture(config);
  for (const bool stream : {true, false}) {
    INFO("stream " << stream);
    // Read until 1 s: the head comes at once, the body after the stall.
    const Wire w = exchange(fixture.server.port(), request_bytes("/v1/chat/completions", chat_body(stream)), 1.0);
    CHECK(w.head_done_s < 0.2);
    CHECK(w.total_s >= 0.29);
    if (stream) CHECK(w.has("[DONE]"));
    else CHECK(w.body().size() == content_length(w));
  }
}

TEST_CASE("slow headers trickle out over the delay") {
  MockConfig config = with_fault("slow_headers");
  config.fault_slow_headers_ms = 400;
  ServerFixture fixture(config);
  for (const bool stream : {true, false}) {
    INFO("stream " << stream);
    const Wire w = exchange(fixture.server.port(), request_bytes("/v1/chat/completions", chat_body(stream)), 2.0);
    CHECK(w.first_byte_s >= 0.09);
    CHECK(w.first_byte_s < 0.3);
    CHECK(w.head_done_s >= 0.39);
    CHECK(w.head().starts_with("HTTP/1.1 200 OK"));
  }
}

TEST_CASE("a huge event carries the extra bytes in one event") {
  MockConfig config = with_fault("huge_event");
  config.fault_event_bytes = 1 << 20;
  ServerFixture fixture(config);
  auto client = fixture.client();
  const auto streamed = client.send_streaming(make_request(http::verb::post, "/v1/chat/completions", chat_body(true)));
  size_t big = 0;
  for (const auto& chunk : streamed.chunks) {
    if (chunk.size() > (1u << 20)) {
      ++big;
      CHECK_FALSE(event_json(chunk).is_discarded());
    }
  }
  CHECK(big == 1);
  const auto full = client.send(make_request(http::verb::post, "/v1/completions", R"({"prompt":"x","max_tokens":3})"));
  CHECK(json::parse(full.body())["choices"][0]["text"].get<std::string>().size() > (1u << 20));
}

TEST_CASE("a TLS ClientHello is answered in plaintext and the connection closes") {
  ServerFixture fixture(with_fault("tls_handshake_failure"));
  // The first bytes of a TLS 1.2 ClientHello record.
  const std::string hello{"\x16\x03\x01\x00\x05\x01\x00\x00\x01\x00", 10};
  const Wire w = exchange(fixture.server.port(), hello, 5.0, /*until_close=*/true);
  CHECK(w.bytes.starts_with("HTTP/1.1 400 Bad Request"));
  CHECK(w.eof);
  // Plain HTTP on the same listener is untouched.
  auto client = fixture.client();
  CHECK(client.send(make_request(http::verb::get, "/health")).result_int() == 200);
}

TEST_CASE("/metrics counts the injected faults") {
  ServerFixture fixture(with_fault("http_429:100"));
  auto client = fixture.client();
  for (int i = 0; i < 3; ++i) client.send(make_request(http::verb::post, "/v1/chat/completions", chat_body(false)));
  const std::string text = client.send(make_request(http::verb::get, "/metrics")).body();
  CHECK(text.find("mock_server_faults_injected_total{fault=\"http_429\"} 3") != std::string::npos);
  CHECK(text.find("mock_server_requests_total{endpoint=\"/v1/chat/completions\",status=\"429\"} 3") !=
        std::string::npos);
}
