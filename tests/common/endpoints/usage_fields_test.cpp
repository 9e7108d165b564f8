// The usage block in every vendor spelling AIPerf 0.13's Usage reads, through both readers (the
// JsonScan fast path of chat/completions streams and the nlohmann tree path), and vLLM's
// per-request speculative-decoding stats with the checks its adapter applies.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "endpoint_test_util.h"
#include "endpoints/spec_decode.h"
#include "endpoints/usage_json.h"

using namespace aiperf;
using namespace aiperf::endpoints;
using aiperf::endpoints::test::record;

namespace {

const std::string kContent = R"({"choices":[{"index":0,"delta":{"content":"hi"}}],"object":"chat.completion.chunk"})";

std::string sse(const std::string& json) { return "data: " + json + "\n\n"; }

// The usage of a chat stream whose trailing chunk carries `usage_json` (the scanner reads it
// unless a member sends it to the tree path).
metrics::Usage streamed_usage(const std::string& usage_json) {
  const std::string tail = R"({"choices":[],"object":"chat.completion.chunk","usage":)" + usage_json + "}";
  const ParseResult p =
      parse_response(*find_endpoint("chat"),
                     record("text/event-stream", {{10, sse(kContent)}, {20, sse(tail)}, {21, "data: [DONE]\n\n"}}));
  REQUIRE_FALSE(p.error);
  REQUIRE(p.usage);
  return *p.usage;
}

// The same block through the tree reader.
metrics::Usage tree_usage(const std::string& usage_json) { return read_usage_block(nlohmann::json::parse(usage_json)); }

// Both readers must agree; returns the tree's.
metrics::Usage both(const std::string& usage_json) {
  const metrics::Usage scanned = streamed_usage(usage_json);
  const metrics::Usage tree = tree_usage(usage_json);
  CHECK(scanned.prompt_tokens == tree.prompt_tokens);
  CHECK(scanned.completion_tokens == tree.completion_tokens);
  CHECK(scanned.total_tokens == tree.total_tokens);
  CHECK(scanned.reasoning_tokens == tree.reasoning_tokens);
  CHECK(scanned.prompt_cache_read_tokens == tree.prompt_cache_read_tokens);
  CHECK(scanned.prompt_cache_write_tokens == tree.prompt_cache_write_tokens);
  CHECK(scanned.prompt_cache_miss_tokens == tree.prompt_cache_miss_tokens);
  CHECK(scanned.prompt_audio_tokens == tree.prompt_audio_tokens);
  CHECK(scanned.completion_audio_tokens == tree.completion_audio_tokens);
  CHECK(scanned.accepted_prediction_tokens == tree.accepted_prediction_tokens);
  CHECK(scanned.rejected_prediction_tokens == tree.rejected_prediction_tokens);
  CHECK(scanned.tool_use_prompt_tokens == tree.tool_use_prompt_tokens);
  CHECK(scanned.prompt_audio_seconds == tree.prompt_audio_seconds);
  return tree;
}

}  // namespace

TEST_CASE("usage: OpenAI's nested details (cache reads, audio, predictions, reasoning)") {
  const metrics::Usage u =
      both(R"({"prompt_tokens":100,"completion_tokens":20,"total_tokens":120,)"
           R"("prompt_tokens_details":{"cached_tokens":64,"audio_tokens":3},)"
           R"("completion_tokens_details":{"reasoning_tokens":5,"audio_tokens":2,"accepted_prediction_tokens":7,)"
           R"("rejected_prediction_tokens":1}})");
  CHECK(u.prompt_tokens == 100);
  CHECK(u.completion_tokens == 20);
  CHECK(u.total_tokens == 120);
  CHECK(u.prompt_cache_read_tokens == 64);
  CHECK(u.prompt_audio_tokens == 3);
  CHECK(u.reasoning_tokens == 5);
  CHECK(u.completion_audio_tokens == 2);
  CHECK(u.accepted_prediction_tokens == 7);
  CHECK(u.rejected_prediction_tokens == 1);
  CHECK_FALSE(u.prompt_cache_write_tokens);  // OpenAI reports no writes
  CHECK_FALSE(u.prompt_cache_miss_tokens);
}

