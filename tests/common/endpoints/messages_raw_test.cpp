// The `messages` (Anthropic Messages API) and `raw` endpoint types: request bodies byte for byte
// against AIPerf 0.13's own (recorded with tests/compat/ref_messages_payload.py), headers, and
// response parsing of real-shaped bodies and event streams.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "endpoint_test_util.h"
#include "endpoints/endpoint.h"

using namespace aiperf;
using namespace aiperf::endpoints::test;
using endpoints::build_payload;
using endpoints::find_endpoint;
using endpoints::parse_response;
using endpoints::PayloadOptions;
using nlohmann::json;

namespace {

proto::Turn turn_of(std::vector<std::string> texts, std::optional<int64_t> max_tokens = std::nullopt,
                    std::string role = "", std::vector<std::string> images = {}) {
  proto::Turn turn;
  turn.set_role(std::move(role));
  proto::Text* t = turn.add_texts();
  t->set_name("text");
  for (const auto& c : texts) t->add_contents(c);
  if (!images.empty()) {
    proto::Text* i = turn.add_images();
    for (const auto& c : images) i->add_contents(c);
  }
  if (max_tokens) turn.set_max_tokens(*max_tokens);
  return turn;
}

std::string event(const std::string& type, const std::string& data) { return "event: " + type + "\ndata: " + data + "\n\n"; }

endpoints::ParseResult parse(const char* type, const proto::RawRecord& raw, const endpoints::ParseOptions& o = {}) {
  return parse_response(*find_endpoint(type), raw, o);
}

// A streamed reply as the Messages API sends it: 2 thinking tokens, 3 text tokens.
std::vector<std::pair<int64_t, std::string>> thinking_stream() {
  return {
      {100, event("message_start",
                  R"({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],)"
                  R"("model":"claude","stop_reason":null,"stop_sequence":null,)"
                  R"("usage":{"input_tokens":12,"cache_creation_input_tokens":0,"cache_read_input_tokens":3,"output_tokens":1}}})")},
      {110, event("ping", R"({"type":"ping"})")},
      {200, event("content_block_start", R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}})")},
      {210, event("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me"}})")},
      {220, event("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" think"}})")},
      {225, event("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQB"}})")},
      {226, event("content_block_stop", R"({"type":"content_block_stop","index":0})")},
      {230, event("content_block_start", R"({"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}})")},
      {240, event("content_block_delta", R"({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hello"}})")},
      {250, event("content_block_delta", R"({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":""}})")},
      {260, event("content_block_delta", R"({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":" world"}})")},
      {270, event("content_block_stop", R"({"type":"content_block_stop","index":1})")},
      {280, event("message_delta", R"({"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}})")},
      {290, event("message_stop", R"({"type":"message_stop"})")},
  };
}

}  // namespace

TEST_CASE("messages payload: AIPerf's body for a single turn (max_tokens from the turn, no stream key)") {
  const proto::Turn turn = turn_of({"hello world"}, 50);
  CHECK(build("messages", {&turn}) == R"({"model":"m1","messages":[{"role":"user","content":"hello world"}],"max_tokens":50})");
}

TEST_CASE("messages payload: streaming, system prompt top level, user context first, extras last") {
  const proto::Turn turn = turn_of({"hello world"}, 50);
  const json extras = json::parse(R"({"temperature":0.5,"max_tokens":7})");
  CHECK(build("messages", {&turn}, true, &extras, "be brief", "ctx here") ==
        R"({"model":"m1","messages":[{"role":"user","content":"ctx here"},{"role":"user","content":"hello world"}],)"
        R"("max_tokens":7,"stream":true,"system":"be brief","temperature":0.5})");
}

TEST_CASE("messages payload: history, text and image blocks (data URI -> base64 source), default max_tokens 1024") {
  const proto::Turn q1 = turn_of({"q1"});
  const proto::Turn a1 = turn_of({"a1"}, std::nullopt, "assistant");
  const proto::Turn q2 = turn_of({"q2", "q3"}, std::nullopt, "", {"data:image/jpeg;base64,AAAA", "http://x/y.png"});
  CHECK(build("messages", {&q1, &a1, &q2}) ==
        R"({"model":"m1","messages":[{"role":"user","content":"q1"},{"role":"assistant","content":"a1"},)"
        R"({"role":"user","content":[{"type":"text","text":"q2"},{"type":"text","text":"q3"},)"
        R"({"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"AAAA"}},)"
        R"({"type":"image","source":{"type":"url","url":"http://x/y.png"}}]}],"max_tokens":1024})");
}

