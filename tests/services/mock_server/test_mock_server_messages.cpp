// POST /v1/messages (Anthropic Messages API) through a real socket: the event sequence and
// blocks real servers send, token counts and validation.
#include <catch2/catch.hpp>

#include <algorithm>

#include "routes.h"
#include "server_fixture.h"
#include "token_budget.h"

using namespace aiperf::mock;
using namespace aiperf::mock::test;
using nlohmann::json;

TEST_CASE("messages route: POST /v1/messages only") {
  using boost::beast::http::verb;
  CHECK(match_route(verb::post, "/v1/messages") == Route::messages);
  CHECK(match_route(verb::post, "/v1/messages?beta=true") == Route::messages);
  CHECK(match_route(verb::get, "/v1/messages") == Route::method_not_allowed);
}

TEST_CASE("messages: streamed message_start, thinking then text blocks one delta per token, message_delta usage") {
  ServerFixture fixture;
  const std::string request =
      R"({"model":"claude","messages":[{"role":"user","content":"one two three four"}],"max_tokens":5,)"
      R"("ignore_eos":true,"stream":true,"thinking":{"type":"enabled","budget_tokens":2}})";
  const auto streamed = fixture.client().send_streaming(post("/v1/messages", request));
  CHECK(streamed.header["Content-Type"] == "text/event-stream");
  std::vector<std::string> types;
  std::vector<json> events;
  for (const auto& chunk : streamed.chunks) {
    auto [type, event] = typed_event(chunk);
    CHECK(event["type"] == type);  // the event name repeats the payload's type, as the API does
    types.push_back(type);
    events.push_back(event);
  }
  CHECK(types == std::vector<std::string>{"message_start", "ping", "content_block_start", "content_block_delta",
                                          "content_block_delta", "content_block_delta", "content_block_stop",
                                          "content_block_start", "content_block_delta", "content_block_delta",
                                          "content_block_delta", "content_block_stop", "message_delta", "message_stop"});
  CHECK(events[0]["message"]["usage"]["input_tokens"] == count_prompt_tokens("one two three four"));
  CHECK(events[0]["message"]["usage"]["output_tokens"] == 1);
  CHECK(events[2]["content_block"]["type"] == "thinking");
  CHECK(events[3]["delta"]["type"] == "thinking_delta");
  CHECK(events[5]["delta"]["type"] == "signature_delta");
  CHECK(events[7]["index"] == 1);
  CHECK(events[7]["content_block"]["type"] == "text");
  std::string text;
  for (int i = 8; i <= 10; ++i) {
    CHECK(events[i]["delta"]["type"] == "text_delta");
    text += events[i]["delta"]["text"].get<std::string>();
  }
  CHECK(spaces(text) == 3);
  CHECK(events[12]["usage"]["output_tokens"] == 5);
  CHECK(events[12]["delta"]["stop_reason"] == "max_tokens");
}

TEST_CASE("messages: non-streaming message with content blocks and usage - max_tokens required") {
  ServerFixture fixture;
  const std::string request =
      R"({"model":"claude","system":"sys","messages":[{"role":"user","content":[{"type":"text","text":"hello there"}]}],)"
      R"("max_tokens":7,"ignore_eos":true})";
  const json body = json::parse(fixture.client().send(post("/v1/messages", request)).body());
  CHECK(body["type"] == "message");
  CHECK(body["role"] == "assistant");
  CHECK(body["model"] == "claude");
  REQUIRE(body["content"].size() == 1);
  CHECK(body["content"][0]["type"] == "text");
  CHECK(spaces(body["content"][0]["text"]) == 7);
  CHECK(body["usage"]["input_tokens"] == count_prompt_tokens("hello there"));
  CHECK(body["usage"]["output_tokens"] == 7);

  const auto missing = fixture.client().send(post("/v1/messages", R"({"model":"m","messages":[]})"));
  CHECK(missing.result_int() == 400);
}

TEST_CASE("messages: mock_error_after ends the stream with the API's error event") {
  ServerFixture fixture;
  const std::string request = R"({"model":"m","messages":[{"role":"user","content":"hello"}],"max_tokens":6,)"
                              R"("ignore_eos":true,"stream":true,"mock_error_after":2})";
  const auto streamed = fixture.client().send_streaming(post("/v1/messages", request));
  REQUIRE(streamed.chunks.size() == 6);  // message_start, ping, block start, 2 deltas, error
  CHECK(typed_event(streamed.chunks[4]).first == "content_block_delta");
  const auto [type, error] = typed_event(streamed.chunks[5]);
  CHECK(type == "error");
  CHECK(error["error"]["type"] == "overloaded_error");
}