TEST_CASE("usage: Anthropic's disjoint input is re-totalled with cache reads and writes") {
  // input_tokens is only the uncached remainder: the prompt is 10 + 80 + 30.
  const metrics::Usage u =
      both(R"({"input_tokens":10,"output_tokens":5,"cache_read_input_tokens":80,"cache_creation_input_tokens":30})");
  CHECK(u.prompt_tokens == 120);
  CHECK(u.completion_tokens == 5);
  CHECK(u.prompt_cache_read_tokens == 80);
  CHECK(u.prompt_cache_write_tokens == 30);
  // Bedrock spells it in camelCase, with the same accounting.
  const metrics::Usage b = both(R"({"inputTokens":7,"outputTokens":2,"totalTokens":9,"cacheReadInputTokens":3,)"
                                R"("cacheWriteInputTokens":4})");
  CHECK(b.prompt_tokens == 14);
  CHECK(b.completion_tokens == 2);
  CHECK(b.total_tokens == 9);
  CHECK(b.prompt_cache_read_tokens == 3);
  CHECK(b.prompt_cache_write_tokens == 4);
  // OpenAI's prompt_tokens already includes the cache: never re-totalled, even beside Anthropic keys.
  CHECK(both(R"({"prompt_tokens":50,"input_tokens":10,"cache_read_input_tokens":40})").prompt_tokens == 50);
  // Without a cache key input_tokens is the whole prompt (Responses API, Cohere).
  CHECK(both(R"({"input_tokens":10,"output_tokens":5})").prompt_tokens == 10);
}

TEST_CASE("usage: DeepSeek's hits and misses, Gemini's camelCase, Mistral's audio seconds") {
  const metrics::Usage d = both(R"({"prompt_tokens":90,"completion_tokens":9,"total_tokens":99,)"
                                R"("prompt_cache_hit_tokens":60,"prompt_cache_miss_tokens":30})");
  CHECK(d.prompt_cache_read_tokens == 60);
  CHECK(d.prompt_cache_miss_tokens == 30);
  CHECK(d.prompt_tokens == 90);

  const metrics::Usage g = both(R"({"promptTokenCount":40,"candidatesTokenCount":8,"totalTokenCount":55,)"
                                R"("cachedContentTokenCount":16,"thoughtsTokenCount":7,"toolUsePromptTokenCount":6})");
  CHECK(g.prompt_tokens == 40);
  CHECK(g.completion_tokens == 8);
  CHECK(g.total_tokens == 55);
  CHECK(g.prompt_cache_read_tokens == 16);
  CHECK(g.reasoning_tokens == 7);
  CHECK(g.tool_use_prompt_tokens == 6);

  const metrics::Usage m = both(R"({"prompt_tokens":12,"completion_tokens":3,"prompt_audio_seconds":2.5})");
  CHECK(m.prompt_audio_seconds == 2.5);
  // Mistral's "no audio" sentinel is an empty object: not a number, no value.
  CHECK_FALSE(both(R"({"prompt_tokens":12,"prompt_audio_seconds":{}})").prompt_audio_seconds);
}

