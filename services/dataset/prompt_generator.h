// PromptGenerator: synthetic prompts of an exact token length under the run's tokenizer.
// Like AIPerf, a prompt is a window of the tokenized corpus decoded back to text; unlike
// AIPerf, the window is adjusted until the decoded text re-encodes to exactly the requested
// number of tokens, so ISL equals the request (decode/encode is not a bijection).
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace aiperf::dataset {

class PromptGenerator {
 public:
  // `tokenizer` must outlive the generator.
  PromptGenerator(const tok::Tokenizer& tokenizer, const std::string& corpus);

  // A prompt whose encode() has exactly `tokens` tokens (best effort within a bounded search;
  // the closest found otherwise). `rng` decides the window start.
  std::string generate(uint32_t tokens, std::mt19937_64& rng) const;

  size_t corpus_tokens() const { return corpus_.size(); }

  // `tokens` consecutive corpus tokens from a random start (wrapping), for prompts assembled
  // from blocks (mooncake hash_ids).
  std::vector<tok::TokenId> sample_tokens(uint32_t tokens, std::mt19937_64& rng) const;
  const tok::Tokenizer& tokenizer() const { return tokenizer_; }

 private:
  std::string decode_window(size_t start, size_t len) const;

  const tok::Tokenizer& tokenizer_;
  std::vector<tok::TokenId> corpus_;
};

// AIPerf sample_positive_normal_integer: stddev <= 0 -> max(1, round-half-even(mean));
// else gauss(mean, stddev) resampled until >= 0, then max(1, ceil(value)).
uint32_t sample_positive_normal_int(double mean, double stddev, std::mt19937_64& rng);

}  // namespace aiperf::dataset
