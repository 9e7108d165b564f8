// --per-chunk-usage: the first content chunk's reported completion tokens, and inter-token
// latency dividing by OSL minus them (AIPerf 0.13's first_content_chunk_completion_tokens and
// InterTokenLatencyMetric).
#include <catch2/catch.hpp>

#include "endpoints/endpoint.h"
#include "metrics/record_metrics.h"

using namespace aiperf;

namespace {

constexpr int64_t kMs = 1'000'000;

proto::RawRecord sse(const std::vector<std::string>& datas) {
  proto::RawRecord raw;
  raw.set_status_code(200);
  raw.set_content_type("text/event-stream");
  int64_t t = 100;
  for (const auto& d : datas) {
    auto* c = raw.add_chunks();
    c->set_perf_ns(t += 10);
    c->set_data("data: " + d + "\n\n");
  }
  raw.set_end_perf_ns(t + 1);
  return raw;
}

std::string chunk(const std::string& content, std::optional<int> completion_tokens) {
  std::string s = R"({"object":"chat.completion.chunk","choices":[{"delta":{"content":")" + content + R"("}}])";
  if (completion_tokens) s += R"(,"usage":{"prompt_tokens":5,"completion_tokens":)" + std::to_string(*completion_tokens) + "}";
  return s + "}";
}

double itl(std::optional<int64_t> first_chunk_tokens, int64_t osl) {
  metrics::ParsedRecord r;
  for (int64_t ms : {50, 60, 70}) r.responses.push_back({ms * kMs, "tok", ""});
  r.end_perf_ns = 71 * kMs;
  r.output_tokens = osl;
  r.input_tokens = 10;
  r.first_content_chunk_tokens = first_chunk_tokens;
  metrics::MetricContext ctx;
  ctx.streaming = true;
  google::protobuf::RepeatedPtrField<proto::MetricValue> out;
  metrics::compute_record_metrics(r, ctx, &out);
  for (const auto& mv : out)
    if (mv.tag() == "inter_token_latency") return mv.value();
  return -1;
}

}  // namespace

TEST_CASE("per-chunk usage: the first chunk with content and usage gives the count", "[unit][control]") {
  const auto* chat = endpoints::find_endpoint("chat");
  auto parsed = endpoints::parse_response(
      *chat, sse({chunk("", 0), chunk("Hello world", 3), chunk(" again", 4), "[DONE]"}));
  REQUIRE_FALSE(parsed.error);
  CHECK(parsed.first_content_chunk_tokens == 3);  // the empty role chunk is not content
  CHECK(parsed.usage->completion_tokens == 4);
  // A content chunk without usage is passed over, as the reference does.
  parsed = endpoints::parse_response(*chat, sse({chunk("Hello", std::nullopt), chunk(" world", 2), "[DONE]"}));
  CHECK(parsed.first_content_chunk_tokens == 2);
  parsed = endpoints::parse_response(*chat, sse({chunk("Hello", std::nullopt), R"({"choices":[],"usage":{"completion_tokens":2}})", "[DONE]"}));
  CHECK_FALSE(parsed.first_content_chunk_tokens);  // usage only at the end: not reported
}

TEST_CASE("per-chunk usage: ITL divides by OSL minus the first chunk's tokens, else OSL - 1", "[unit][control]") {
  // request latency - TTFT = 70 - 50 = 20 ms (the record fixture's convention: last content).
  const double base = itl(std::nullopt, 5);
  CHECK(itl(3, 5) == Approx(base * 4 / 2));  // 20 ms / (5 - 3) instead of / (5 - 1)
  CHECK(itl(1, 5) == Approx(base));
  CHECK(itl(5, 5) == Approx(base));   // OSL - k < 1: inconsistent, OSL - 1
  CHECK(itl(0, 5) == Approx(base));   // k <= 0: OSL - 1
  CHECK(itl(std::nullopt, 5) > 0);
}
