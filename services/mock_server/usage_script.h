// Scripted usage extras of chat/completions answers, so tests know the exact numbers a run must
// report: prompt-cache reads (--usage-cached-tokens), any vendor's usage members
// (--usage-fields) and vLLM's per-request speculative-decoding stats (--spec-decode).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aiperf::mock {

struct UsageScript {
  // prompt_tokens_details.cached_tokens = min(this, prompt tokens), as vLLM reports prefix-cache hits.
  std::optional<int64_t> cached_tokens;
  // Members appended verbatim to every usage object: the text of a JSON object without its braces.
  std::string fields;
  // vLLM's metrics.speculative_decoding (--per-request-spec-decode-metrics) with draft length k;
  // 0 = off. Verify step i accepts accepted[i % size] drafts (capped by k and by the tokens left).
  int spec_tokens = 0;
  std::vector<int> spec_accepted;

  bool active() const { return cached_tokens || !fields.empty() || spec_tokens > 0; }
};

// --spec-decode K[:J1,J2,...]: nullopt and `error` set when malformed (K in 1..64, each J in 0..K;
// no list = every draft accepted).
std::optional<UsageScript> parse_spec_decode(const std::string& text, UsageScript script, std::string& error);
// --usage-fields: the members of a JSON object text; nullopt and `error` set when not an object.
std::optional<std::string> parse_usage_fields(const std::string& text, std::string& error);

// The members to append inside the usage object of a request with `prompt_tokens`, each
// preceded by a comma ("" when none).
std::string usage_extra_members(const UsageScript& script, int prompt_tokens);

// The speculative-decoding object of a request producing `output_tokens` (its first token comes
// from the prefill, every verify step emits its accepted drafts plus one bonus token); "" when off.
std::string spec_decode_json(const UsageScript& script, int output_tokens);

}  // namespace aiperf::mock
