// Each endpoint's response parser and what the record processor makes of its result: the bytes
// a server sent, as process_record gets them (parse_response, token counts, usage, then every
// record metric). Byte 0 picks the endpoint type (low 4 bits, plus 16 when bit 5 is set, modulo
// the 20 types in endpoint_table.cpp order: 0 chat, 1 completions, 2 embeddings, 3 chat_embeddings,
// 4 nim_embeddings, 5 nim_rankings, 6 cohere_rankings, 7 hf_tei_rankings, 8 huggingface_generate,
// 9 image_generation, 10 solido_rag, 11 template, 12 responses, 13 messages, 14 raw,
// 15 generate, 16 image_retrieval, 17 image_edit, 18 audio_transcription, 19 video_generation:
// each chunk is one job response) and, in bit 4,
// --use-server-token-count. Byte 1 picks the framing (bit 0: SSE, else a plain body), the chunk
// size (bits 1-4) and, for the template and raw endpoints, the response_field (bits 5-7). The rest is the
// body, cut into chunks as socket reads would deliver it.
// Neither may throw (they run in the record processor on whatever a server returned), and a
// parsed record is either an error or has content responses, never both.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"
#include "endpoints/json_path.h"
#include "metric_record.pb.h"
#include "metrics/metric_context.h"
#include "record_processor_service.h"
#include "tokenizer/tokenizer.h"

namespace {

// Token counts without a vocabulary: one token per 4 bytes (cheap, and any text is valid).
class ByteTokenizer final : public aiperf::tok::Tokenizer {
 public:
  std::vector<aiperf::tok::TokenId> encode(std::string_view text) const override {
    return std::vector<aiperf::tok::TokenId>((text.size() + 3) / 4, 1);
  }
  std::string decode(std::span<const aiperf::tok::TokenId> ids, bool) const override {
    return std::string(ids.size(), 'x');
  }
  size_t vocab_size() const override { return 2; }
  std::optional<aiperf::tok::TokenId> block_separator() const override { return std::nullopt; }
};

struct Setup {
  std::vector<const aiperf::endpoints::EndpointInfo*> endpoints;
  std::vector<aiperf::endpoints::ParseOptions> options;
  ByteTokenizer tokenizer;
};

const Setup& setup() {
  static const Setup s = [] {
    Setup s;
    for (const std::string& name : aiperf::endpoints::endpoint_type_names())
      s.endpoints.push_back(aiperf::endpoints::find_endpoint(name));
    s.options.emplace_back();  // auto-detect
    for (const char* field : {"choices[0].text", "data[-1].embedding", "\"generated-text\"", "a.b[2]",
                              "output[0].content[1].text", "results", "x[-2]"}) {
      const nlohmann::json extra = {{"response_field", field}};
      s.options.push_back(aiperf::endpoints::parse_options_for("template", extra));
    }
    return s;
  }();
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const Setup& s = setup();
  const auto* info = s.endpoints[((data[0] & 15) | ((data[0] & 32) >> 1)) % s.endpoints.size()];
  const bool server_counts = data[0] & 16;
  const bool sse = data[1] & 1;
  const size_t chunk = 1 + ((data[1] >> 1) & 15) * 8;
  const auto& options = s.options[(data[1] >> 5) % s.options.size()];

  aiperf::proto::RawRecord raw;
  raw.set_status_code(200);
  raw.set_content_type(sse ? "text/event-stream; charset=utf-8" : "application/json");
  raw.set_streaming(sse);
  raw.set_start_perf_ns(1000);
  raw.set_start_wall_ns(1'700'000'000'000'000'000);
  raw.set_ack_perf_ns(1500);
  raw.set_input_text("Hello there, how are you?");
  raw.set_requested_osl(16);
  const char* body = reinterpret_cast<const char*>(data) + 2;
  const size_t body_size = size - 2;
  int64_t t = 2000;
  for (size_t i = 0; i < body_size; i += chunk) {
    auto* c = raw.add_chunks();
    c->set_perf_ns(t += 10);
    c->set_data(body + i, std::min(chunk, body_size - i));
  }
  raw.set_end_perf_ns(t + 10);

  const auto parsed = aiperf::endpoints::parse_response(*info, raw, options);
  if (parsed.error.has_value() == !parsed.responses.empty()) std::abort();

  aiperf::metrics::MetricContext ctx;
  ctx.streaming = sse && info->supports_streaming;
  ctx.produces_tokens = info->produces_tokens;
  ctx.tokenizes_input = info->tokenizes_input;
  ctx.use_server_token_count = server_counts;
  aiperf::endpoints::set_default_parse_options(options);
  aiperf::proto::MetricRecord rec;
  aiperf::record_processor::process_record(raw, *info, s.tokenizer, ctx, server_counts, "fuzz", nullptr, rec);
  return 0;
}
