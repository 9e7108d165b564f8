// JSON and SSE bodies of OpenAI chat/completions responses (spec §5.7-5.8, §8.1). Bodies are
// assembled as text: pieces never need escaping and the model name is escaped once per request,
// which keeps per-token cost to a few short appends.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "generation_request.h"
#include "text_pool.h"

namespace aiperf::mock {

inline constexpr std::string_view kDoneEvent = "data: [DONE]\n\n";

class CompletionFormatter {
 public:
  // `id` makes the response id unique; `created` is the Unix time of the request.
  CompletionFormatter(GenerationRequest request, const TextPool& pool, uint64_t id, int64_t created);

  const GenerationRequest& request() const { return request_; }

  // `data: {...}\n\n` carrying output token `index`; the first one carries the assistant role
  // (chat), the last one the finish_reason. `extra` is appended to the token's text (huge_event).
  void append_token_event(std::string& out, int index, std::string_view extra = {}) const;

  // `data: {...}\n\n` with "choices": [] and the usage block.
  void append_usage_event(std::string& out) const;

  // --timings: the `timings` object (llama_timings.h) the usage block is followed by; "" = none.
  void set_timings(std::string timings_json) { timings_ = std::move(timings_json); }
  // --usage-cached-tokens / --usage-fields: members appended inside the usage block (usage_script.h).
  void set_usage_extras(std::string members) { usage_extras_ = std::move(members); }
  // --spec-decode: vLLM's metrics.speculative_decoding object, at the root beside the usage block.
  void set_spec_decode(std::string stats_json) { spec_decode_ = std::move(stats_json); }
  // Whether the stream's tail carries root members (timings, spec-decode stats) even without usage.
  bool has_root_extras() const { return !timings_.empty() || !spec_decode_.empty(); }
  // `data: {...}\n\n` with "choices": [] and those root members only (a stream without usage).
  void append_root_extras_event(std::string& out) const;

  // The whole non-streaming response body; `extra` is appended to the output text.
  std::string full_body(std::string_view extra = {}) const;

  // The stream's terminating event: "data: [DONE]" for OpenAI APIs, nothing for TGI.
  std::string_view done_event() const { return request_.api == Api::tgi_generate ? "" : kDoneEvent; }

 private:
  void append_usage(std::string& out) const;
  void append_root_extras(std::string& out) const;
  void append_tgi_token_event(std::string& out, int index, std::string_view extra) const;
  std::string_view finish_reason() const;
  // Output token `index`: the scripted reply, or the pool's piece.
  std::string_view piece(int index) const {
    if (!request_.scripted_json.empty()) return request_.scripted_json;
    return pool_.piece(pool_offset_, static_cast<size_t>(index));
  }

  GenerationRequest request_;
  const TextPool& pool_;
  size_t pool_offset_;
  std::string timings_;
  std::string usage_extras_;
  std::string spec_decode_;
  std::string envelope_;  // {"id":…,"object":…,"created":…,"model":… up to the comma before "choices"
};

// {"error":{"message":…,"type":…,"code":status}}
std::string error_body(std::string_view message, std::string_view type, int status);

}  // namespace aiperf::mock
