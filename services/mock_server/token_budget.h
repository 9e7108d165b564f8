// How many tokens a mock response has: the prompt is counted cheaply by characters (no tokenizer
// on the request path) and the output length follows AIPerf's mock server rules (spec §8.1).
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace aiperf::mock {

// Approximate token count of `text`: one token per 4 characters, a token absorbing a whitespace
// found within the 2 characters that follow it (so "word " counts as one token, not two).
int count_prompt_tokens(std::string_view text);

// Accumulates the counted prompt and a hash of it; the hash makes output lengths deterministic
// per prompt without a random generator.
class PromptTally {
 public:
  void add(std::string_view text);
  int tokens() const { return tokens_; }
  uint64_t hash() const { return hash_; }

 private:
  int tokens_ = 0;
  uint64_t hash_ = 14695981039346656037ull;  // FNV-1a offset basis
};

struct OutputRequest {
  std::optional<int> max_tokens;  // max_completion_tokens / max_tokens
  std::optional<int> min_tokens;
  bool ignore_eos = false;
};

struct OutputPlan {
  int tokens = 0;
  bool hit_limit = false;  // finish_reason "length" (budget exhausted) rather than "stop"
};

// max = max_tokens or max(2*prompt, 16); min = min(min_tokens, max) or max(1, int(0.8*prompt))
// (clamped to [1, max]); ignore_eos => max, else a hash-chosen length in [min, max].
OutputPlan plan_output(const OutputRequest& request, int prompt_tokens, uint64_t prompt_hash);

}  // namespace aiperf::mock