TEST_CASE("messages payload: audio is refused before sending - a trace's messages and tools are sent as given") {
  proto::Turn audio = turn_of({"q"});
  audio.add_audios()->add_contents("wav,AAAA");
  CHECK_THROWS_WITH(build("messages", {&audio}), Catch::Contains("does not support audio input"));
  proto::Turn trace;
  trace.set_raw_messages(R"([{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]}])");
  trace.set_raw_tools(R"([{"name":"get","input_schema":{"type":"object"}}])");
  CHECK(build("messages", {&trace}, false, nullptr, "", "ctx") ==
        R"({"model":"m1","messages":[{"role":"user","content":"ctx"},{"role":"user","content":[{"type":"text","text":"hi",)"
        R"("cache_control":{"type":"ephemeral"}}]}],"max_tokens":1024,"tools":[{"name":"get","input_schema":{"type":"object"}}]})");
}

TEST_CASE("messages headers: x-api-key and anthropic-version instead of a bearer token") {
  using Headers = std::vector<std::pair<std::string, std::string>>;
  CHECK(endpoints::endpoint_headers(*find_endpoint("messages"), "k1", {}) ==
        Headers{{"x-api-key", "k1"}, {"anthropic-version", "2023-06-01"}});
  CHECK(endpoints::endpoint_headers(*find_endpoint("messages"), "", {{"Anthropic-Version", "2024-01-01"}}).empty());
  CHECK(endpoints::endpoint_headers(*find_endpoint("chat"), "k1", {}) == Headers{{"Authorization", "Bearer k1"}});
  CHECK(endpoints::endpoint_headers(*find_endpoint("raw"), "", {}).empty());
}

TEST_CASE("messages: default path /v1/messages - raw appends no path") {
  CHECK(endpoints::build_url("http://h:1", *find_endpoint("messages"), "", true) == "http://h:1/v1/messages");
  CHECK(endpoints::build_url("http://h:1/v1", *find_endpoint("messages"), "", false) == "http://h:1/v1/messages");
  CHECK(endpoints::build_url("http://h:1/api/x", *find_endpoint("raw"), "", false) == "http://h:1/api/x");
}

TEST_CASE("messages stream: text deltas are text, thinking deltas reasoning - TTFT from the first content delta") {
  const auto r = parse("messages", record("text/event-stream", thinking_stream()));
  REQUIRE_FALSE(r.error);
  REQUIRE(r.responses.size() == 4);  // empty text delta and signature delta carry nothing
  CHECK(r.responses[0].perf_ns == 210);  // not message_start (100) nor content_block_start (200)
  CHECK(r.responses[0].reasoning == "Let me");
  CHECK(r.responses[0].text.empty());
  CHECK(r.responses[1].reasoning == " think");
  CHECK(r.responses[2].perf_ns == 240);
  CHECK(r.responses[2].text == "Hello");
  CHECK(r.responses[3].perf_ns == 260);
  CHECK(r.responses[3].text == " world");
  // message_delta's output_tokens completed with message_start's input and cache counts.
  REQUIRE(r.usage);
  CHECK(r.usage->prompt_tokens == 15);  // 12 uncached + 3 cache reads
  CHECK(r.usage->completion_tokens == 5);
  CHECK_FALSE(r.usage->reasoning_tokens);
}

TEST_CASE("messages stream: input_json_delta fragments are generated text") {
  const auto r = parse("messages", record("text/event-stream",
      {{10, event("content_block_start", R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"get","input":{}}})")},
       {20, event("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\": "}})")},
       {30, event("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"Paris\"}"}})")}}));
  REQUIRE(r.responses.size() == 2);
  CHECK(r.responses[0].text == "{\"city\": ");
  CHECK(r.responses[1].text == "\"Paris\"}");
}

