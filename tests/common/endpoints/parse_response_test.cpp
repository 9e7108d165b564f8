#include <catch2/catch.hpp>

#include "endpoints/endpoint.h"

using namespace aiperf;
using endpoints::find_endpoint;
using endpoints::parse_response;

namespace {

const char* const kHead =
    R"({"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[)";

std::string chat_chunk(const std::string& delta, const std::string& finish = "null") {
  return std::string("data: ") + kHead + R"({"index":0,"delta":)" + delta +
         R"(,"finish_reason":)" + finish + "}]}\n\n";
}

proto::RawRecord sse_record(const std::vector<std::pair<int64_t, std::string>>& chunks) {
  proto::RawRecord raw;
  raw.set_status_code(200);
  raw.set_content_type("text/event-stream; charset=utf-8");
  for (const auto& [t, data] : chunks) {
    auto* c = raw.add_chunks();
    c->set_perf_ns(t);
    c->set_data(data);
  }
  raw.set_end_perf_ns(chunks.empty() ? 0 : chunks.back().first + 1);
  return raw;
}

const std::string kInvalidResult =
    "Invalid inference result: No responses with actual content were received from the server "
    "(only usage/metadata, null/empty data, or [DONE] markers)";

}  // namespace

TEST_CASE("streaming chat: role chunk, 3 content chunks, usage, [DONE]") {
  const auto raw = sse_record({
      {100, chat_chunk(R"({"role":"assistant","content":""})")},
      {200, chat_chunk(R"({"content":"Hel"})")},
      {300, chat_chunk(R"({"content":"lo"})") + chat_chunk(R"({"content":"!"})")},
      {400, chat_chunk("{}", R"("stop")")},
      {500, std::string("data: ") + kHead +
                R"(],"usage":{"prompt_tokens":7,"completion_tokens":3,"total_tokens":10,)"
                R"("completion_tokens_details":{"reasoning_tokens":1}}})" + "\n\n"},
      {600, "data: [DONE]\n\n"},
  });
  const auto result = parse_response(*find_endpoint("chat"), raw);
  REQUIRE_FALSE(result.error);
  REQUIRE(result.responses.size() == 3);
  CHECK(result.responses[0].text == "Hel");
  CHECK(result.responses[0].perf_ns == 200);
  CHECK(result.responses[1].text == "lo");
  CHECK(result.responses[1].perf_ns == 300);
  CHECK(result.responses[2].text == "!");
  CHECK(result.responses[2].perf_ns == 300);
  for (const auto& r : result.responses) CHECK(r.reasoning.empty());
  REQUIRE(result.usage);
  CHECK(result.usage->prompt_tokens == 7);
  CHECK(result.usage->completion_tokens == 3);
  CHECK(result.usage->total_tokens == 10);
  CHECK(result.usage->reasoning_tokens == 1);
}

// llama.cpp's server opens every stream with this chunk, before the first token (tests/real_server).
TEST_CASE("streaming chat: a role chunk with content null is not a response") {
  const auto raw = sse_record({
      {100, chat_chunk(R"({"role":"assistant","content":null})")},
      {200, chat_chunk(R"({"content":"Hi"})")},
      {300, "data: [DONE]\n\n"},
  });
  const auto result = parse_response(*find_endpoint("chat"), raw);
  REQUIRE_FALSE(result.error);
  REQUIRE(result.responses.size() == 1);
  CHECK(result.responses[0].text == "Hi");
  CHECK(result.responses[0].perf_ns == 200);
}

TEST_CASE("streaming chat: event split across chunks is stamped by the completing chunk") {
  const std::string event = chat_chunk(R"({"content":"split"})");
  const auto raw = sse_record({{10, event.substr(0, 30)}, {20, event.substr(30)}});
  const auto result = parse_response(*find_endpoint("chat"), raw);
  REQUIRE_FALSE(result.error);
  REQUIRE(result.responses.size() == 1);
  CHECK(result.responses[0].perf_ns == 20);
}

TEST_CASE("streaming chat: reasoning_content and reasoning fields") {
  const auto raw = sse_record({
      {1, chat_chunk(R"({"reasoning_content":"think"})")},
      {2, chat_chunk(R"({"reasoning":"more","content":null})")},
      {3, chat_chunk(R"({"content":"answer","reasoning_content":null})")},
  });
  const auto result = parse_response(*find_endpoint("chat"), raw);
  REQUIRE_FALSE(result.error);
  REQUIRE(result.responses.size() == 3);
  CHECK(result.responses[0].reasoning == "think");
  CHECK(result.responses[0].text.empty());
  CHECK(result.responses[1].reasoning == "more");
  CHECK(result.responses[2].text == "answer");
  CHECK(result.responses[2].reasoning.empty());
  CHECK_FALSE(result.usage);
}

