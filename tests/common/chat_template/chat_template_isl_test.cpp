// The record processor's --apply-chat-template ISL of a request body. Figures from AIPerf 0.13's
// payload extraction and transformers 5.23 apply_chat_template on the Qwen3 test tokenizer.
#include <catch2/catch.hpp>

#include "record_processor_service.h"

using namespace aiperf;

namespace {
const std::string kTok = std::string(AIPERF_TEST_DATA) + "/tokenizer/qwen3";
}

TEST_CASE("templated ISL: messages through the template plus the tool texts", "[chat_template]") {
  auto tmpl = endpoints::load_chat_template(kTok);
  REQUIRE(tmpl);
  auto tok = tok::load_tokenizer(kTok);
  const std::string body = R"({"model":"m","messages":[{"role":"system","content":"Be brief."},
    {"role":"user","content":[{"type":"text","text":"What is the weather"},{"type":"text","text":" in Paris?"}]},
    {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function",
      "function":{"name":"get_weather","arguments":"{\"city\": \"Paris\"}"}}]},
    {"role":"tool","content":"sunny"}],
    "tools":[{"type":"function","function":{"name":"get_weather","description":"Weather of a city",
      "parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}]})";
  // 58 for the rendered messages, 20 for "get_weather Weather of a city {...}".
  CHECK(record_processor::chat_template_input_tokens(*tmpl, *tok, body) == 78u);
  CHECK(record_processor::chat_template_input_tokens(
            *tmpl, *tok, R"({"messages":[{"role":"user","content":"Hello there, how are you?"}]})") == 15u);
  CHECK_FALSE(record_processor::chat_template_input_tokens(*tmpl, *tok, R"({"prompt":"Hello"})"));
  const endpoints::ChatTemplate raising("{{ raise_exception('roles must alternate') }}");
  CHECK_FALSE(record_processor::chat_template_input_tokens(
      raising, *tok, R"({"messages":[{"role":"user","content":"Hello"}]})"));
}
