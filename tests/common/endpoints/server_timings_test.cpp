// llama.cpp `timings`: read by the chat/completions response parsers (streamed final chunk and
// non-streaming body, through both the JsonScan fast path and the tree path), and the record
// metrics computed from them (server_* and the two gaps).
#include <catch2/catch.hpp>
#include <map>

#include "endpoint_test_util.h"
#include "metrics/record_metrics.h"

using namespace aiperf;
using namespace aiperf::endpoints;
using aiperf::endpoints::test::record;

namespace {

// The last two events of a real llama.cpp chat stream (llama-server, llama-cpp-python 0.3.36).
const std::string kFinalChunk =
    R"({"choices":[],"created":1795678209,"id":"chatcmpl-K","model":"/tmp/tiny.gguf","object":"chat.completion.chunk",)"
    R"("usage":{"completion_tokens":3,"prompt_tokens":9,"total_tokens":12,"prompt_tokens_details":{"cached_tokens":0}},)"
    R"("timings":{"cache_n":2,"prompt_n":7,"prompt_ms":1.089,"prompt_per_token_ms":0.121,"prompt_per_second":8264.4,)"
    R"("predicted_n":3,"predicted_ms":1.078,"predicted_per_token_ms":0.539,"predicted_per_second":1855.28}})";

const std::string kContent =
    R"({"choices":[{"finish_reason":null,"index":0,"delta":{"content":"breaker"}}],"object":"chat.completion.chunk"})";

std::string sse(const std::string& json) { return "data: " + json + "\n\n"; }

std::map<std::string, double> compute(const metrics::ParsedRecord& r, bool streaming) {
  metrics::MetricContext ctx;
  ctx.streaming = streaming;
  google::protobuf::RepeatedPtrField<proto::MetricValue> out;
  metrics::compute_record_metrics(r, ctx, &out);
  std::map<std::string, double> values;
  for (const auto& mv : out) values[mv.tag()] = mv.value();
  return values;
}

}  // namespace

TEST_CASE("timings: the final streamed chunk's llama.cpp timings are read beside its usage") {
  const auto raw = record("text/event-stream", {{10, sse(kContent)}, {20, sse(kContent)}, {30, sse(kFinalChunk)},
                                                {31, "data: [DONE]\n\n"}});
  const ParseResult p = parse_response(*find_endpoint("chat"), raw);
  REQUIRE_FALSE(p.error);
  CHECK(p.responses.size() == 2);
  REQUIRE(p.usage);
  CHECK(*p.usage->prompt_tokens == 9);
  REQUIRE(p.server_timings);
  CHECK(*p.server_timings->cache_n == 2);
  CHECK(*p.server_timings->prompt_n == 7);
  CHECK(*p.server_timings->prompt_ms == 1.089);
  CHECK(*p.server_timings->predicted_n == 3);
  CHECK(*p.server_timings->predicted_ms == 1.078);
  CHECK(*p.server_timings->predicted_per_token_ms == 0.539);
}

TEST_CASE("timings: a non-streaming completions body whose non-number members stay unset") {
  const std::string body =
      R"({"choices":[{"text":" ambient","index":0,"finish_reason":"length"}],"object":"text_completion",)"
      R"("usage":{"completion_tokens":4,"prompt_tokens":2,"total_tokens":6},)"
      R"("timings":{"cache_n":0,"prompt_n":2,"prompt_ms":1.211,"predicted_n":"4","predicted_ms":null,)"
      R"("predicted_per_token_ms":0.481}})";
  const ParseResult p = parse_response(*find_endpoint("completions"), record("application/json", {{50, body}}));
  REQUIRE_FALSE(p.error);
  REQUIRE(p.responses.size() == 1);
  CHECK(p.responses[0].text == " ambient");
  REQUIRE(p.server_timings);
  CHECK(*p.server_timings->prompt_n == 2);
  CHECK(*p.server_timings->cache_n == 0);
  CHECK(*p.server_timings->prompt_ms == 1.211);
  CHECK_FALSE(p.server_timings->predicted_n);
  CHECK_FALSE(p.server_timings->predicted_ms);
  CHECK(*p.server_timings->predicted_per_token_ms == 0.481);
}

TEST_CASE("timings: absent (or not an object) means no server timings") {
  const auto plain = record("text/event-stream", {{10, sse(kContent)}, {11, "data: [DONE]\n\n"}});
  CHECK_FALSE(parse_response(*find_endpoint("chat"), plain).server_timings);
  const auto odd = record("application/json",
                          {{5, R"({"choices":[{"text":"x"}],"object":"text_completion","timings":[1,2]})"}});
  const ParseResult p = parse_response(*find_endpoint("completions"), odd);
  CHECK_FALSE(p.error);
  CHECK_FALSE(p.server_timings);
}

TEST_CASE("timings metrics: prefill decode cache and the gaps of a streamed record") {
  metrics::ParsedRecord r;
  r.responses = {{12'000'000, "a", ""}, {14'000'000, "b", ""}, {16'000'000, "c", ""}};  // TTFT 12 ms, ITL 2 ms
  r.end_perf_ns = 17'000'000;
  r.output_tokens = 3;
  r.input_tokens = 9;
  r.server_timings = metrics::ServerTimings{2, 7, 1.5, 3, 3.25, 1.625};
  const auto v = compute(r, true);
  CHECK(v.at("server_prefill_time") == Approx(1.5e6).epsilon(1e-12));  // base unit: ns
  CHECK(v.at("server_prefill_tokens") == 7);
  CHECK(v.at("server_cached_tokens") == 2);
  CHECK(v.at("server_decode_time") == Approx(3.25e6).epsilon(1e-12));
  CHECK(v.at("server_decode_tokens") == 3);
  CHECK(v.at("server_inter_token_latency") == Approx(1.625e6).epsilon(1e-12));
  CHECK(v.at("ttft_server_gap") == Approx((12 - 1.5) * 1e6).epsilon(1e-12));
  // request_latency ends at the last response (16 ms), as AIPerf measures it.
  CHECK(v.at("request_latency_server_gap") == Approx((16 - (1.5 + 3.25)) * 1e6).epsilon(1e-12));
}

TEST_CASE("timings metrics: none without timings and no server ITL for one token nor TTFT gap unstreamed") {
  metrics::ParsedRecord r;
  r.responses = {{8'000'000, "a", ""}};
  r.end_perf_ns = 8'000'000;
  r.output_tokens = 1;
  r.input_tokens = 4;
  auto v = compute(r, false);
  for (const char* tag : {"server_prefill_time", "server_prefill_tokens", "server_cached_tokens", "server_decode_time",
                          "server_decode_tokens", "server_inter_token_latency", "ttft_server_gap",
                          "request_latency_server_gap"})
    CHECK(v.count(tag) == 0);
  r.server_timings = metrics::ServerTimings{0, 4, 2.0, 1, 0.0, 0.0};
  v = compute(r, false);
  CHECK(v.at("server_decode_tokens") == 1);
  CHECK(v.count("server_inter_token_latency") == 0);  // llama.cpp's 0 is no measurement
  CHECK(v.count("ttft_server_gap") == 0);             // TTFT is streaming-only
  CHECK(v.at("request_latency_server_gap") == Approx((8 - 2.0) * 1e6).epsilon(1e-12));
}
