// Chat and completions through a real socket: SSE framing, response shapes, usage, pacing.
#include <catch2/catch.hpp>
#include <chrono>

#include "server_fixture.h"
#include "token_budget.h"

using namespace aiperf::mock;
using namespace aiperf::mock::test;
using nlohmann::json;

namespace {

const std::string kPrompt = "hello world, this is a test";  // 6 tokens by the character rule

std::string chat_body(bool stream, int max_tokens, bool include_usage) {
  json body = {{"model", "test-model"},
               {"messages",
                {{{"role", "system"}, {"content", "system text is not counted"}},
                 {{"role", "user"}, {"name", "text"}, {"content", kPrompt}}}},
               {"stream", stream},
               {"max_completion_tokens", max_tokens},
               {"ignore_eos", true}};
  if (include_usage) body["stream_options"] = {{"include_usage", true}};
  return body.dump();
}

}  // namespace

TEST_CASE("streaming chat sends one HTTP chunk per token, then usage and [DONE]") {
  ServerFixture fixture;
  auto client = fixture.client();
  const auto streamed = client.send_streaming(post("/v1/chat/completions", chat_body(true, 5, true)));

  CHECK(streamed.header.result() == http::status::ok);
  CHECK(streamed.header[http::field::content_type] == "text/event-stream");
  CHECK(streamed.header[http::field::transfer_encoding] == "chunked");
  REQUIRE(streamed.chunks.size() == 7);  // 5 tokens + usage + [DONE]

  std::string content;
  for (int i = 0; i < 5; ++i) {
    const json chunk = event_json(streamed.chunks[i]);
    CHECK(chunk["object"] == "chat.completion.chunk");
    CHECK(chunk["model"] == "test-model");
    CHECK(chunk["id"].get<std::string>().rfind("chatcmpl-", 0) == 0);
    const json& choice = chunk["choices"][0];
    CHECK(choice["index"] == 0);
    CHECK(choice["delta"].contains("role") == (i == 0));
    if (i == 0) CHECK(choice["delta"]["role"] == "assistant");
    CHECK_FALSE(choice["delta"]["content"].get<std::string>().empty());
    content += choice["delta"]["content"].get<std::string>();
    if (i < 4)
      CHECK(choice["finish_reason"].is_null());
    else
      CHECK(choice["finish_reason"] == "length");
  }
  const json usage_chunk = event_json(streamed.chunks[5]);
  CHECK(usage_chunk["choices"] == json::array());
  CHECK(usage_chunk["usage"] == json{{"prompt_tokens", 6}, {"completion_tokens", 5}, {"total_tokens", 11}});
  CHECK(streamed.chunks[6] == "data: [DONE]\n\n");

  // Same prompt, same text: the non-streaming answer carries exactly what was streamed.
  const auto full = json::parse(client.send(post("/v1/chat/completions", chat_body(false, 5, false))).body());
  CHECK(full["choices"][0]["message"]["content"] == content);
}

TEST_CASE("streaming chat without include_usage ends with [DONE] right after the last token") {
  ServerFixture fixture;
  const auto streamed =
      fixture.client().send_streaming(post("/v1/chat/completions", chat_body(true, 3, false)));
  REQUIRE(streamed.chunks.size() == 4);
  CHECK(event_json(streamed.chunks[2])["choices"][0]["finish_reason"] == "length");
  CHECK(streamed.chunks[3] == "data: [DONE]\n\n");
}

