// The scripted routes (Responses API, images, Solido RAG, Triton generate) and the
// embeddings/rankings latency knobs, through a real socket.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>

#include "cli_options.h"
#include "routes.h"
#include "server_fixture.h"
#include "server_state.h"
#include "token_budget.h"

using namespace aiperf::mock;
using namespace aiperf::mock::test;
using nlohmann::json;

TEST_CASE("routes: the scripted APIs and Triton's model-named paths") {
  using boost::beast::http::verb;
  CHECK(match_route(verb::post, "/v1/responses") == Route::responses);
  CHECK(match_route(verb::post, "/v1/images/generations") == Route::image_generations);
  CHECK(match_route(verb::post, "/rag/api/prompt") == Route::solido_rag);
  CHECK(match_route(verb::post, "/v2/models/ens/generate") == Route::triton_generate);
  CHECK(match_route(verb::post, "/v2/models/ens/generate_stream?x=1") == Route::triton_generate_stream);
  CHECK(match_route(verb::get, "/v2/models/ens/generate") == Route::method_not_allowed);
  CHECK(match_route(verb::post, "/v2/models//generate") == Route::not_found);
  CHECK(match_route(verb::post, "/v2/models/ens/infer") == Route::not_found);
}

TEST_CASE("responses: streamed events with one delta per token, done and completed with usage") {
  ServerFixture fixture;
  const std::string request =
      R"({"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":"one two three four"}]}],)"
      R"("max_output_tokens":5,"ignore_eos":true,"stream":true})";
  const auto streamed = fixture.client().send_streaming(post("/v1/responses", request));
  CHECK(streamed.header["Content-Type"] == "text/event-stream");
  REQUIRE(streamed.chunks.size() == 8);  // created, 5 deltas, done, completed
  CHECK(typed_event(streamed.chunks[0]).first == "response.created");
  std::string text;
  for (int i = 1; i <= 5; ++i) {
    const auto [type, event] = typed_event(streamed.chunks[i]);
    CHECK(type == "response.output_text.delta");
    CHECK(event["output_index"] == 0);
    CHECK(event["content_index"] == 0);
    text += event["delta"].get<std::string>();
  }
  CHECK(spaces(text) == 5);
  const auto [done_type, done] = typed_event(streamed.chunks[6]);
  CHECK(done_type == "response.output_text.done");
  CHECK(done["text"] == text);
  const auto [completed_type, completed] = typed_event(streamed.chunks[7]);
  CHECK(completed_type == "response.completed");
  CHECK(completed["response"]["usage"]["output_tokens"] == 5);
  CHECK(completed["response"]["usage"]["input_tokens"] == count_prompt_tokens("one two three four"));
  CHECK(completed["response"]["usage"]["output_tokens_details"]["reasoning_tokens"] == 0);
  CHECK(completed["response"]["output"][0]["content"][0]["text"] == text);
}

TEST_CASE("responses: reasoning models think first, capped by the budget, non-streaming object") {
  ServerFixture fixture;
  const std::string request = R"({"model":"qwen3","input":"hello there","max_output_tokens":120,)"
                              R"("ignore_eos":true,"reasoning":{"effort":"low"}})";
  const json body = json::parse(fixture.client().send(post("/v1/responses", request)).body());
  CHECK(body["object"] == "response");
  CHECK(body["status"] == "completed");
  REQUIRE(body["output"].size() == 2);
  CHECK(body["output"][0]["type"] == "reasoning");
  CHECK(spaces(body["output"][0]["summary"][0]["text"]) == 100);
  CHECK(body["output"][1]["type"] == "message");
  CHECK(spaces(body["output"][1]["content"][0]["text"]) == 20);
  CHECK(body["usage"]["output_tokens"] == 120);
  CHECK(body["usage"]["output_tokens_details"]["reasoning_tokens"] == 100);

  const std::string small = R"({"model":"gpt-oss-20b","input":"hi","max_output_tokens":7,"ignore_eos":true})";
  const json capped = json::parse(fixture.client().send(post("/v1/responses", small)).body());
  CHECK(capped["usage"]["output_tokens_details"]["reasoning_tokens"] == 7);  // medium = 250, capped at 7
}

TEST_CASE("images: n images as b64_json or url, streaming partial and completed events") {
  ServerFixture fixture;
  const json body = json::parse(
      fixture.client().send(post("/v1/images/generations", R"({"prompt":"a fox","n":2,"size":"256x256"})")).body());
  REQUIRE(body["data"].size() == 2);
  CHECK(body["data"][0]["b64_json"].get<std::string>().rfind("iVBOR", 0) == 0);
  CHECK(body["data"][1]["revised_prompt"] == "a fox");
  CHECK(body["size"] == "256x256");
  CHECK(body["usage"]["output_tokens"] == 544);
  const json urls = json::parse(
      fixture.client().send(post("/v1/images/generations", R"({"prompt":"a fox","response_format":"url"})")).body());
  CHECK(urls["data"][0].contains("url"));
  CHECK_FALSE(urls["data"][0].contains("b64_json"));

  const auto streamed = fixture.client().send_streaming(
      post("/v1/images/generations", R"({"prompt":"a fox","stream":true,"partial_images":2})"));
  REQUIRE(streamed.chunks.size() == 3);
  CHECK(typed_event(streamed.chunks[0]).second["partial_image_index"] == 0);
  CHECK(typed_event(streamed.chunks[1]).second["partial_image_index"] == 1);
  CHECK(typed_event(streamed.chunks[2]).first == "image_generation.completed");
  CHECK(typed_event(streamed.chunks[2]).second["usage"]["output_tokens"] == 272);
  CHECK(fixture.client().send(post("/v1/images/generations", R"({"n":1})")).result_int() == 400);
}

