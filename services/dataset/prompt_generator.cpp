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
  if (corpus_.empty()) return out;
  const size_t start = std::uniform_int_distribution<size_t>(0, corpus_.size() - 1)(rng);
  out.reserve(tokens);
  for (size_t i = 0; i < tokens; ++i) out.push_back(corpus_[(start + i) % corpus_.size()]);
  return out;
}

std::string PromptGenerator::generate(uint32_t tokens, std::mt19937_64& rng) const {
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