TEST_CASE("non-streaming chat completion: one response at the last chunk's time") {
  proto::RawRecord raw;
  raw.set_status_code(200);
  raw.set_content_type("application/json");
  raw.set_end_perf_ns(999);
  const std::string body =
      R"({"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant",)"
      R"("content":"Full answer","reasoning_content":"why"}}],"usage":{"prompt_tokens":5,)"
      R"("completion_tokens":2,"total_tokens":7}})";
  auto* a = raw.add_chunks();
  a->set_perf_ns(50);
  a->set_data(body.substr(0, 40));
  auto* b = raw.add_chunks();
  b->set_perf_ns(60);
  b->set_data(body.substr(40));
  const auto result = parse_response(*find_endpoint("chat"), raw);
  REQUIRE_FALSE(result.error);
  REQUIRE(result.responses.size() == 1);
  CHECK(result.responses[0].perf_ns == 60);
  CHECK(result.responses[0].text == "Full answer");
  CHECK(result.responses[0].reasoning == "why");
  REQUIRE(result.usage);
  CHECK(result.usage->total_tokens == 7);
  CHECK_FALSE(result.usage->reasoning_tokens);
}

TEST_CASE("completions: streaming text_completion and non-streaming") {
  const auto raw = sse_record({
      {1, R"(data: {"object":"text_completion","choices":[{"index":0,"text":"Once"}]})" "\n\n"},
      {2, R"(data: {"object":"text_completion","choices":[{"index":0,"text":" upon"}]})" "\n\n"},
      {3, "data: [DONE]\n\n"},
  });
  const auto streamed = parse_response(*find_endpoint("completions"), raw);
  REQUIRE_FALSE(streamed.error);
  REQUIRE(streamed.responses.size() == 2);
  CHECK(streamed.responses[1].text == " upon");
  CHECK(streamed.responses[1].perf_ns == 2);

  proto::RawRecord whole;
  whole.set_status_code(200);
  whole.set_content_type("application/json");
  auto* c = whole.add_chunks();
  c->set_perf_ns(42);
  c->set_data(R"({"object":"completion","choices":[{"text":"done"}]})");
  const auto result = parse_response(*find_endpoint("completions"), whole);
  REQUIRE_FALSE(result.error);
  REQUIRE(result.responses.size() == 1);
  CHECK(result.responses[0].text == "done");
  CHECK(result.responses[0].perf_ns == 42);
}

TEST_CASE("event: error fails the record with SSEResponseError 502") {
  const auto raw = sse_record({
      {1, chat_chunk(R"({"content":"a"})")},
      {2, "event: error\n: upstream overloaded\ndata: {\"x\":1}\n\n"},
  });
  const auto result = parse_response(*find_endpoint("chat"), raw);
  REQUIRE(result.error);
  CHECK(result.error->code() == 502);
  CHECK(result.error->type() == "SSEResponseError");
  CHECK(result.error->message() == "Error occurred in SSE response: upstream overloaded");
  CHECK(result.responses.empty());

  const auto no_comment = parse_response(*find_endpoint("chat"),
                                         sse_record({{1, "event: error\ndata: boom\n\n"}}));
  REQUIRE(no_comment.error);
  CHECK(no_comment.error->message() == "Error occurred in SSE response: boom");
}

TEST_CASE("malformed JSON is a JSONDecodeError with an excerpt") {
  const auto result = parse_response(*find_endpoint("chat"),
                                     sse_record({{1, "data: {\"object\": \"chat.compl\n\n"}}));
  REQUIRE(result.error);
  CHECK_FALSE(result.error->has_code());
  CHECK(result.error->type() == "JSONDecodeError");
  CHECK(result.error->message() == "Failed to decode JSON response: '{\"object\": \"chat.compl'");
}

TEST_CASE("unexpected object type is a ValueError") {
  const auto result = parse_response(
      *find_endpoint("chat"),
      sse_record({{1, R"(data: {"object":"text_completion","choices":[{"text":"x"}]})" "\n\n"}}));
  REQUIRE(result.error);
  CHECK(result.error->type() == "ValueError");
  CHECK(result.responses.empty());
}

