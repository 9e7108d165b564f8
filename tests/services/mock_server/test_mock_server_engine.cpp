// The engine model inside the server (--engine-slots): requests queue for the slots, a full queue
// answers 429, /metrics shows the engine's running and waiting requests in vLLM's names.
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "server_fixture.h"

using namespace aiperf::mock;
using namespace aiperf::mock::test;
using nlohmann::json;

namespace {

// "hello world, this is a test" counts 6 prompt tokens: 0.6 s of prefill at 10 tokens/s, so the
// states below last long enough to be observed.
std::string chat(bool stream) {
  return json{{"messages", {{{"role", "user"}, {"content", "hello world, this is a test"}}}},
              {"max_tokens", 3},
              {"ignore_eos", true},
              {"stream", stream}}
      .dump();
}

Request post(bool stream) { return make_request(http::verb::post, "/v1/chat/completions", chat(stream)); }

double vllm_sample(const std::string& text, const std::string& name) {
  const std::string series = "\n" + name + "{engine=\"0\",model_name=\"mock\"} ";
  const auto at = text.find(series);
  return at == std::string::npos ? -1.0 : std::stod(text.substr(at + series.size()));
}

}  // namespace

TEST_CASE("engine in the server: with one slot and one queue place the third request gets 429") {
  MockConfig config = fast_config();
  config.fast = false;
  config.engine.slots = 1;
  config.engine.max_queue = 1;
  config.engine.prefill_tokens_per_s = 10;
  config.engine.step_ms = 1;
  config.engine.step_per_seq_ms = 0;
  ServerFixture fixture(config);

  StreamedResponse streamed;
  Response full;
  std::thread a([&] { streamed = fixture.client().send_streaming(post(true)); });
  std::thread b([&] { full = fixture.client().send(post(false)); });
  auto metrics = fixture.client();
  const auto page = [&] { return metrics.send(make_request(http::verb::get, "/metrics")).body(); };
  bool one_running_one_waiting = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!one_running_one_waiting && std::chrono::steady_clock::now() < deadline) {
    const std::string text = page();
    one_running_one_waiting =
        vllm_sample(text, "vllm:num_requests_running") == 1 && vllm_sample(text, "vllm:num_requests_waiting") == 1;
    if (one_running_one_waiting) CHECK(vllm_sample(text, "vllm:kv_cache_usage_perc") == 1);
    if (!one_running_one_waiting) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(one_running_one_waiting);
  const Response refused = fixture.client().send(post(false));
  CHECK(refused.result_int() == 429);
  CHECK(refused[http::field::retry_after] == "1");
  CHECK(json::parse(refused.body())["error"]["type"] == "rate_limit_error");
  a.join();
  b.join();

  CHECK(streamed.header.result_int() == 200);
  CHECK(streamed.chunks.size() == 4);  // 3 tokens + [DONE]
  CHECK(full.result_int() == 200);
  CHECK(json::parse(full.body())["usage"]["completion_tokens"] == 3);
  const std::string after = page();
  CHECK(vllm_sample(after, "vllm:num_requests_running") == 0);
  CHECK(vllm_sample(after, "vllm:num_requests_waiting") == 0);
  CHECK(vllm_sample(after, "vllm:prompt_tokens_total") == 12);
  CHECK(vllm_sample(after, "vllm:generation_tokens_total") == 6);
  // One waited for the other's 0.6 s prefill and 2 steps (less the gap between their arrivals).
  CHECK(vllm_sample(after, "vllm:request_queue_time_seconds_count") == 2);
  CHECK(vllm_sample(after, "vllm:request_queue_time_seconds_sum") > 0.4);
  CHECK(vllm_sample(after, "vllm:request_prefill_time_seconds_sum") == Approx(1.2).epsilon(1e-6));
  CHECK(after.find("mock_server_requests_total{endpoint=\"/v1/chat/completions\",status=\"429\"} 1\n") !=
        std::string::npos);
}

TEST_CASE("engine in the server: a client that leaves mid-stream frees its slot for the next") {
  MockConfig config = fast_config();
  config.fast = false;
  config.engine.slots = 1;
  config.engine.prefill_tokens_per_s = 1e6;
  config.engine.step_ms = 20;
  config.engine.step_per_seq_ms = 0;
  ServerFixture fixture(config);
  {
    // 1000 tokens would hold the slot for 20 s; the client reads the head and goes away.
    auto client = fixture.client();
    const auto long_request = make_request(
        http::verb::post, "/v1/chat/completions",
        R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":1000,"ignore_eos":true,"stream":true})");
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), fixture.server.port()});
    http::write(socket, long_request);
    boost::beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    http::read_header(socket, buffer, parser);
    socket.set_option(boost::asio::socket_base::linger(true, 0));
    socket.close();  // RST: the server's next token write fails
  }
  // The server notices at its next token write (20 ms) and the sequence leaves the engine; kept,
  // it would run for 20 s.
  auto metrics = fixture.client();
  const auto running = [&] {
    return vllm_sample(metrics.send(make_request(http::verb::get, "/metrics")).body(), "vllm:num_requests_running");
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (running() != 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(running() == 0);
  const auto streamed = fixture.client().send_streaming(post(true));
  CHECK(streamed.chunks.size() == 4);
}