TEST_CASE("non-streaming chat response has the OpenAI shape and usage") {
  ServerFixture fixture;
  const auto response = fixture.client().send(post("/v1/chat/completions", chat_body(false, 7, false)));
  CHECK(response.result() == http::status::ok);
  CHECK(response[http::field::content_type] == "application/json");
  const json body = json::parse(response.body());
  CHECK(body["object"] == "chat.completion");
  CHECK(body["model"] == "test-model");
  CHECK(body["id"].get<std::string>().rfind("chatcmpl-", 0) == 0);
  CHECK(body["created"].is_number_integer());
  const json& choice = body["choices"][0];
  CHECK(choice["index"] == 0);
  CHECK(choice["message"]["role"] == "assistant");
  CHECK(choice["finish_reason"] == "length");
  // Built-in words: each piece is " " + one word, so 7 tokens are 7 words.
  const std::string content = choice["message"]["content"];
  CHECK(std::count(content.begin(), content.end(), ' ') == 7);
  CHECK(body["usage"] == json{{"prompt_tokens", 6}, {"completion_tokens", 7}, {"total_tokens", 13}});
}

TEST_CASE("output length without max tokens follows the prompt-based budget") {
  ServerFixture fixture;
  const std::string prompt(400, 'x');  // 100 tokens => length in [80, 200]
  const json request = {{"messages", {{{"role", "user"}, {"content", prompt}}}}};
  const json body = json::parse(fixture.client().send(post("/v1/chat/completions", request.dump())).body());
  const int tokens = body["usage"]["completion_tokens"];
  CHECK(body["usage"]["prompt_tokens"] == 100);
  CHECK(tokens >= 80);
  CHECK(tokens <= 200);
  CHECK(body["choices"][0]["finish_reason"] == (tokens == 200 ? "length" : "stop"));
  CHECK(body["model"] == "mock-model");
}

TEST_CASE("streaming completions use text_completion objects and choices[0].text") {
  ServerFixture fixture;
  const json request = {{"model", "m"},       {"prompt", {"abcd efgh"}},
                        {"stream", true},     {"max_tokens", 4},
                        {"ignore_eos", true}, {"stream_options", {{"include_usage", true}}}};
  const auto streamed = fixture.client().send_streaming(post("/v1/completions", request.dump()));
  REQUIRE(streamed.chunks.size() == 6);
  for (int i = 0; i < 4; ++i) {
    const json chunk = event_json(streamed.chunks[i]);
    CHECK(chunk["object"] == "text_completion");
    CHECK(chunk["id"].get<std::string>().rfind("cmpl-", 0) == 0);
    CHECK_FALSE(chunk["choices"][0]["text"].get<std::string>().empty());
    CHECK(chunk["choices"][0]["finish_reason"] == (i == 3 ? json("length") : json(nullptr)));
  }
  CHECK(event_json(streamed.chunks[4])["usage"] ==
        json{{"prompt_tokens", 2}, {"completion_tokens", 4}, {"total_tokens", 6}});
  CHECK(streamed.chunks[5] == "data: [DONE]\n\n");
}

TEST_CASE("non-streaming completions response") {
  ServerFixture fixture;
  const json request = {{"prompt", "abcd efgh"}, {"max_tokens", 3}, {"ignore_eos", true}};
  const json body = json::parse(fixture.client().send(post("/v1/completions", request.dump())).body());
  CHECK(body["object"] == "text_completion");
  CHECK(body["choices"][0]["finish_reason"] == "length");
  CHECK_FALSE(body["choices"][0]["text"].get<std::string>().empty());
  CHECK(body["usage"] == json{{"prompt_tokens", 2}, {"completion_tokens", 3}, {"total_tokens", 5}});
}

TEST_CASE("tokens are paced on the ttft + i*itl schedule") {
  MockConfig config = fast_config();
  config.fast = false;
  config.ttft_ms = 30;
  config.itl_ms = 10;
  ServerFixture fixture(config);
  auto client = fixture.client();
  using std::chrono::steady_clock;
  const auto minimum = std::chrono::milliseconds(30 + 4 * 10);  // last of 5 tokens

  auto start = steady_clock::now();
  const auto streamed = client.send_streaming(post("/v1/chat/completions", chat_body(true, 5, false)));
  CHECK(steady_clock::now() - start >= minimum);
  CHECK(streamed.chunks.size() == 6);

  start = steady_clock::now();
  client.send(post("/v1/chat/completions", chat_body(false, 5, false)));
  CHECK(steady_clock::now() - start >= minimum);
}
