// Response parsing of image_generation, solido_rag, generate (Triton), responses and template:
// which responses count as content, their text/reasoning and timestamps, usage.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "endpoint_test_util.h"
#include "endpoints/endpoint.h"
#include "endpoints/json_path.h"

using namespace aiperf;
using namespace aiperf::endpoints::test;
using endpoints::find_endpoint;
using endpoints::parse_response;

namespace {

proto::RawRecord sse(const std::vector<std::pair<int64_t, std::string>>& chunks) {
  return record("text/event-stream", chunks);
}
proto::RawRecord body(const std::string& text, int64_t t = 900) { return record("application/json", {{t, text}}); }

std::string event(const std::string& type, const std::string& json) {
  return "event: " + type + "\ndata: " + json + "\n\n";
}

endpoints::ParseResult parse(const char* type, const proto::RawRecord& raw, const endpoints::ParseOptions& o = {}) {
  return parse_response(*find_endpoint(type), raw, o);
}

}  // namespace

TEST_CASE("image_generation: data[] items with b64_json or url count, usage in Images API spelling") {
  const auto r = parse("image_generation",
                       body(R"({"created":1,"data":[{"b64_json":"iVBO","revised_prompt":"p"},{"url":"http://x/1.png"}],)"
                            R"("usage":{"input_tokens":9,"output_tokens":544,"total_tokens":553}})"));
  REQUIRE_FALSE(r.error);
  REQUIRE(r.responses.size() == 1);  // one response per body, however many images
  CHECK(r.responses[0].perf_ns == 900);
  CHECK(r.responses[0].text.empty());
  REQUIRE(r.usage);
  CHECK(r.usage->prompt_tokens == 9);
  CHECK(r.usage->completion_tokens == 544);
  CHECK(r.usage->total_tokens == 553);
}

TEST_CASE("image_generation: streamed partial and completed images, empty data is no output") {
  const auto r = parse("image_generation",
                       sse({{100, event("image_generation.partial_image", R"({"type":"image_generation.partial_image","b64_json":"AA","partial_image_index":0})")},
                            {200, event("image_generation.completed", R"({"type":"image_generation.completed","b64_json":"BB","usage":{"input_tokens":3,"output_tokens":272,"total_tokens":275}})")}}));
  REQUIRE_FALSE(r.error);
  REQUIRE(r.responses.size() == 2);
  CHECK(r.responses[0].perf_ns == 100);
  CHECK(r.responses[1].perf_ns == 200);
  CHECK(r.usage->completion_tokens == 272);

  const auto empty = parse("image_generation", body(R"({"created":1,"data":[{"revised_prompt":"p"}]})"));
  REQUIRE(empty.error);
  CHECK(empty.error->type() == "InvalidInferenceResultError");
}

TEST_CASE("solido_rag: content of the body or of each event, sources ignored") {
  const auto whole = parse("solido_rag", body(R"({"content":"PVTMC is","sources":[{"title":"t"}]})"));
  REQUIRE(whole.responses.size() == 1);
  CHECK(whole.responses[0].text == "PVTMC is");
  const auto streamed = parse("solido_rag", sse({{10, "data: {\"content\":\" a\"}\n\n"},
                                                 {20, "data: {\"content\":\" b\"}\n\n"},
                                                 {30, "data: {\"content\":\"\",\"sources\":[]}\n\n"}}));
  REQUIRE(streamed.responses.size() == 2);
  CHECK(streamed.responses[0].text == " a");
  CHECK(streamed.responses[1].text == " b");
  CHECK(streamed.responses[1].perf_ns == 20);
}

TEST_CASE("generate (Triton): text_output of the body or of each streamed event") {
  const auto whole = parse("generate", body(R"({"model_name":"m","model_version":"1","text_output":" x y"})"));
  REQUIRE(whole.responses.size() == 1);
  CHECK(whole.responses[0].text == " x y");
  const auto streamed = parse("generate", sse({{5, "data: {\"model_name\":\"m\",\"text_output\":\" x\"}\n\n"},
                                               {6, "data: {\"model_name\":\"m\",\"text_output\":\" y\"}\n\n"}}));
  REQUIRE(streamed.responses.size() == 2);
  CHECK(streamed.responses[0].text == " x");
  CHECK(streamed.responses[1].text == " y");
}

TEST_CASE("responses streaming: reasoning and text deltas, done deduplicated, usage from completed") {
  const auto r = parse(
      "responses",
      sse({{10, event("response.created", R"({"type":"response.created","response":{"id":"r","status":"in_progress"}})")},
           {20, event("response.reasoning_text.delta", R"({"type":"response.reasoning_text.delta","output_index":0,"content_index":0,"delta":"think"})")},
           {30, event("response.output_text.delta", R"({"type":"response.output_text.delta","output_index":1,"content_index":0,"delta":"Hel"})")},
           {40, event("response.output_text.delta", R"({"type":"response.output_text.delta","output_index":1,"content_index":0,"delta":"lo"})")},
           {50, event("response.output_text.done", R"({"type":"response.output_text.done","output_index":1,"content_index":0,"text":"Hello"})") +
                    event("response.completed", R"({"type":"response.completed","response":{"usage":{"input_tokens":4,"output_tokens":3,"output_tokens_details":{"reasoning_tokens":1},"total_tokens":7}}})")}}));
  REQUIRE_FALSE(r.error);
  REQUIRE(r.responses.size() == 4);
  CHECK(r.responses[0].reasoning == "think");
  CHECK(r.responses[0].text.empty());
  CHECK(r.responses[1].text == "Hel");
  CHECK(r.responses[2].text == "lo");
  CHECK(r.responses[3].text.empty());  // the done event keeps its timestamp, not its text
  CHECK(r.responses[3].perf_ns == 50);
  REQUIRE(r.usage);
  CHECK(r.usage->prompt_tokens == 4);
  CHECK(r.usage->completion_tokens == 3);
  CHECK(r.usage->reasoning_tokens == 1);
}