TEST_CASE("usage-only stream is an InvalidInferenceResultError") {
  const auto raw = sse_record({
      {1, chat_chunk(R"({"role":"assistant"})")},
      {2, std::string("data: ") + kHead + R"(],"usage":{"prompt_tokens":3,"completion_tokens":0}})" + "\n\n"},
      {3, ": keep-alive\n\ndata: [DONE]\n\n"},
  });
  const auto result = parse_response(*find_endpoint("chat"), raw);
  REQUIRE(result.error);
  CHECK_FALSE(result.error->has_code());
  CHECK(result.error->type() == "InvalidInferenceResultError");
  CHECK(result.error->message() == kInvalidResult);
  REQUIRE(result.usage);
  CHECK(result.usage->prompt_tokens == 3);
}

TEST_CASE("transport and status errors pass through") {
  proto::RawRecord raw;
  raw.mutable_error()->set_type("TimeoutError");
  raw.mutable_error()->set_message("Request timed out after 1 seconds");
  auto result = parse_response(*find_endpoint("chat"), raw);
  REQUIRE(result.error);
  CHECK(result.error->type() == "TimeoutError");

  proto::RawRecord status;
  status.set_status_code(204);
  result = parse_response(*find_endpoint("chat"), status);
  REQUIRE(result.error);
  CHECK(result.error->code() == 204);
  CHECK(result.error->type() == "No Content");

  proto::RawRecord empty;
  empty.set_status_code(200);
  empty.set_content_type("application/json");
  result = parse_response(*find_endpoint("chat"), empty);
  REQUIRE(result.error);
  CHECK(result.error->type() == "InvalidInferenceResultError");
}

namespace {

proto::RawRecord json_body(const std::string& body) {
  proto::RawRecord raw;
  raw.set_status_code(200);
  raw.set_content_type("application/json");
  auto* c = raw.add_chunks();
  c->set_perf_ns(50);
  c->set_data(body);
  raw.set_end_perf_ns(60);
  return raw;
}

}  // namespace

TEST_CASE("embeddings and rankings: one content response when the result list is non-empty") {
  for (const char* type : {"embeddings", "nim_embeddings", "chat_embeddings"}) {
    const auto ok = parse_response(*find_endpoint(type), json_body(
        R"({"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.1,0.2]}],)"
        R"("usage":{"prompt_tokens":3,"total_tokens":3}})"));
    REQUIRE_FALSE(ok.error);
    REQUIRE(ok.responses.size() == 1);
    CHECK(ok.responses[0].perf_ns == 50);
    CHECK(ok.usage->prompt_tokens == 3);
    const auto empty = parse_response(*find_endpoint(type), json_body(R"({"data":[]})"));
    CHECK(empty.error->type() == "InvalidInferenceResultError");
  }
  CHECK(parse_response(*find_endpoint("nim_rankings"), json_body(R"({"rankings":[{"index":0,"logit":1.5}]})"))
            .responses.size() == 1);
  CHECK(parse_response(*find_endpoint("cohere_rankings"),
                       json_body(R"({"results":[{"index":1,"relevance_score":0.9}]})")).responses.size() == 1);
  CHECK(parse_response(*find_endpoint("hf_tei_rankings"), json_body(R"([{"index":0,"score":0.3}])"))
            .responses.size() == 1);
  CHECK(parse_response(*find_endpoint("hf_tei_rankings"), json_body("[]")).error);
}

TEST_CASE("huggingface_generate: generated_text, or token.text per stream event") {
  const auto whole = parse_response(*find_endpoint("huggingface_generate"),
                                    json_body(R"([{"generated_text":" hello world"}])"));
  REQUIRE(whole.responses.size() == 1);
  CHECK(whole.responses[0].text == " hello world");

  const auto raw = sse_record({
      {10, R"(data: {"index":0,"token":{"id":1,"text":" hi","special":false},"generated_text":null})" "\n\n"},
      {20, R"(data: {"index":1,"token":{"id":2,"text":" there","special":false},"generated_text":" hi there"})" "\n\n"},
  });
  const auto stream = parse_response(*find_endpoint("huggingface_generate"), raw);
  REQUIRE(stream.responses.size() == 2);
  CHECK(stream.responses[0].text == " hi");
  CHECK(stream.responses[1].text == " there");  // the final generated_text is not repeated
  CHECK(stream.responses[1].perf_ns == 20);
}
