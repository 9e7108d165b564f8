#include "prompt_generator.h"

#include <cmath>
#include <cstdlib>

namespace aiperf::dataset {

PromptGenerator::PromptGenerator(const tok::Tokenizer& tokenizer, const std::string& corpus)
    : tokenizer_(tokenizer), corpus_(tokenizer.encode(corpus)) {}

std::string PromptGenerator::decode_window(size_t start, size_t len) const {
  std::vector<tok::TokenId> window;
  window.reserve(len);
  for (size_t i = 0; i < len; ++i) window.push_back(corpus_[(start + i) % corpus_.size()]);
  return tokenizer_.decode(window, /*skip_special_tokens=*/false);
}

std::vector<tok::TokenId> PromptGenerator::sample_tokens(uint32_t tokens, std::mt19937_64& rng) const {
  std::vector<tok::TokenId> out;
  if (random_) {  // blocks of the random corpus: consecutive pool ids from a random start
    if (random_->pool.empty()) return out;
    const size_t start = std::uniform_int_distribution<size_t>(0, random_->pool.size() - 1)(rng);
    for (size_t i = 0; i < tokens; ++i) out.push_back(random_->pool[(start + i) % random_->pool.size()]);
    return out;
  }
  if (corpus_.empty()) return out;
  const size_t start = std::uniform_int_distribution<size_t>(0, corpus_.size() - 1)(rng);
  out.reserve(tokens);
  for (size_t i = 0; i < tokens; ++i) out.push_back(corpus_[(start + i) % corpus_.size()]);
  return out;
}

PromptGenerator PromptGenerator::random_vocab(const tok::Tokenizer& tokenizer, config::RandomCorpusStyle style,
                                              const std::set<tok::TokenId>* special) {
  PromptGenerator g(tokenizer, "");
  g.random_ = std::make_shared<RandomVocab>();
  const size_t vocab = tokenizer.vocab_size();
  g.random_->pool.reserve(vocab);
  for (size_t id = 0; id < vocab; ++id) {
    const tok::TokenId t = static_cast<tok::TokenId>(id);
    if (style == config::RandomCorpusStyle::kVllm) {  // vLLM leaves the special tokens out
      if (special ? special->count(t) > 0 : tokenizer.decode(std::span<const tok::TokenId>(&t, 1), true).empty())
        continue;
    }
    g.random_->pool.push_back(t);
  }
  return g;
}

void PromptGenerator::use_offsets(std::vector<int64_t> offsets, NumpyIntegers* stream) const {
  if (!random_) return;
  random_->offsets = std::move(offsets);
  random_->next_offset = 0;
  random_->stream = stream;
}

void PromptGenerator::use_offset_stream(NumpyIntegers* stream) const {
  if (random_) random_->offset_stream = stream;
}

std::string PromptGenerator::generate_random_vocab(uint32_t tokens, std::mt19937_64& rng) const {
  RandomVocab& r = *random_;
  if (tokens == 0 || r.pool.empty()) return {};
  const size_t n = r.pool.size();
  const uint64_t offset = r.next_offset < r.offsets.size() ? static_cast<uint64_t>(r.offsets[r.next_offset++])
                          : r.offset_stream ? static_cast<uint64_t>(r.offset_stream->integers(0, static_cast<int64_t>(n), 1)[0])
                                            : std::uniform_int_distribution<uint64_t>(0, n - 1)(rng);
  const uint64_t index = r.request_index++;
  std::vector<tok::TokenId> ids;
  ids.reserve(tokens);
  for (uint32_t j = 0; j < tokens; ++j) ids.push_back(r.pool[(offset + index + j) % n]);
  // vLLM's gen_prompt_decode_to_target_len: decode, re-encode, trim or top up from the whole
  // vocabulary, at most 10 rounds.
  const size_t vocab = tokenizer_.vocab_size();
  for (int round = 0; round < 10; ++round) {
    std::string text = tokenizer_.decode(ids, /*skip_special_tokens=*/false);
    ids = tokenizer_.encode(text);
    if (ids.size() == tokens) return text;
    if (ids.size() > tokens) {
      ids.resize(tokens);
    } else {
      const size_t missing = tokens - ids.size();
      if (r.stream) {
        for (int64_t v : r.stream->integers(0, static_cast<int64_t>(vocab), missing))
          ids.push_back(static_cast<tok::TokenId>(v));
      } else {
        std::uniform_int_distribution<size_t> pick(0, vocab - 1);
        for (size_t k = 0; k < missing; ++k) ids.push_back(static_cast<tok::TokenId>(pick(rng)));
      }
    }
  }
  return tokenizer_.decode(ids, false);
}

std::string PromptGenerator::generate(uint32_t tokens, std::mt19937_64& rng) const {
  if (random_) return generate_random_vocab(tokens, rng);
  if (tokens == 0 || corpus_.empty()) return {};
  std::uniform_int_distribution<size_t> pick(0, corpus_.size() - 1);
  std::string best;
  long best_err = -1;
  // A few window starts; at each, nudge the window length toward the target count.
  for (int attempt = 0; attempt < 8; ++attempt) {
    const size_t start = pick(rng);
    long len = tokens;
    for (int step = 0; step < 6 && len > 0; ++step) {
      std::string text = decode_window(start, static_cast<size_t>(len));
      const long got = static_cast<long>(tokenizer_.count(text));
      const long err = std::labs(got - static_cast<long>(tokens));
      if (best_err < 0 || err < best_err) {
        best_err = err;
        best = std::move(text);
      }
      if (err == 0) return best;
      len += static_cast<long>(tokens) - got;
    }
  }
  return best;
}

namespace {
// [1, 2^32 - 1]: converting a double outside uint32_t's range is undefined behaviour, and a
// user's mean or std-dev can be anything (--seq-dist "512|1e50,250:60").
uint32_t clamp_u32(double v) { return static_cast<uint32_t>(std::min(std::max(1.0, v), 4294967295.0)); }
}  // namespace

uint32_t sample_positive_normal_int(double mean, double stddev, std::mt19937_64& rng) {
  if (stddev <= 0) {
    const double r = std::nearbyint(mean);  // FE_TONEAREST: round half to even, like Python
    return clamp_u32(r);
  }
  std::normal_distribution<double> gauss(mean, stddev);
  for (int i = 0; i < 10000; ++i) {
    const double v = gauss(rng);
    if (v >= 0) return clamp_u32(std::ceil(v));
  }
  return clamp_u32(std::ceil(mean));
}

}  // namespace aiperf::dataset