TEST_CASE("responses streaming: a done event without deltas carries the text, function call deltas count") {
  const auto r = parse("responses",
                       sse({{10, event("response.output_text.done", R"({"type":"response.output_text.done","output_index":0,"content_index":0,"text":"All"})")},
                            {20, event("response.function_call_arguments.delta", R"({"type":"response.function_call_arguments.delta","delta":"{\"a\":1}"})")}}));
  REQUIRE(r.responses.size() == 2);
  CHECK(r.responses[0].text == "All");
  CHECK(r.responses[1].text == R"({"a":1})");
}

TEST_CASE("responses non-streaming: reasoning summary and message text in one response") {
  const auto r = parse("responses",
                       body(R"({"id":"r","object":"response","status":"completed","output":[)"
                            R"({"type":"reasoning","summary":[{"type":"summary_text","text":"plan"}]},)"
                            R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hi "},)"
                            R"({"type":"output_text","text":"there"}]}],"usage":{"input_tokens":2,"output_tokens":3}})"));
  REQUIRE(r.responses.size() == 1);
  CHECK(r.responses[0].text == "Hi there");
  CHECK(r.responses[0].reasoning == "plan");
  CHECK(r.usage->completion_tokens == 3);

  const auto tool = parse("responses", body(R"({"object":"response","output":[{"type":"function_call","name":"f","arguments":"{}"}]})"));
  REQUIRE(tool.responses.size() == 1);
  CHECK(tool.responses[0].text == "f{}");
  const auto fallback = parse("responses", body(R"({"object":"response","output_text":"plain"})"));
  REQUIRE(fallback.responses.size() == 1);
  CHECK(fallback.responses[0].text == "plain");
}

TEST_CASE("template auto-detect: embeddings, rankings, text fields, choices, plain text bodies") {
  CHECK(parse("template", body(R"({"data":[{"object":"embedding","embedding":[0.1]}]})")).responses.size() == 1);
  CHECK(parse("template", body(R"({"embeddings":[[0.1,0.2]]})")).responses[0].text.empty());
  CHECK(parse("template", body(R"([{"index":0,"score":0.9}])")).responses.size() == 1);
  CHECK(parse("template", body(R"({"text":["a","b"]})")).responses[0].text == "ab");
  CHECK(parse("template", body(R"({"generated":1,"output":"out"})")).responses[0].text == "out");
  CHECK(parse("template", body(R"({"choices":[{"message":{"content":"chat"}}]})")).responses[0].text == "chat");
  CHECK(parse("template", body("just words")).responses[0].text == "just words");
  const auto empty_rankings = parse("template", body(R"({"results":[]})"));
  REQUIRE(empty_rankings.error);
  CHECK(empty_rankings.error->type() == "InvalidInferenceResultError");
}

TEST_CASE("template response_field: selects strictly, no fallback to auto-detection") {
  const nlohmann::json extras = {{"response_field", "result.items[-1].out"}};
  const auto options = endpoints::parse_options_for("template", extras);
  REQUIRE(options.response_field);
  const auto hit = parse("template", body(R"({"text":"not me","result":{"items":[{"out":"a"},{"out":"b"}]}})"), options);
  REQUIRE(hit.responses.size() == 1);
  CHECK(hit.responses[0].text == "b");
  const auto miss = parse("template", body(R"({"text":"not me"})"), options);
  REQUIRE(miss.error);
  CHECK(miss.error->type() == "InvalidInferenceResultError");

  CHECK_FALSE(endpoints::parse_options_for("template", {{"response_field", "text"}}).response_field);
  CHECK_FALSE(endpoints::parse_options_for("chat", extras).response_field);
  CHECK_THROWS_WITH(endpoints::parse_options_for("template", {{"response_field", "items[*].out"}}),
                    Catch::Contains("'[*]' is not an index"));
}

TEST_CASE("json_path subset: names, quoted names, indexes") {
  const auto j = nlohmann::json::parse(R"({"a":{"b-c":[10,20,{"d":null}]}})");
  CHECK(*endpoints::JsonPath(R"(a."b-c"[1])").find(j) == 20);
  CHECK(*endpoints::JsonPath(R"(a."b-c"[-3])").find(j) == 10);
  CHECK(endpoints::JsonPath(R"(a."b-c"[2].d)").find(j) == nullptr);
  CHECK(endpoints::JsonPath("a.x").find(j) == nullptr);
  CHECK_THROWS_WITH(endpoints::JsonPath("a.."), Catch::Contains("unexpected '.'"));
  CHECK_THROWS_WITH(endpoints::JsonPath("length(a)"), Catch::Contains("unsupported '('"));
}
