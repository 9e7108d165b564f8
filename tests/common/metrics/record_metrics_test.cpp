#include "metrics/record_metrics.h"

#include <catch2/catch.hpp>
#include <map>

#include "record_fixtures.h"

using namespace aiperf;
using namespace aiperf::metrics;
using namespace aiperf::metrics::testing;

namespace {

struct Computed {
  std::vector<std::string> order;
  std::map<std::string, double> scalar;
  std::map<std::string, std::vector<double>> list;
};

Computed compute(const ParsedRecord& r, const MetricContext& ctx) {
  google::protobuf::RepeatedPtrField<proto::MetricValue> out;
  compute_record_metrics(r, ctx, &out);
  Computed c;
  for (const auto& mv : out) {
    c.order.push_back(mv.tag());
    if (mv.is_list()) {
      c.list[mv.tag()] = {mv.values().begin(), mv.values().end()};
    } else {
      c.scalar[mv.tag()] = mv.value();
    }
  }
  return c;
}

MetricContext streaming() {
  MetricContext ctx;
  ctx.streaming = true;
  return ctx;
}

}  // namespace

TEST_CASE("streaming record: every record metric by its formula") {
  // start 0, content at 50/60/70 ms, 3 output tokens, 100 input tokens.
  const Computed c = compute(streamed({50, 60, 70}, 3, 100), streaming());
  CHECK(c.scalar.at("time_to_first_token") == 50 * kMs);
  CHECK(c.scalar.at("time_to_second_token") == 10 * kMs);
  CHECK(c.scalar.at("time_to_first_output_token") == 50 * kMs);
  CHECK(c.scalar.at("request_latency") == 70 * kMs);
  CHECK(c.scalar.at("output_sequence_length") == 3);
  CHECK(c.scalar.at("output_token_count") == 3);
  CHECK(c.scalar.at("input_sequence_length") == 100);
  CHECK(c.scalar.at("inter_token_latency") == 10 * kMs);      // (70 - 50) / (3 - 1) ms
  CHECK(c.scalar.at("output_token_throughput_per_user") == 100.0);  // 1 / 0.010 s
  CHECK(c.scalar.at("prefill_throughput_per_user") == 2000.0);     // 100 / 0.050 s
  CHECK(c.scalar.at("decode_duration") == 20 * kMs);              // 70 - 50 ms
  CHECK(c.scalar.at("e2e_output_token_throughput") == 3 / 0.07);   // 3 tokens / 0.070 s
  CHECK(c.list.at("inter_chunk_latency") == std::vector<double>{10.0 * kMs, 10.0 * kMs});
  CHECK(c.scalar.count("reasoning_token_count") == 0);  // no reasoning text
  CHECK(c.scalar.count("error_isl") == 0);              // ERROR_ONLY
  // Dependencies first; ties in registration order.
  CHECK(c.order == std::vector<std::string>{
                       "input_sequence_length", "time_to_first_token", "time_to_second_token",
                       "time_to_first_output_token", "request_latency", "output_token_count",
                       "inter_chunk_latency", "output_sequence_length", "inter_token_latency",
                       "prefill_throughput_per_user", "decode_duration", "e2e_output_token_throughput",
                       "output_token_throughput_per_user"});
}

TEST_CASE("reasoning: TTFT counts reasoning, TTFOT waits for answer text, OSL adds both") {
  ParsedRecord r = streamed({}, 4, 10);
  r.responses = {{20 * kMs, "", "think"}, {30 * kMs, "", "more"}, {45 * kMs, "answer", ""}};
  r.reasoning_tokens = 2;
  const Computed c = compute(r, streaming());
  CHECK(c.scalar.at("time_to_first_token") == 20 * kMs);
  CHECK(c.scalar.at("time_to_first_output_token") == 45 * kMs);
  CHECK(c.scalar.at("reasoning_token_count") == 2);
  CHECK(c.scalar.at("output_sequence_length") == 6);
  CHECK(c.scalar.at("inter_token_latency") == 5 * kMs);  // (45 - 20) / (6 - 1)
}

TEST_CASE("one output token has no ITL, no per-user throughput, no TTST") {
  const Computed c = compute(streamed({50}, 1, 100), streaming());
  CHECK(c.scalar.at("request_latency") == 50 * kMs);
  CHECK(c.scalar.at("decode_duration") == 0);                  // first response is the last
  CHECK(c.scalar.at("e2e_output_token_throughput") == 20.0);  // 1 / 0.050 s
  CHECK(c.scalar.count("inter_token_latency") == 0);
  CHECK(c.scalar.count("output_token_throughput_per_user") == 0);
  CHECK(c.scalar.count("time_to_second_token") == 0);
  CHECK(c.list.count("inter_chunk_latency") == 0);
}

TEST_CASE("non-streaming runs skip STREAMING_ONLY metrics") {
  const Computed c = compute(streamed({50, 60, 70}, 3, 100), MetricContext{});
  CHECK(c.order == std::vector<std::string>{"input_sequence_length", "request_latency",
                                            "output_token_count", "output_sequence_length",
                                            "e2e_output_token_throughput"});
  CHECK(c.scalar.at("e2e_output_token_throughput") == 3 / 0.07);  // not streaming-only
}

TEST_CASE("embeddings-like endpoint: no token metrics") {
  MetricContext ctx;
  ctx.produces_tokens = false;
  const Computed c = compute(streamed({50}, 3, 100), ctx);
  CHECK(c.order == std::vector<std::string>{"input_sequence_length", "request_latency"});
}

TEST_CASE("error records get only ERROR_ONLY metrics") {
  const Computed c = compute(failed(500, "Internal Server Error", "boom", 42), streaming());
  CHECK(c.order == std::vector<std::string>{"error_isl"});
  CHECK(c.scalar.at("error_isl") == 42);
}
