// Micro-benchmark: SSE events per second through parse_response (SSE split + JSON decode +
// content extraction) for a realistic 100-token streaming chat response, one event per
// chunk as a token-by-token server sends them. Also times the SSE split alone.
#include <cstdio>
#include <string>

#include "endpoints/endpoint.h"
#include "sse/sse_parser.h"
#include "time/clock.h"

using namespace aiperf;

namespace {

proto::RawRecord make_record(int tokens, int& events) {
  const std::string head =
      R"({"id":"chatcmpl-8f1c2a9e4b7d4e0fa3c5b6d7e8f90123","object":"chat.completion.chunk",)"
      R"("created":1718000000,"model":"meta-llama/Llama-3.1-8B-Instruct","system_fingerprint":null,)"
      R"("choices":[{"index":0,"delta":)";
  proto::RawRecord raw;
  raw.set_status_code(200);
  raw.set_content_type("text/event-stream");
  int64_t t = 1'000'000;
  auto add = [&](const std::string& data) {
    auto* c = raw.add_chunks();
    c->set_perf_ns(t += 10'000);
    c->set_data(data);
    ++events;
  };
  add("data: " + head + R"({"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]})" "\n\n");
  for (int i = 0; i < tokens; ++i) {
    add("data: " + head + R"({"content":" token)" + std::to_string(i) +
        R"("},"logprobs":null,"finish_reason":null}]})" "\n\n");
  }
  add("data: " + head + R"({},"logprobs":null,"finish_reason":"stop"}]})" "\n\n");
  add(R"(data: {"id":"chatcmpl-8f1c2a9e4b7d4e0fa3c5b6d7e8f90123","object":"chat.completion.chunk",)"
      R"("created":1718000000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[],)"
      R"("usage":{"prompt_tokens":128,"completion_tokens":100,"total_tokens":228}})" "\n\n");
  add("data: [DONE]\n\n");
  raw.set_end_perf_ns(t);
  return raw;
}

}  // namespace

int main() {
  int events = 0;
  const proto::RawRecord raw = make_record(100, events);
  const auto& chat = *endpoints::find_endpoint("chat");
  constexpr int kRecords = 3000;

  size_t responses = 0;
  int64_t start = steady_now_ns();
  for (int i = 0; i < kRecords; ++i) responses += parse_response(chat, raw).responses.size();
  const double full_s = double(steady_now_ns() - start) / 1e9;

  size_t sse_events = 0;
  std::vector<sse::SseEvent> out;
  start = steady_now_ns();
  for (int i = 0; i < kRecords; ++i) {
    sse::SseParser parser;
    out.clear();
    for (const auto& c : raw.chunks()) parser.feed(c.data(), c.perf_ns(), out);
    parser.finish(raw.end_perf_ns(), out);
    sse_events += out.size();
  }
  const double sse_s = double(steady_now_ns() - start) / 1e9;

  std::printf("chat stream: %d events/record, %zu content responses/record\n", events,
              responses / kRecords);
  std::printf("parse_response (SSE + JSON + extract): %.0f events/s, %.0f records/s\n",
              kRecords * events / full_s, kRecords / full_s);
  std::printf("SseParser alone:                       %.0f events/s\n", sse_events / sse_s);
  return responses == size_t(kRecords) * 100 ? 0 : 1;
}
