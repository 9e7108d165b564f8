// ParsedRecord: one request after response parsing and tokenization, the input of every
// per-record metric. Produced by the record processor; all times are the worker host's
// steady clock (ns) except start_wall_ns.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common.pb.h"

namespace aiperf::metrics {

// A response that carried content (text or reasoning); usage-only chunks, empty deltas and
// [DONE] are not content responses.
struct ContentResponse {
  int64_t perf_ns = 0;
  std::string text;       // output content
  std::string reasoning;  // reasoning_content / reasoning
};

// The server's usage block as AIPerf 0.13's Usage reads it, every vendor spelling folded into one
// member each (endpoints/usage_fields.h has the synonyms and their precedence). Unset = absent.
struct Usage {
  std::optional<int64_t> prompt_tokens;  // disjoint vendors (Anthropic, Bedrock): input + cache reads + writes
  std::optional<int64_t> completion_tokens;
  std::optional<int64_t> total_tokens;
  std::optional<int64_t> reasoning_tokens;  // completion_tokens_details.reasoning_tokens
  std::optional<int64_t> prompt_cache_read_tokens;  // prompt_tokens_details.cached_tokens, cache_read_input_tokens, ...
  std::optional<int64_t> prompt_cache_write_tokens;   // cache_creation_input_tokens, cacheWriteInputTokens
  std::optional<int64_t> prompt_cache_miss_tokens;    // DeepSeek's prompt_cache_miss_tokens
  std::optional<int64_t> prompt_audio_tokens;         // prompt_tokens_details.audio_tokens
  std::optional<int64_t> completion_audio_tokens;     // completion_tokens_details.audio_tokens
  std::optional<int64_t> accepted_prediction_tokens;  // completion_tokens_details.accepted_prediction_tokens
  std::optional<int64_t> rejected_prediction_tokens;  // completion_tokens_details.rejected_prediction_tokens
  std::optional<int64_t> tool_use_prompt_tokens;      // Gemini's toolUsePromptTokenCount
  std::optional<double> prompt_audio_seconds;         // Mistral's prompt_audio_seconds (a duration)
};

// One request's speculative-decoding acceptance (AIPerf 0.13's SpecDecodeAcceptanceRecord), from
// vLLM's per-request `metrics.speculative_decoding` object, already checked for consistency
// (endpoints/spec_decode.h). Counts exclude the bonus token each verify step adds.
struct SpecDecode {
  double mean_acceptance_length = 0;          // as the server reports it: 1 + accepted / steps
  double draft_acceptance_rate = 0;           // as the server reports it, a 0..1 fraction
  std::vector<int64_t> acceptance_histogram;  // index j: verify steps that accepted exactly j drafts
  int64_t num_accepted_draft_tokens = 0;
  int64_t num_draft_tokens = 0;
  int64_t num_spec_steps = 0;
  std::optional<int64_t> num_spec_tokens;                 // the draft length bound k, when the server sent it
  std::optional<std::vector<int64_t>> per_step_accepted;  // one entry per verify step, when sent
  std::optional<std::vector<int64_t>> per_step_drafted;
};

// llama.cpp's per-request `timings` object (non-streaming bodies and the final streamed chunk),
// as the server reports it: milliseconds and token counts. Unset members were absent.
struct ServerTimings {
  std::optional<int64_t> cache_n;     // prompt tokens reused from the slot's cache
  std::optional<int64_t> prompt_n;    // prompt tokens processed (cache_n excluded)
  std::optional<double> prompt_ms;    // prefill time
  std::optional<int64_t> predicted_n; // tokens generated
  std::optional<double> predicted_ms; // decode time (after the first token)
  std::optional<double> predicted_per_token_ms;  // predicted_ms / (predicted_n - 1)
};

// The request's HTTP phases as AIPerf's aiohttp trace reports them, input of the http_req_*
// metrics. Steady ns, 0 = did not happen.
struct HttpTiming {
  int64_t pool_wait_start_ns = 0;     // queued for a connection slot
  int64_t pool_wait_end_ns = 0;
  int64_t connection_reused_ns = 0;   // an idle pooled connection was taken
  int64_t dns_cache_hit_ns = 0;
  int64_t dns_start_ns = 0;           // lookup on a cache miss
  int64_t dns_end_ns = 0;
  int64_t connect_start_ns = 0;       // new connection, after DNS
  int64_t connect_end_ns = 0;         // connection ready: TCP plus, for https, the TLS handshake
  int64_t send_start_ns = 0;          // request head starts going out
  int64_t send_end_ns = 0;            // last request body chunk written (0 = no body chunk)
  int64_t request_chunks = 0;         // body writes (aiohttp counts the body, not the head)
  int64_t request_bytes = 0;          // body bytes
  int64_t response_chunks = 0;        // body reads
  int64_t response_bytes = 0;         // body bytes
  int64_t first_chunk_ns = 0;         // first response body bytes
  int64_t last_chunk_ns = 0;          // last response body bytes
};

struct ParsedRecord {
  int64_t start_perf_ns = 0;
  int64_t ack_perf_ns = 0;   // 0 = no response headers
  int64_t end_perf_ns = 0;
  int64_t start_wall_ns = 0;
  int64_t intended_start_wall_ns = 0;  // when the schedule meant to send it; 0 = no intent
  std::vector<ContentResponse> responses;
  std::optional<Usage> usage;                 // last usage seen
  // --per-chunk-usage: completion_tokens reported on the first chunk carrying content and usage
  // (cumulative usage: the tokens that chunk delivered); inter-token latency divides by OSL - it.
  std::optional<int64_t> first_content_chunk_tokens;
  std::optional<int64_t> input_tokens;        // ISL (client tokenizer or server usage)
  std::optional<int64_t> output_tokens;       // tokens of "".join(text)
  std::optional<int64_t> reasoning_tokens;    // tokens of "".join(reasoning)
  std::optional<int64_t> requested_osl;       // turn max_tokens
  std::optional<int64_t> num_images;          // images sent, as the endpoint counts them (endpoints::image_count)
  std::optional<double> audio_duration_seconds;  // input audio length (synthetic audio), seconds
  std::optional<double> video_inference_time_s;  // video job: server-reported inference_time_s
  std::optional<double> video_peak_memory_mb;    // video job: server-reported peak_memory_mb
  std::optional<ServerTimings> server_timings;  // llama.cpp `timings`, the last seen
  std::optional<SpecDecode> spec_decode;        // vLLM's speculative-decoding acceptance
  std::optional<proto::ErrorDetails> error;   // set => error record
  std::optional<HttpTiming> http;             // absent: the transport recorded no trace

  bool valid() const { return !error.has_value(); }
};

}  // namespace aiperf::metrics