TEST_CASE("solido rag: content with sources, streamed one piece per token") {
  ServerFixture fixture;
  const std::string request = R"({"query":["What is PVTMC?"],"filters":{"family":"Solido"},"inference_model":"llm"})";
  const json body = json::parse(fixture.client().send(post("/rag/api/prompt", request)).body());
  CHECK(body["inference_model"] == "llm");
  CHECK(body["filters"] == json{{"family", "Solido"}});
  CHECK(body["sources"].size() == 2);
  const std::string content = body["content"];
  const auto streamed = fixture.client().send_streaming(
      post("/rag/api/prompt", R"({"query":["What is PVTMC?"],"stream":true})"));
  REQUIRE(streamed.chunks.size() == static_cast<size_t>(spaces(content)) + 1);  // tokens, then sources
  std::string joined;
  for (size_t i = 0; i + 1 < streamed.chunks.size(); ++i) joined += event_json(streamed.chunks[i])["content"];
  CHECK(joined == content);  // same prompt, same answer
  CHECK(event_json(streamed.chunks.back())["sources"].size() == 2);
}

TEST_CASE("triton generate: model from the path, text_output whole or per token") {
  ServerFixture fixture;
  const std::string request = R"({"text_input":"hello world","max_tokens":4,"ignore_eos":true})";
  const json whole = json::parse(fixture.client().send(post("/v2/models/ens/generate", request)).body());
  CHECK(whole["model_name"] == "ens");
  CHECK(whole["model_version"] == "1");
  CHECK(spaces(whole["text_output"]) == 4);
  const auto streamed = fixture.client().send_streaming(post("/v2/models/ens/generate_stream", request));
  REQUIRE(streamed.chunks.size() == 4);
  std::string joined;
  for (const auto& chunk : streamed.chunks) joined += event_json(chunk)["text_output"];
  CHECK(joined == whole["text_output"]);
}

TEST_CASE("embeddings and rankings wait base + per-item latency") {
  MockConfig config = fast_config();
  config.fast = false;
  config.ttft_ms = config.itl_ms = 0;
  config.embedding_base_latency_ms = 30;
  config.embedding_per_input_latency_ms = 20;
  config.ranking_base_latency_ms = 10;
  config.ranking_per_passage_latency_ms = 15;
  ServerFixture fixture(config);
  using Clock = std::chrono::steady_clock;
  auto elapsed_ms = [&](const std::string& target, const std::string& body) {
    const auto start = Clock::now();
    CHECK(fixture.client().send(post(target, body)).result_int() == 200);
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  };
  CHECK(elapsed_ms("/v1/embeddings", R"({"input":["a","b","c"]})") >= 90.0);  // 30 + 3 x 20
  CHECK(elapsed_ms("/rerank", R"({"query":"q","texts":["a","b","c","d"]})") >= 70.0);  // 10 + 4 x 15
}

TEST_CASE("latency options: defaults from AIPerf, parsed values, --fast zeroes them") {
  auto parse = [](std::vector<std::string> args) {
    CLI::App app;
    MockConfig config;
    add_mock_options(app, config);
    std::reverse(args.begin(), args.end());
    app.parse(args);
    return config;
  };
  const MockConfig defaults = parse({});
  CHECK(defaults.embedding_base_latency_ms == 10.0);
  CHECK(defaults.embedding_per_input_latency_ms == 2.0);
  CHECK(defaults.ranking_base_latency_ms == 10.0);
  CHECK(defaults.ranking_per_passage_latency_ms == 1.0);
  const MockConfig set = parse({"--embedding-base-latency", "4", "--embedding-per-input-latency", "0.5",
                                "--ranking-base-latency", "6", "--ranking-per-passage-latency", "0.25"});
  CHECK(set.embedding_base_latency_ms == 4.0);
  CHECK(set.embedding_per_input_latency_ms == 0.5);
  CHECK(set.ranking_base_latency_ms == 6.0);
  CHECK(set.ranking_per_passage_latency_ms == 0.25);
  MockConfig fast = set;
  fast.fast = true;
  const ServerState state(fast, TextPool::builtin_words());
  CHECK(state.embedding_latency.base.count() == 0);
  CHECK(state.ranking_latency.per_item.count() == 0);
  const ServerState slow(set, TextPool::builtin_words());
  CHECK(slow.embedding_latency.base.count() == 4'000'000);
  CHECK(slow.ranking_latency.per_item.count() == 250'000);
}