TEST_CASE("usage: precedence as AIPerf's synonym lists (first present wins, nested before top level)") {
  // The nested OpenAI cache read beats the top-level synonyms.
  CHECK(both(R"({"prompt_tokens":9,"prompt_tokens_details":{"cached_tokens":4},"cache_read_input_tokens":8})")
            .prompt_cache_read_tokens == 4);
  // A null nested value hands over to the top level (AIPerf tests `is not None` there)...
  CHECK(both(R"({"prompt_tokens":9,"prompt_tokens_details":{"cached_tokens":null},"prompt_cache_hit_tokens":8})")
            .prompt_cache_read_tokens == 8);
  // ...while a present but null top-level synonym hides the later ones.
  CHECK_FALSE(both(R"({"prompt_tokens":null,"input_tokens":10})").prompt_tokens);
  // prompt_tokens_details without cached_tokens: input_tokens_details is looked at next.
  CHECK(
      both(
          R"({"prompt_tokens":9,"prompt_tokens_details":{"audio_tokens":1},"input_tokens_details":{"cached_tokens":2}})")
          .prompt_cache_read_tokens == 2);
  // completion_tokens_details before output_tokens_details, whatever the key order.
  CHECK(both(R"({"output_tokens_details":{"reasoning_tokens":1},"completion_tokens_details":{"reasoning_tokens":3}})")
            .reasoning_tokens == 3);
  // A repeated details object replaces the earlier one (as the decoded tree keeps the last).
  CHECK_FALSE(both(R"({"prompt_tokens_details":{"cached_tokens":4},"prompt_tokens_details":{"audio_tokens":1}})")
                  .prompt_cache_read_tokens);
}

TEST_CASE("usage: an empty usage object is no usage, a later chunk's empty one keeps the earlier") {
  const std::string full = R"({"choices":[],"object":"chat.completion.chunk","usage":{"prompt_tokens":7,)"
                           R"("completion_tokens":2,"prompt_tokens_details":{"cached_tokens":5}}})";
  const std::string empty = R"({"choices":[],"object":"chat.completion.chunk","usage":{}})";
  for (const bool scanned : {true, false}) {
    // The plain chunk stays on the scanner; "metrics" (even null) sends the chunk to the tree path.
    const std::string tail = scanned ? empty : R"({"choices":[],"metrics":null,"usage":{}})";
    const ParseResult p = parse_response(
        *find_endpoint("chat"),
        record("text/event-stream", {{10, sse(kContent)}, {20, sse(full)}, {30, sse(tail)}, {31, "data: [DONE]\n\n"}}));
    INFO(scanned);
    REQUIRE_FALSE(p.error);
    REQUIRE(p.usage);
    CHECK(p.usage->prompt_tokens == 7);
    CHECK(p.usage->prompt_cache_read_tokens == 5);
  }
}

TEST_CASE("usage: the envelopes AIPerf unwraps (Gemini usageMetadata, Cohere meta and tokens)") {
  const metrics::Usage g = both(R"({"usageMetadata":{"promptTokenCount":30,"candidatesTokenCount":4,)"
                                R"("cachedContentTokenCount":10}})");
  CHECK(g.prompt_tokens == 30);
  CHECK(g.completion_tokens == 4);
  CHECK(g.prompt_cache_read_tokens == 10);
  // Cohere v1: meta.tokens and meta.cached_tokens; billed_units is not unwrapped.
  const metrics::Usage c1 = both(R"({"meta":{"tokens":{"input_tokens":21,"output_tokens":6},"cached_tokens":5,)"
                                 R"("billed_units":{"input_tokens":99}}})");
  CHECK(c1.prompt_tokens == 21);
  CHECK(c1.completion_tokens == 6);
  CHECK(c1.prompt_cache_read_tokens == 5);
  // Cohere v2: tokens at the top of usage, cached_tokens beside it.
  const metrics::Usage c2 = both(R"({"tokens":{"input_tokens":13,"output_tokens":2},"cached_tokens":3})");
  CHECK(c2.prompt_tokens == 13);
  CHECK(c2.completion_tokens == 2);
  CHECK(c2.prompt_cache_read_tokens == 3);
  // The usage object's own members win over an envelope's (setdefault).
  CHECK(both(R"({"prompt_tokens":1,"usageMetadata":{"promptTokenCount":2,"prompt_tokens":3}})").prompt_tokens == 1);
}

