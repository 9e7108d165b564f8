// The chat view of request bodies (--apply-chat-template), as AIPerf's payload extraction.
#include <catch2/catch.hpp>

#include "endpoints/chat_inputs.h"

using aiperf::endpoints::chat_inputs_of;
using J = nlohmann::ordered_json;

TEST_CASE("chat bodies: role and concatenated text parts, tool_calls kept, media dropped", "[chat_template]") {
  const auto in = chat_inputs_of(R"({"model":"m","messages":[
      {"role":"system","content":"sys"},
      {"role":"user","name":"text","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"x"}},
                                              {"type":"text","text":"b"}]},
      {"role":"assistant","content":null,"tool_calls":[{"function":{"name":"f","arguments":"{}"}}]},
      {"role":"assistant","content":"x","tool_calls":[]}],
    "tools":[{"type":"function","function":{"name":"get","description":"Gets","parameters":{"type":"object","b":1,"a":2}}}]})");
  REQUIRE(in);
  CHECK(in->messages == J::parse(R"([{"role":"system","content":"sys"},{"role":"user","content":"ab"},
      {"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":"{}"}}]},
      {"role":"assistant","content":"x"}])"));
  CHECK(in->tool_texts == std::vector<std::string>{"get", "Gets", R"({"type":"object","b":1,"a":2})"});
}

TEST_CASE("Responses input items: function calls are tool text", "[chat_template]") {
  const auto in = chat_inputs_of(R"({"input":[{"role":"user","content":[{"type":"input_text","text":"q"}]},
      {"type":"function_call","name":"f","arguments":"{\"a\":1}"},{"type":"function_call_output","output":"42"}]})");
  REQUIRE(in);
  CHECK(in->messages == J::parse(R"([{"role":"user","content":"q"}])"));
  CHECK(in->tool_texts == std::vector<std::string>{"f", "{\"a\":1}", "42"});
}

TEST_CASE("flat bodies are not chat-shaped", "[chat_template]") {
  CHECK_FALSE(chat_inputs_of(R"({"prompt":"hi"})"));
  CHECK_FALSE(chat_inputs_of(R"({"input":["a","b"]})"));
  CHECK_FALSE(chat_inputs_of(R"({"messages":[]})"));
  CHECK_FALSE(chat_inputs_of("not json"));
}
