// PromptGenerator: synthetic prompts of an exact token length under the run's tokenizer.
// Like AIPerf, a prompt is a window of the tokenized corpus decoded back to text; unlike
// AIPerf, the window is adjusted until the decoded text re-encodes to exactly the requested
// number of tokens, so ISL equals the request (decode/encode is not a bijection).
#pragma once
#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "config/prompt_shaping_config.h"
#include "numpy_rng.h"

#include "tokenizer/tokenizer.h"

namespace aiperf::dataset {

class PromptGenerator {
 public:
  // `tokenizer` must outlive the generator.
  PromptGenerator(const tok::Tokenizer& tokenizer, const std::string& corpus);

  // --prompt-corpus random: prompts are runs of vocabulary ids, as vLLM's random dataset makes
  // them: request i with offset o takes ids pool[(o + i + j) % n], j < length, where the pool is
  // every non-special id (style "vllm") or every id (style "sglang"); the text is then decoded,
  // re-encoded and trimmed or topped up with random ids (up to 10 rounds) to the exact length.
  // `special`: the ids vllm's pool leaves out (HF's all_special_ids); without it, the ids that
  // decode to nothing when special tokens are skipped.
  static PromptGenerator random_vocab(const tok::Tokenizer& tokenizer, config::RandomCorpusStyle style,
                                      const std::set<tok::TokenId>* special = nullptr);
  // The random corpus's per-prompt offsets in [0, vocab size), and the stream its top-up ids
  // come from (AIPerf's preseed: the range-ratio stream after its ISL and OSL draws). Prompts
  // past the offsets, or without them, draw an offset from the generate() rng.
  void use_offsets(std::vector<int64_t> offsets, NumpyIntegers* stream) const;
  // Where offsets past those come from (AIPerf's "dataset.prompt.corpus" stream); nullptr: the
  // generate() rng.
  void use_offset_stream(NumpyIntegers* stream) const;
  bool is_random_vocab() const { return random_ != nullptr; }
  size_t random_pool_size() const { return random_ ? random_->pool.size() : 0; }

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
  std::string generate_random_vocab(uint32_t tokens, std::mt19937_64& rng) const;

  const tok::Tokenizer& tokenizer_;
  std::vector<tok::TokenId> corpus_;
  // The random corpus's pool and its position; shared and mutable because generate() is const
  // for the text corpora while each random prompt advances the request index, as vLLM's does.
  struct RandomVocab {
    std::vector<tok::TokenId> pool;
    std::vector<int64_t> offsets;
    size_t next_offset = 0;
    uint64_t request_index = 0;
    NumpyIntegers* stream = nullptr;         // top-up ids
    NumpyIntegers* offset_stream = nullptr;  // offsets past `offsets`
  };
  std::shared_ptr<RandomVocab> random_;
};

// AIPerf sample_positive_normal_integer: stddev <= 0 -> max(1, round-half-even(mean));
// else gauss(mean, stddev) resampled until >= 0, then max(1, ceil(value)).
uint32_t sample_positive_normal_int(double mean, double stddev, std::mt19937_64& rng);

}  // namespace aiperf::dataset