TEST_CASE("usage: the Responses and Anthropic Messages parsers read the cache fields too") {
  // Anthropic message_start / message_delta: the delta's usage is completed with the start's.
  const std::string start =
      R"({"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],)"
      R"("usage":{"input_tokens":6,"output_tokens":1,"cache_read_input_tokens":50,"cache_creation_input_tokens":4}}})";
  const std::string delta = R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}})";
  const std::string end = R"({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}})";
  auto event = [](const char* type, const std::string& data) {
    return std::string("event: ") + type + "\ndata: " + data + "\n\n";
  };
  const ParseResult p =
      parse_response(*find_endpoint("messages"), record("text/event-stream", {{10, event("message_start", start)},
                                                                              {20, event("content_block_delta", delta)},
                                                                              {30, event("message_delta", end)}}));
  REQUIRE_FALSE(p.error);
  REQUIRE(p.usage);
  CHECK(p.usage->prompt_tokens == 60);  // 6 + 50 + 4
  CHECK(p.usage->completion_tokens == 9);
  CHECK(p.usage->prompt_cache_read_tokens == 50);
  CHECK(p.usage->prompt_cache_write_tokens == 4);
}

namespace {

const char* kSpecStats =
    R"({"mean_acceptance_length":2.5,"draft_acceptance_rate":0.5,"acceptance_histogram":[1,0,2,1],)"
    R"("num_accepted_draft_tokens":7,"num_draft_tokens":12,"num_spec_steps":4,"num_spec_tokens":3})";

std::optional<metrics::SpecDecode> adapt(const std::string& payload) {
  return adapt_vllm_spec_decode(nlohmann::json::parse(payload));
}

std::string with(const char* key, const char* value) {
  nlohmann::json j = nlohmann::json::parse(kSpecStats);
  j[key] = nlohmann::json::parse(value);
  return j.dump();
}

}  // namespace

TEST_CASE("spec decode: vLLM's metrics.speculative_decoding, in the body and on the trailing usage chunk") {
  const std::string body =
      std::string(R"({"object":"chat.completion","choices":[{"index":0,"message":{"content":"abc"}}],)") +
      R"("usage":{"prompt_tokens":5,"completion_tokens":12,"total_tokens":17},)" +
      R"("metrics":{"speculative_decoding":)" + kSpecStats + "}}";
  const ParseResult full = parse_response(*find_endpoint("chat"), record("application/json", {{10, body}}));
  REQUIRE_FALSE(full.error);
  CHECK(full.spec_decode_payloads == 1);
  REQUIRE(full.spec_decode);
  CHECK(full.spec_decode->mean_acceptance_length == 2.5);
  CHECK(full.spec_decode->draft_acceptance_rate == 0.5);
  CHECK(full.spec_decode->acceptance_histogram == std::vector<int64_t>{1, 0, 2, 1});
  CHECK(full.spec_decode->num_accepted_draft_tokens == 7);
  CHECK(full.spec_decode->num_draft_tokens == 12);
  CHECK(full.spec_decode->num_spec_steps == 4);
  CHECK(full.spec_decode->num_spec_tokens == 3);
  CHECK(full.responses.size() == 1);
  CHECK(full.usage->completion_tokens == 12);

  const std::string tail = std::string(R"({"object":"text_completion","choices":[],)") +
                           R"("usage":{"prompt_tokens":5,"completion_tokens":12},"metrics":{"speculative_decoding":)" +
                           kSpecStats + "}}";
  const std::string token = R"({"object":"text_completion","choices":[{"index":0,"text":"a"}]})";
  const ParseResult streamed =
      parse_response(*find_endpoint("completions"),
                     record("text/event-stream", {{10, sse(token)}, {20, sse(tail)}, {21, "data: [DONE]\n\n"}}));
  REQUIRE_FALSE(streamed.error);
  CHECK(streamed.spec_decode_payloads == 1);
  REQUIRE(streamed.spec_decode);
  CHECK(streamed.spec_decode->num_spec_steps == 4);
  CHECK(streamed.responses.size() == 1);

  // Null or empty stats are no payload at all.
  const std::string empty = R"({"object":"chat.completion.chunk","choices":[],"metrics":{"speculative_decoding":{}}})";
  const ParseResult none =
      parse_response(*find_endpoint("chat"), record("text/event-stream", {{10, sse(kContent)}, {20, sse(empty)}}));
  CHECK(none.spec_decode_payloads == 0);
  CHECK_FALSE(none.spec_decode);
}

