// GenerationRequest: what a chat or completions request body asks of the mock, reduced to the
// few numbers the response needs. Parsing is the only place the request JSON is touched.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace aiperf::mock {

enum class Api { chat, completions, tgi_generate };

struct GenerationRequest {
  Api api = Api::chat;
  std::string model_json;  // the model name as a JSON string literal, quotes included
  bool stream = false;
  bool include_usage = false;  // stream_options.include_usage
  int prompt_tokens = 0;
  int output_tokens = 0;
  bool hit_limit = false;  // finish_reason "length" rather than "stop"
  uint64_t prompt_hash = 0;
  std::string scripted_json;  // --reply-rules: the whole output text (JSON-escaped) as one token; "" = generated
};

// A request the client got wrong: answered with HTTP 400 and this message.
struct BadRequest {
  std::string message;
};

// Chat counts only `user` messages (string content or `text` parts); completions counts
// `prompt` (a string or a list of strings); TGI counts `inputs` and reads max_new_tokens,
// min_tokens and ignore_eos from `parameters` (streaming is chosen by the route, `stream`).
// Model defaults to "mock-model".
std::variant<GenerationRequest, BadRequest> parse_generation_request(Api api, std::string_view body,
                                                                     bool stream = false);

}  // namespace aiperf::mock