TEST_CASE("messages stream: an SSE error event fails the record - an error payload without it is not content") {
  auto chunks = thinking_stream();
  chunks.insert(chunks.begin() + 9,
                {245, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"});
  const auto failed = parse("messages", record("text/event-stream", chunks));
  REQUIRE(failed.error);
  CHECK(failed.error->code() == 502);
  CHECK(failed.error->type() == "SSEResponseError");
  CHECK_THAT(failed.error->message(), Catch::StartsWith("Error occurred in SSE response: ") &&
                                          Catch::Contains("overloaded_error"));
  CHECK(failed.responses.empty());

  const auto only_error = parse("messages", record("text/event-stream",
      {{10, "data: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"x\"}}\n\n"}}));
  REQUIRE(only_error.error);
  CHECK(only_error.error->type() == "InvalidInferenceResultError");
}

TEST_CASE("messages body: text blocks joined, thinking is reasoning, usage input/output tokens") {
  const auto r = parse("messages", record("application/json", {{900,
      R"({"id":"msg_1","type":"message","role":"assistant","model":"claude",)"
      R"("content":[{"type":"thinking","thinking":"hmm","signature":"x"},{"type":"text","text":"Hi"},{"type":"text","text":" there"}],)"
      R"("stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":21,"output_tokens":9}})"}}));
  REQUIRE_FALSE(r.error);
  REQUIRE(r.responses.size() == 1);
  CHECK(r.responses[0].perf_ns == 900);
  CHECK(r.responses[0].text == "Hi there");
  CHECK(r.responses[0].reasoning == "hmm");
  CHECK(r.usage->prompt_tokens == 21);
  CHECK(r.usage->completion_tokens == 9);
}

TEST_CASE("messages body: tool_use is name + input JSON in the server's key order, after the prose") {
  const auto r = parse("messages", record("application/json", {{5,
      R"({"type":"message","content":[{"type":"text","text":"Checking. "},)"
      R"({"type":"tool_use","id":"t1","name":"get_weather","input":{"zeta":1,"alpha":"b"}},)"
      R"({"type":"tool_use","id":"t2","name":"noop","input":{}}],"usage":{"input_tokens":1,"output_tokens":2}})"}}));
  REQUIRE(r.responses.size() == 1);
  CHECK(r.responses[0].text == R"(Checking. get_weather{"zeta":1,"alpha":"b"}noop)");
  CHECK(r.responses[0].reasoning.empty());
}

TEST_CASE("messages body: no content blocks is an invalid result - malformed JSON a decode error") {
  const auto empty = parse("messages", record("application/json", {{5, R"({"type":"message","content":[],"usage":{"input_tokens":1,"output_tokens":0}})"}}));
  REQUIRE(empty.error);
  CHECK(empty.error->type() == "InvalidInferenceResultError");
  const auto bad = parse("messages", record("application/json", {{5, R"({"type":"message",)"}}));
  REQUIRE(bad.error);
  CHECK(bad.error->type() == "JSONDecodeError");
}

TEST_CASE("raw payload: a raw_payload turn is sent verbatim - without one the run is refused") {
  proto::Turn turn;
  turn.set_raw_payload(R"({"messages":[{"role":"user","content":"x"}],"model":"other","max_tokens":3})");
  const json extras = {{"temperature", 1}};
  CHECK(build("raw", {&turn}, true, &extras) == turn.raw_payload());
  const proto::Turn synthetic = turn_of({"hello"});
  CHECK_THROWS_WITH(build("raw", {&synthetic}), Catch::Contains("has no raw_payload set"));
}

TEST_CASE("raw responses: auto-detected like template, or the response_field") {
  const auto chat = parse("raw", record("application/json", {{7, R"({"choices":[{"message":{"content":"ok"}}]})"}}));
  REQUIRE(chat.responses.size() == 1);
  CHECK(chat.responses[0].text == "ok");
  const auto options = endpoints::parse_options_for("raw", json{{"response_field", "out.text"}});
  REQUIRE(options.response_field);
  const auto picked = parse("raw", record("application/json", {{7, R"({"out":{"text":"picked"},"text":"no"})"}}), options);
  REQUIRE(picked.responses.size() == 1);
  CHECK(picked.responses[0].text == "picked");
}