TEST_CASE("spec decode: payloads the reference's adapter or record refuses give no record") {
  CHECK(adapt(kSpecStats));
  CHECK_FALSE(adapt(R"({"num_spec_steps":1})"));                     // no histogram: not vLLM's
  CHECK_FALSE(adapt(with("acceptance_histogram", "[1,0,2]")));       // not num_spec_tokens + 1 buckets
  CHECK_FALSE(adapt(with("acceptance_histogram", "[1,0,2,true]")));  // a bool is no count
  CHECK_FALSE(adapt(with("acceptance_histogram", "[1,0,2.0,1]")));   // nor a fraction
  CHECK_FALSE(adapt(with("num_spec_steps", "5")));                   // histogram counts sum to 4
  CHECK_FALSE(adapt(with("num_accepted_draft_tokens", "6")));        // j-weighted sum is 7
  CHECK_FALSE(adapt(with("num_draft_tokens", "6")));                 // 7 accepted of 6 proposed
  CHECK_FALSE(adapt(with("mean_acceptance_length", "\"fast\"")));    // not a number
  CHECK_FALSE(adapt(with("draft_acceptance_rate", "\"nan\"")));      // not finite
  CHECK_FALSE(adapt(with("num_spec_tokens", "\"3\"")));              // AIPerf adds 1 to it first
  CHECK_FALSE(adapt(with("num_draft_tokens", "12.5")));              // a count with a fraction
  CHECK_FALSE(adapt(with("num_draft_tokens", "-12")));               // a negative count
  CHECK_FALSE(adapt(with("per_step_accepted", "[1,2,3]")));          // 3 entries for 4 steps
  CHECK_FALSE(adapt(with("per_step_accepted", "[0,2,2,2]")));        // sums to 6, not 7
  CHECK(adapt(with("per_step_accepted", "[0,2,2,3]")));
  CHECK(adapt(with("per_step_accepted", "[0,2,2,3.0]")));         // pydantic's lax ints: 3.0 is 3
  CHECK_FALSE(adapt(with("per_step_accepted", "[0,2,2,true]")));  // true is 1: sums to 5
  CHECK(adapt(with("per_step_drafted", "[3,3,3,3]")));
  CHECK_FALSE(adapt(with("per_step_drafted", "[3,3,3,2]")));  // sums to 11, not 12
  nlohmann::json both_lists = nlohmann::json::parse(kSpecStats);
  both_lists["per_step_accepted"] = {0, 2, 2, 3};
  both_lists["per_step_drafted"] = {4, 4, 2, 2};  // step 4 accepts 3 of 2 proposed
  CHECK_FALSE(adapt_vllm_spec_decode(both_lists));
  // Without num_spec_tokens the bucket count is not checked.
  nlohmann::json no_k = nlohmann::json::parse(kSpecStats);
  no_k.erase("num_spec_tokens");
  no_k["acceptance_histogram"] = {1, 0, 2, 1, 0};
  const auto r = adapt_vllm_spec_decode(no_k);
  REQUIRE(r);
  CHECK_FALSE(r->num_spec_tokens);

  // pydantic's lax conversions, as the reference validates the record: numeric strings, bools
  // and fraction-less floats are numbers.
  const auto lax = adapt(with("mean_acceptance_length", "\"2.5\""));
  REQUIRE(lax);
  CHECK(lax->mean_acceptance_length == 2.5);
  auto record = [](const char* key, const char* v) { return adapt(with(key, v)).value_or(metrics::SpecDecode{}); };
  CHECK(record("num_spec_steps", "4.0").num_spec_steps == 4);
  CHECK(record("num_draft_tokens", "\"12\"").num_draft_tokens == 12);
  CHECK(record("num_spec_tokens", "3.0").num_spec_tokens == 3);
  CHECK(record("draft_acceptance_rate", "true").draft_acceptance_rate == 1.0);
  CHECK_FALSE(adapt(with("num_draft_tokens", "true")));  // 1 proposed, 7 accepted
}
