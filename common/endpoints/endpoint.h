// Endpoint types: how a turn becomes an HTTP request and how a response becomes content.
// Follows AIPerf 0.6 (aiperf-spec.md §5.1-5.8).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "dataset.pb.h"
#include "metrics/parsed_record.h"
#include "raw_record.pb.h"

namespace aiperf::endpoints {

struct EndpointInfo {
  std::string_view type;            // --endpoint-type value
  std::string_view path;            // default path, e.g. "/v1/chat/completions"
  std::string_view stream_path;     // empty = same as path
  std::string_view metrics_title;   // console title, e.g. "LLM Metrics"
  bool supports_streaming;
  bool produces_tokens;
  bool tokenizes_input;
  // The body goes out as multipart/form-data (wire_body encodes build_payload's JSON).
  bool requires_form_data = false;
  // SUPPORTS_IMAGE_ONLY / SUPPORTS_AUDIO_ONLY metrics apply (num_images, image_*; audio).
  bool supports_images = false;
  bool supports_audio = false;
  // An async job API (video_generation): the worker submits the body, then polls
  // <url>/<job id> until the job completes or fails (services/worker/video_job.h).
  bool requires_polling = false;
  // PRODUCES_VIDEO_ONLY metrics apply (video_inference_time, video_peak_memory).
  bool produces_videos = false;
  // The body carries role messages the server renders with its chat template (so it counts more
  // input tokens than the client's text), and each turn's images go out as content parts.
  bool chat_messages = false;
};

// nullptr for an unknown type.
const EndpointInfo* find_endpoint(std::string_view type);
std::vector<std::string> endpoint_type_names();

// Spec §5.2: base URL + (custom endpoint | default path), "/v1" de-duplication, http://
// prepended when the URL has no scheme.
std::string build_url(const std::string& base_url, const EndpointInfo& info,
                      const std::string& custom_endpoint, bool streaming);

// The headers an endpoint type authenticates and versions its requests with, appended after
// the user's --header values: `Authorization: Bearer <key>` when an API key is given; for
// `messages`, `x-api-key: <key>` instead plus `anthropic-version: 2023-06-01` unless the user
// set that header.
std::vector<std::pair<std::string, std::string>> endpoint_headers(
    const EndpointInfo& info, const std::string& api_key,
    const std::vector<std::pair<std::string, std::string>>& user_headers);

struct PayloadOptions {
  std::string model;
  bool streaming = false;
  bool use_legacy_max_tokens = false;
  bool use_server_token_count = false;  // responses: asks for stream_options.include_usage
  // Chat: adds stream_options.continuous_usage_stats beside include_usage (which every streaming
  // chat and completions request asks for).
  bool per_chunk_usage = false;
  // GenAI-Perf 0.0.16's bodies: no stream_options added, a completions prompt always a list.
  bool genai_perf = false;
  bool kserve_vllm = false;                      // kserve: Triton's vLLM backend tensors (kserve_payload)
  bool chat_content_parts = false;               // chat: content always a list of parts (GenAI-Perf's multimodal)
  const nlohmann::json* extra_inputs = nullptr;  // object merged last (overrides)
};

// JSON request body for the last turn of `turns` with the earlier turns as history
// (spec §5.4). `system_message` / `user_context_message` may be empty.
std::string build_payload(const EndpointInfo& info, const PayloadOptions& options,
                          const std::vector<const proto::Turn*>& turns,
                          const std::string& system_message,
                          const std::string& user_context_message);

// What goes on the wire for a payload from build_payload: JSON types send it as is with
// Content-Type application/json; form-data types (image_edit, audio_transcription) encode it
// as multipart/form-data with `boundary` (multipart.h). Throws std::invalid_argument for a
// file field whose b64_data is not valid base64.
struct WireBody {
  std::string content_type;
  std::string body;
};
WireBody wire_body(const EndpointInfo& info, const std::string& payload, std::string_view boundary);

// The images a request carries as AIPerf counts them for num_images: image_retrieval's input
// parts (every non-empty image content of the last turn); for chat, responses, messages and
// chat_embeddings the image parts of every turn sent (history included); nullopt for the other
// types (image_edit's form and nim_embeddings' strings hold no part AIPerf counts), for verbatim
// bodies and for trace messages.
std::optional<int64_t> image_count(const EndpointInfo& info, const std::vector<const proto::Turn*>& turns);

// The text AIPerf counts as a request's input tokens (ISL): the system message, the user
// context message (either may be empty) and each text of each turn (its contents joined),
// joined with single spaces.
std::string input_text(const std::vector<const proto::Turn*>& turns, const std::string& system_message,
                       const std::string& user_context_message);

// input_text as endpoint `info` sends it: image_edit's and video_generation's bodies carry only
// their prompt (the last turn's first text), which is all AIPerf tokenizes for them; the other
// types as input_text.
std::string input_text_for(const EndpointInfo& info, const std::vector<const proto::Turn*>& turns,
                           const std::string& system_message, const std::string& user_context_message);

struct ParseResult {
  std::vector<metrics::ContentResponse> responses;  // content responses, in arrival order
  std::optional<metrics::Usage> usage;               // last usage block seen
  std::optional<proto::ErrorDetails> error;          // transport, HTTP, SSE or parse error
  // completion_tokens of the first event carrying both content and usage (OpenAI chat and
  // completions), as AIPerf's first_content_chunk_completion_tokens.
  std::optional<int64_t> first_content_chunk_tokens;
  // video_generation: the first inference_time_s / peak_memory_mb a job response reported.
  std::optional<double> video_inference_time_s;
  std::optional<double> video_peak_memory_mb;
  // llama.cpp's `timings` object (chat and completions), the last one seen (server_timings.h).
  std::optional<metrics::ServerTimings> server_timings;
  // vLLM's metrics.speculative_decoding (spec_decode.h): how many responses carried a non-empty
  // one, and the record of the last. AIPerf keeps no record unless exactly one did (n > 1
  // streams carry one per sequence, which a per-request record cannot attribute).
  int spec_decode_payloads = 0;
  std::optional<metrics::SpecDecode> spec_decode;
};

class JsonPath;

// Run options that change response parsing.
struct ParseOptions {
  // template: the extra `response_field` (JMESPath subset, json_path.h) selecting the content;
  // null (unset, or "text") = auto-detect embeddings, rankings, then text.
  std::shared_ptr<const JsonPath> response_field;
};

// Reads `response_field` from the run's --extra-inputs (template endpoint only). Throws
// std::invalid_argument for an expression outside the supported subset.
ParseOptions parse_options_for(const std::string& endpoint_type, const nlohmann::json& extra_inputs);

// Sets the options the two-argument parse_response uses; call once per process at configure,
// before records are parsed (not synchronized).
void set_default_parse_options(ParseOptions options);

// Turns the raw bytes of a record into content responses (spec §5.7-5.8). A record that
// had no transport error but yields no content response gets
// InvalidInferenceResultError; malformed JSON or an SSE `event: error` become errors too.
ParseResult parse_response(const EndpointInfo& info, const proto::RawRecord& raw, const ParseOptions& options);
ParseResult parse_response(const EndpointInfo& info, const proto::RawRecord& raw);

}  // namespace aiperf::endpoints
